import type { Kysely, Selectable, Transaction } from 'kysely';
import { toDate, toNumber } from '../../db/normalize';
import type { Database, ReceiptTable } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

/** A receipt as issued: every printed figure frozen at issue time. */
export interface Receipt {
  id: string;
  businessId: string;
  number: string;
  financialYear: string;
  sequence: number;
  ledgerEntryId: string;
  paymentKind: string;
  paymentId: string;
  method: string;
  methodLabel: string;
  paymentReference: string;
  transactionId: string | null;
  amountPaise: number;
  creditsAdded: number;
  buyer: { name: string; email: string | null; address: string | null; state: string | null; gstin: string | null };
  payee: { name: string; details: string; gstin: string | null; state: string | null };
  sac: string | null;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  issuedAt: Date;
}

function toReceipt(r: Selectable<ReceiptTable>): Receipt {
  return {
    id: r.id,
    businessId: r.business_id,
    number: r.number,
    financialYear: r.financial_year,
    sequence: toNumber(r.sequence),
    ledgerEntryId: r.ledger_entry_id,
    paymentKind: r.payment_kind,
    paymentId: r.payment_id,
    method: r.method,
    methodLabel: r.method_label,
    paymentReference: r.payment_reference,
    transactionId: r.transaction_id,
    amountPaise: toNumber(r.amount_paise),
    creditsAdded: toNumber(r.credits_added),
    buyer: { name: r.buyer_name, email: r.buyer_email, address: r.buyer_address, state: r.buyer_state, gstin: r.buyer_gstin },
    payee: { name: r.payee_name, details: r.payee_details, gstin: r.payee_gstin, state: r.payee_state },
    sac: r.sac,
    taxablePaise: toNumber(r.taxable_paise),
    cgstPaise: toNumber(r.cgst_paise),
    sgstPaise: toNumber(r.sgst_paise),
    igstPaise: toNumber(r.igst_paise),
    issuedAt: toDate(r.issued_at),
  };
}

/**
 * The next number of a financial year's series, in the caller's transaction. One statement:
 * the first receipt of a year inserts the counter row, every later one increments it. The row
 * stays locked (PostgreSQL) or the database stays held by the one writer (SQLite) until the
 * transaction ends, so concurrent credits take consecutive numbers, and a rolled-back credit
 * returns its number with it.
 */
export async function takeNextSequence(trx: Transaction<Database>, financialYear: string): Promise<number> {
  const row = await trx
    .insertInto('receipt_counter')
    .values({ financial_year: financialYear, last_number: 1 })
    .onConflict((oc) => oc.column('financial_year').doUpdateSet((eb) => ({ last_number: eb('receipt_counter.last_number', '+', 1) })))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return toNumber(row.last_number);
}

export async function insertReceipt(trx: Transaction<Database>, r: Receipt): Promise<void> {
  await trx
    .insertInto('receipt')
    .values({
      id: r.id,
      business_id: r.businessId,
      number: r.number,
      financial_year: r.financialYear,
      sequence: r.sequence,
      ledger_entry_id: r.ledgerEntryId,
      payment_kind: r.paymentKind,
      payment_id: r.paymentId,
      method: r.method,
      method_label: r.methodLabel,
      payment_reference: r.paymentReference,
      transaction_id: r.transactionId,
      amount_paise: r.amountPaise,
      credits_added: r.creditsAdded,
      buyer_name: r.buyer.name,
      buyer_email: r.buyer.email,
      buyer_address: r.buyer.address,
      buyer_state: r.buyer.state,
      buyer_gstin: r.buyer.gstin,
      payee_name: r.payee.name,
      payee_details: r.payee.details,
      payee_gstin: r.payee.gstin,
      payee_state: r.payee.state,
      sac: r.sac,
      taxable_paise: r.taxablePaise,
      cgst_paise: r.cgstPaise,
      sgst_paise: r.sgstPaise,
      igst_paise: r.igstPaise,
      issued_at: r.issuedAt,
    })
    .execute();
}

/** A business's receipt; undefined for another business's (the route answers 404, not 403). */
export async function findReceipt(db: Executor, id: string, businessId: string): Promise<Receipt | undefined> {
  const row = await db.selectFrom('receipt').selectAll().where('id', '=', id).where('business_id', '=', businessId).executeTakeFirst();
  return row ? toReceipt(row) : undefined;
}

/** Any business's receipt: for code that already holds a trusted id (the mail worker's attachment). */
export async function findReceiptById(db: Executor, id: string): Promise<Receipt | undefined> {
  const row = await db.selectFrom('receipt').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toReceipt(row) : undefined;
}

export async function listReceipts(db: Executor, businessId: string, limit: number): Promise<Receipt[]> {
  const rows = await db
    .selectFrom('receipt')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('issued_at', 'desc')
    .orderBy('sequence', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toReceipt);
}

/** Every number of a financial year, in order (tests and the operator's gap check). */
export async function sequencesOfYear(db: Executor, financialYear: string): Promise<number[]> {
  const rows = await db.selectFrom('receipt').select('sequence').where('financial_year', '=', financialYear).orderBy('sequence').execute();
  return rows.map((r) => toNumber(r.sequence));
}

/** The buyer's details as they are now, frozen into the receipt being issued. */
export async function buyerNow(trx: Executor, businessId: string) {
  return trx
    .selectFrom('business')
    .innerJoin('user', 'user.id', 'business.owner_user_id')
    .select(['business.company_name', 'business.gstin', 'business.billing_state', 'business.billing_address', 'user.email'])
    .where('business.id', '=', businessId)
    .executeTakeFirstOrThrow();
}

export interface BillingDetails {
  gstin: string | null;
  billingState: string | null;
  billingAddress: string | null;
}

export async function updateBilling(db: Executor, businessId: string, details: BillingDetails, now: Date): Promise<void> {
  await db
    .updateTable('business')
    .set({ gstin: details.gstin, billing_state: details.billingState, billing_address: details.billingAddress, updated_at: now })
    .where('id', '=', businessId)
    .execute();
}

export async function findBilling(db: Executor, businessId: string): Promise<BillingDetails & { companyName: string }> {
  const row = await db
    .selectFrom('business')
    .select(['company_name', 'gstin', 'billing_state', 'billing_address'])
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow();
  return { companyName: row.company_name, gstin: row.gstin, billingState: row.billing_state, billingAddress: row.billing_address };
}
