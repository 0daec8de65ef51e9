/**
 * Unique-index violations, told apart the same way on both engines: PostgreSQL's SQLSTATE 23505
 * and better-sqlite3's SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. On PostgreSQL the violation has
 * aborted the transaction, so callers catch it outside the transaction and re-read.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
