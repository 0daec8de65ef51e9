import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. Messages to the support desk (SPEC "Contact").
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  await db.schema
    .createTable('contact_message')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    // what the sender quotes (SD-XXXX-XXXX); with their e-mail it opens the status page
    .addColumn('reference', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('company_name', 'varchar(200)')
    .addColumn('category', 'varchar(20)', (c) => c.notNull())
    .addColumn('subject', 'varchar(200)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('escalated_to', 'varchar(10)')
    .addColumn('luna_response', 'text')
    .addColumn('resolution', 'text')
    .addColumn('closed_by', 'varchar(320)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('closed_at', ts)
    .execute();
  await db.schema.createIndex('contact_message_status_idx').on('contact_message').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('contact_message_user_idx').on('contact_message').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contact_message').execute();
}
