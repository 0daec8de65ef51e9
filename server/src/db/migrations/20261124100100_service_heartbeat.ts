import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. Background workers say they are alive here, so the
// admin dashboard of any instance sees every instance's worker.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  await db.schema
    .createTable('service_heartbeat')
    .addColumn('name', 'varchar(80)', (c) => c.primaryKey())
    .addColumn('beat_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('service_heartbeat').execute();
}
