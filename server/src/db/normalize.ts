/**
 * The one place where values that PostgreSQL and SQLite return differently are made alike
 * (see notes/node20-stack.md): counts and bigints, timestamps, booleans and JSON.
 */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  if (value === null || value === undefined) return 0;
  throw new TypeError(`not a number: ${String(value)}`);
}

export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'string' || typeof value === 'number') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new TypeError(`not a timestamp: ${String(value)}`);
}

export function toDateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

export function toBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return value !== 0 && value !== 0n;
  if (typeof value === 'string') return value === 'true' || value === '1' || value === 't';
  return false;
}

export function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** What we bind for a JSON column: a string works on both engines (PostgreSQL casts text to json). */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}
