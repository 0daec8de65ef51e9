import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const timestamp = isSqlite(db) ? 'text' : 'timestamptz';
  const json = isSqlite(db) ? 'text' : 'jsonb';
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('actor_user_id', 'varchar(64)')
    .addColumn('actor_label', 'varchar(320)', (c) => c.notNull())
    .addColumn('action', 'varchar(80)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(40)')
    .addColumn('subject_id', 'varchar(64)')
    .addColumn('details', json, (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_at_idx').on('audit_log').column('created_at').execute();
  await db.schema
    .createIndex('audit_log_subject_idx')
    .on('audit_log')
    .columns(['subject_type', 'subject_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
