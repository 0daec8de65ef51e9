import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. An endpoint failing every attempt for a day is
// switched off: since when its current run of failures lasts, and when it was switched off.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  await db.schema.alterTable('webhook').addColumn('failing_since', ts).execute();
  await db.schema.alterTable('webhook').addColumn('disabled_at', ts).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook').dropColumn('disabled_at').execute();
  await db.schema.alterTable('webhook').dropColumn('failing_since').execute();
}
