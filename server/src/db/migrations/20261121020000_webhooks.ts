import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const json = isSqlite(db) ? 'text' : 'jsonb';
  const bool = isSqlite(db) ? 'integer' : 'boolean';
  const trueValue = isSqlite(db) ? sql`1` : sql`true`;

  await db.schema
    .createTable('webhook')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('events', json, (c) => c.notNull())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('is_active', bool, (c) => c.notNull().defaultTo(trueValue))
    .addColumn('disabled_reason', 'varchar(200)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_triggered_at', ts)
    .execute();
  await db.schema.createIndex('webhook_business_idx').on('webhook').column('business_id').execute();

  // The transactional outbox: one row per (event, endpoint), written with the event itself.
  await db.schema
    .createTable('webhook_delivery')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('webhook_id', 'varchar(40)', (c) => c.notNull().references('webhook.id').onDelete('cascade'))
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('event', 'varchar(40)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('verification_id', 'varchar(40)')
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    .addColumn('locked_until', ts)
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('last_response_ms', 'real')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_delivery_due_idx').on('webhook_delivery').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_delivery_business_idx').on('webhook_delivery').columns(['business_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_attempt')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('delivery_id', 'varchar(40)', (c) => c.notNull().references('webhook_delivery.id').onDelete('cascade'))
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'varchar(500)')
    .addColumn('response_time_ms', 'real')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempt_delivery_idx').on('webhook_attempt').columns(['delivery_id', 'attempt_number']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_attempt', 'webhook_delivery', 'webhook']) await db.schema.dropTable(table).execute();
}
