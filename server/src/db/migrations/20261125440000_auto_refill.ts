import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. Money is integer paise (bigint on PostgreSQL).
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * Auto-refill that refills (issue 22 item 4). A business's saved Razorpay mandate (customer +
 * recurring token), and one row per refill a balance crossing started. The crossing inserts the
 * row in the debit's own transaction; a worker charges the token or issues the bank/UPI request.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const money = isSqlite(db) ? 'integer' : 'bigint';

  await db.schema
    .createTable('auto_refill_mandate')
    .addColumn('business_id', 'varchar(40)', (c) => c.primaryKey().references('business.id').onDelete('cascade'))
    .addColumn('customer_id', 'varchar(60)', (c) => c.notNull())
    // null until the authorising payment is confirmed
    .addColumn('token_id', 'varchar(60)')
    .addColumn('method', 'varchar(10)', (c) => c.notNull())
    // pending (authorisation order made) | active | revoked
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('auth_order_id', 'varchar(60)', (c) => c.notNull())
    .addColumn('max_amount_paise', money, (c) => c.notNull())
    // what the card or UPI app is, as Razorpay describes it (e.g. "Visa •••• 1111", "name@bank")
    .addColumn('label', 'varchar(120)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auto_refill')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id').onDelete('cascade'))
    // razorpay (charge the saved token) | bank (a bank/UPI top-up request); chosen by the worker
    .addColumn('mode', 'varchar(10)')
    // due → charging → credited | failed (razorpay); due → open → credited | expired (bank)
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('pack_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('amount_paise', money, (c) => c.notNull())
    .addColumn('balance_at_crossing_paise', money, (c) => c.notNull())
    .addColumn('threshold_paise', money, (c) => c.notNull())
    .addColumn('order_id', 'varchar(60)')
    .addColumn('payment_id', 'varchar(60)')
    .addColumn('reference_id', 'varchar(40)')
    .addColumn('failure_reason', 'varchar(500)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    .addColumn('locked_until', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auto_refill_business_idx').on('auto_refill').columns(['business_id', 'created_at']).execute();
  await db.schema.createIndex('auto_refill_status_idx').on('auto_refill').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('auto_refill_order_idx').on('auto_refill').column('order_id').execute();
  // One refill in flight per business, held by the database: concurrent crossings (group
  // commits overlapping on PostgreSQL) insert with ON CONFLICT DO NOTHING and only one row lands.
  await db.schema
    .createIndex('auto_refill_one_in_flight_uq')
    .on('auto_refill')
    .column('business_id')
    .unique()
    .where(sql.ref('status'), 'in', sql`('due', 'charging', 'open')`)
    .execute();

  // Why auto-refill was switched off by the server (a failed charge), shown on the dashboard.
  await db.schema.alterTable('business').addColumn('auto_refill_off_reason', 'varchar(500)').execute();
  await db.schema.alterTable('business').addColumn('auto_refill_off_at', ts).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('business').dropColumn('auto_refill_off_at').execute();
  await db.schema.alterTable('business').dropColumn('auto_refill_off_reason').execute();
  await db.schema.dropTable('auto_refill').execute();
  await db.schema.dropTable('auto_refill_mandate').execute();
}
