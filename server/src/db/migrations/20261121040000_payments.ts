import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. Money is integer paise (bigint on PostgreSQL).
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const money = isSqlite(db) ? 'integer' : 'bigint';

  // Every bank/UPI payment reference we hand out (one per pack per request), so a submission
  // can only quote a reference issued to that business and not yet expired.
  await db.schema
    .createTable('payment_reference')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('reference', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('pack_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('amount_paise', money, (c) => c.notNull())
    .addColumn('verification_code', 'varchar(12)', (c) => c.notNull())
    // the payee shown in the QR at the time, for the desk to check the statement against
    .addColumn('payee_upi_id', 'varchar(320)', (c) => c.notNull())
    .addColumn('payee_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('payee_bank_details', 'varchar(400)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_reference_business_idx').on('payment_reference').columns(['business_id', 'created_at']).execute();

  // A business's claim "I paid, here is the bank transaction id (UTR)", awaiting the desk.
  await db.schema
    .createTable('payment_request')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('reference_id', 'varchar(40)', (c) => c.notNull().references('payment_reference.id').onDelete('cascade'))
    .addColumn('payment_reference', 'varchar(40)', (c) => c.notNull())
    .addColumn('method', 'varchar(20)', (c) => c.notNull())
    // a UTR is credited at most once, whichever business quotes it
    .addColumn('utr', 'varchar(22)', (c) => c.notNull().unique())
    .addColumn('amount_paise', money, (c) => c.notNull())
    .addColumn('pack_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('notes', 'varchar(1000)')
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('submitted_by_user_id', 'varchar(64)')
    .addColumn('submitted_by_label', 'varchar(320)', (c) => c.notNull())
    .addColumn('decision_notes', 'varchar(1000)')
    .addColumn('rejection_reason', 'varchar(500)')
    .addColumn('processed_by_user_id', 'varchar(64)')
    .addColumn('processed_by_label', 'varchar(320)')
    .addColumn('processed_at', ts)
    .addColumn('ledger_entry_id', 'varchar(40)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_request_business_idx').on('payment_request').columns(['business_id', 'created_at']).execute();
  await db.schema.createIndex('payment_request_status_idx').on('payment_request').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('payment_request_processed_idx').on('payment_request').columns(['processed_at']).execute();
  // One live (pending or approved) claim per reference; a rejected one may be submitted again.
  await db.schema
    .createIndex('payment_request_reference_live_uq')
    .on('payment_request')
    .column('reference_id')
    .unique()
    .where(sql.ref('status'), '<>', 'rejected')
    .execute();

  // Razorpay orders we created, so a payment is credited only to the business that ordered it.
  await db.schema
    .createTable('razorpay_order')
    .addColumn('id', 'varchar(60)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('amount_paise', money, (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('receipt', 'varchar(40)', (c) => c.notNull())
    .addColumn('pack_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('payment_id', 'varchar(60)', (c) => c.unique())
    .addColumn('paid_via', 'varchar(20)')
    .addColumn('created_by_user_id', 'varchar(64)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('paid_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('razorpay_order_business_idx').on('razorpay_order').columns(['business_id', 'created_at']).execute();

  // In-app notices for a business (payment approved, rejected, card payment credited).
  await db.schema
    .createTable('notification')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('message', 'varchar(1000)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(60)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('read_at', ts)
    .execute();
  await db.schema.createIndex('notification_business_idx').on('notification').columns(['business_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['notification', 'razorpay_order', 'payment_request', 'payment_reference']) await db.schema.dropTable(table).execute();
}
