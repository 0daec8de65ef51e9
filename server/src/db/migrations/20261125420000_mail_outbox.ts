import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const json = isSqlite(db) ? 'text' : 'jsonb';
  const bool = isSqlite(db) ? 'integer' : 'boolean';
  const trueValue = isSqlite(db) ? sql`1` : sql`true`;

  // The mail outbox: one row per message, written in the transaction of the event that causes it.
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('to_address', 'varchar(320)', (c) => c.notNull())
    .addColumn('category', 'varchar(20)', (c) => c.notNull())
    .addColumn('template', 'varchar(60)', (c) => c.notNull())
    .addColumn('data', json, (c) => c.notNull())
    .addColumn('attachments', json, (c) => c.notNull())
    // "At most once" events (the daily low-balance mail): a second row with the same key is not written.
    .addColumn('dedupe_key', 'varchar(200)', (c) => c.unique())
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    .addColumn('locked_until', ts)
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('sent_at', ts)
    .execute();
  await db.schema.createIndex('mail_outbox_due_idx').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('mail_outbox_user_idx').on('mail_outbox').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('mail_attempt')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('mail_id', 'varchar(40)', (c) => c.notNull().references('mail_outbox.id').onDelete('cascade'))
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'varchar(12)', (c) => c.notNull())
    .addColumn('smtp_response', 'varchar(500)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_attempt_mail_idx').on('mail_attempt').columns(['mail_id', 'attempt_number']).execute();

  // A person's choice per category they may turn off; no row means on.
  await db.schema
    .createTable('mail_preference')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('category', 'varchar(20)', (c) => c.notNull())
    .addColumn('enabled', bool, (c) => c.notNull().defaultTo(trueValue))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('mail_preference_pk', ['user_id', 'category'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['mail_preference', 'mail_attempt', 'mail_outbox']) await db.schema.dropTable(table).execute();
}
