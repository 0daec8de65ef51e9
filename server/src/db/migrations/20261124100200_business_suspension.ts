import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. An administrator can suspend a business's API access.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  await db.schema.alterTable('business').addColumn('suspended_at', ts).execute();
  await db.schema.alterTable('business').addColumn('suspended_reason', 'varchar(500)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('business').dropColumn('suspended_reason').execute();
  await db.schema.alterTable('business').dropColumn('suspended_at').execute();
}
