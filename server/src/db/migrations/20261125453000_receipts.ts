import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. Money is integer paise (bigint on PostgreSQL).
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * Receipts (issue 22, item 3): every credited payment gets a numbered receipt, one gap-free
 * series per Indian financial year. A receipt is a record for the business's books, so it keeps
 * a frozen copy of everything printed on it (buyer, payee, tax split): later edits of the
 * business's name or address, or of the payee configuration, never change an issued receipt.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const money = isSqlite(db) ? 'integer' : 'bigint';

  // The buyer's details for receipts and tax invoices, editable on the dashboard.
  await db.schema.alterTable('business').addColumn('gstin', 'varchar(15)').execute();
  await db.schema.alterTable('business').addColumn('billing_state', 'varchar(2)').execute();
  await db.schema.alterTable('business').addColumn('billing_address', 'varchar(500)').execute();

  // One row per financial year: the last number issued. Taking a number is one
  // INSERT … ON CONFLICT DO UPDATE … RETURNING inside the crediting transaction, so the row lock
  // (PostgreSQL) or the single writer (SQLite) orders concurrent approvals, and a rolled-back
  // credit gives its number back: no gaps, no repeats.
  await db.schema
    .createTable('receipt_counter')
    .addColumn('financial_year', 'varchar(7)', (c) => c.primaryKey())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('receipt')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    // No cascade: a receipt is a tax record and outlives nothing it describes by accident.
    .addColumn('business_id', 'varchar(40)', (c) => c.notNull().references('business.id'))
    .addColumn('number', 'varchar(30)', (c) => c.notNull().unique())
    .addColumn('financial_year', 'varchar(7)', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    // the credit it documents: one receipt per ledger entry
    .addColumn('ledger_entry_id', 'varchar(40)', (c) => c.notNull().unique())
    // what was paid: a bank/UPI payment request, a Razorpay order, … and its id
    .addColumn('payment_kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('payment_id', 'varchar(80)', (c) => c.notNull())
    .addColumn('method', 'varchar(20)', (c) => c.notNull())
    .addColumn('method_label', 'varchar(60)', (c) => c.notNull())
    .addColumn('payment_reference', 'varchar(120)', (c) => c.notNull())
    // the bank's UTR, or the gateway's payment id
    .addColumn('transaction_id', 'varchar(80)')
    .addColumn('amount_paise', money, (c) => c.notNull())
    .addColumn('credits_added', money, (c) => c.notNull())
    .addColumn('buyer_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('buyer_email', 'varchar(320)')
    .addColumn('buyer_address', 'varchar(500)')
    .addColumn('buyer_state', 'varchar(2)')
    .addColumn('buyer_gstin', 'varchar(15)')
    .addColumn('payee_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('payee_details', 'varchar(400)', (c) => c.notNull())
    .addColumn('payee_gstin', 'varchar(15)')
    .addColumn('payee_state', 'varchar(2)')
    .addColumn('sac', 'varchar(8)')
    // the tax split (all zero on a plain receipt); taxable + cgst + sgst + igst = amount
    .addColumn('taxable_paise', money, (c) => c.notNull())
    .addColumn('cgst_paise', money, (c) => c.notNull())
    .addColumn('sgst_paise', money, (c) => c.notNull())
    .addColumn('igst_paise', money, (c) => c.notNull())
    .addColumn('issued_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('receipt_sequence_uq').on('receipt').columns(['financial_year', 'sequence']).unique().execute();
  await db.schema.createIndex('receipt_payment_uq').on('receipt').columns(['payment_kind', 'payment_id']).unique().execute();
  await db.schema.createIndex('receipt_business_idx').on('receipt').columns(['business_id', 'issued_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('receipt').execute();
  await db.schema.dropTable('receipt_counter').execute();
  await db.schema.alterTable('business').dropColumn('billing_address').execute();
  await db.schema.alterTable('business').dropColumn('billing_state').execute();
  await db.schema.alterTable('business').dropColumn('gstin').execute();
}
