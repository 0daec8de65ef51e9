import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * PostgreSQL only. Every verified check updates its enrolment row (the replay guard's
 * last_used_step). On full pages PostgreSQL writes the new row version elsewhere and adds it to
 * each of the table's three indexes; with room left on the page the update is heap-only (HOT) and
 * touches no index. 70 % full leaves that room. Pages written before this keep their packing
 * until they are rewritten.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`alter table enrolment set (fillfactor = 70)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`alter table enrolment reset (fillfactor)`.execute(db);
}
