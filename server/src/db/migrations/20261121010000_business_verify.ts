import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. Money is integer paise (bigint on PostgreSQL).
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const money = isSqlite(db) ? 'integer' : 'bigint';
  const bool = isSqlite(db) ? 'integer' : 'boolean';
  const falseValue = isSqlite(db) ? sql`0` : sql`false`;

  await db.schema
    .createTable('business')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('owner_user_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('company_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('balance_paise', money, (c) => c.notNull().defaultTo(0).check(sql`balance_paise >= 0`))
    .addColumn('rate_limit_per_minute', 'integer', (c) => c.notNull())
    .addColumn('low_balance_notified', bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('auto_refill_enabled', bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('auto_refill_threshold_paise', money)
    .addColumn('auto_refill_pack_id', 'varchar(40)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_key')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('prefix', 'varchar(24)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('revoked_at', ts)
    .addColumn('last_used_at', ts)
    .execute();
  await db.schema.createIndex('api_key_business_idx').on('api_key').column('business_id').execute();

  // Credits only (top-ups, grants, refunds); verifications are the debits. Append-only.
  await db.schema
    .createTable('ledger_entry')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('amount_paise', money, (c) => c.notNull())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('reference', 'varchar(120)')
    .addColumn('reason', 'varchar(500)')
    .addColumn('actor_label', 'varchar(320)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_business_idx').on('ledger_entry').columns(['business_id', 'created_at']).execute();
  await db.schema
    .createIndex('ledger_reference_uq')
    .on('ledger_entry')
    .columns(['kind', 'reference'])
    .unique()
    .where(sql.ref('reference'), 'is not', null)
    .execute();

  await db.schema
    .createTable('enrolment')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('external_user_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'varchar(10)', (c) => c.notNull())
    .addColumn('digits', 'integer', (c) => c.notNull())
    .addColumn('period', 'integer', (c) => c.notNull())
    .addColumn('last_used_step', money)
    .addColumn('purpose', 'varchar(100)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('enrolment_business_user_uq', ['business_id', 'external_user_id'])
    .execute();

  await db.schema
    .createTable('backup_code')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('enrolment_id', 'varchar(40)', (c) => c.notNull().references('enrolment.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', ts)
    .execute();
  await db.schema.createIndex('backup_code_enrolment_idx').on('backup_code').columns(['enrolment_id', 'code_hash']).execute();

  // 'verification' is better-auth's table name, hence the prefix.
  await db.schema
    .createTable('totp_verification')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('external_user_id', 'varchar(128)')
    .addColumn('mode', 'varchar(10)', (c) => c.notNull())
    .addColumn('method', 'varchar(10)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(100)')
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('cost_paise', money, (c) => c.notNull())
    .addColumn('response_time_ms', 'real', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('verification_business_time_idx').on('totp_verification').columns(['business_id', 'created_at']).execute();
  await db.schema
    .createIndex('verification_user_time_idx')
    .on('totp_verification')
    .columns(['business_id', 'external_user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('idempotency_record')
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('endpoint', 'varchar(40)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_record_pk', ['business_id', 'idempotency_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['idempotency_record', 'totp_verification', 'backup_code', 'enrolment', 'ledger_entry', 'api_key', 'business']) {
    await db.schema.dropTable(table).execute();
  }
}
