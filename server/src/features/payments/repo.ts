import type { Kysely, Selectable, Transaction } from 'kysely';
import { toDate, toDateOrNull, toNumber } from '../../db/normalize';
import type {
  Database,
  NotificationTable,
  PaymentMethod,
  PaymentReferenceTable,
  PaymentRequestStatus,
  PaymentRequestTable,
  RazorpayOrderTable,
} from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

// --- issued payment references ----------------------------------------------------------------

export interface PaymentReference {
  id: string;
  businessId: string;
  reference: string;
  packId: string;
  amountPaise: number;
  verificationCode: string;
  payeeUpiId: string;
  payeeName: string;
  payeeBankDetails: string;
  createdAt: Date;
  expiresAt: Date;
}

function toReference(row: Selectable<PaymentReferenceTable>): PaymentReference {
  return {
    id: row.id,
    businessId: row.business_id,
    reference: row.reference,
    packId: row.pack_id,
    amountPaise: toNumber(row.amount_paise),
    verificationCode: row.verification_code,
    payeeUpiId: row.payee_upi_id,
    payeeName: row.payee_name,
    payeeBankDetails: row.payee_bank_details,
    createdAt: toDate(row.created_at),
    expiresAt: toDate(row.expires_at),
  };
}

export async function insertReferences(db: Executor, references: PaymentReference[]): Promise<void> {
  if (references.length === 0) return;
  await db
    .insertInto('payment_reference')
    .values(
      references.map((r) => ({
        id: r.id,
        business_id: r.businessId,
        reference: r.reference,
        pack_id: r.packId,
        amount_paise: r.amountPaise,
        verification_code: r.verificationCode,
        payee_upi_id: r.payeeUpiId,
        payee_name: r.payeeName,
        payee_bank_details: r.payeeBankDetails,
        created_at: r.createdAt,
        expires_at: r.expiresAt,
      })),
    )
    .execute();
}

/** A reference only counts for the business it was issued to. */
export async function findReferenceForBusiness(db: Executor, businessId: string, reference: string): Promise<PaymentReference | undefined> {
  const row = await db.selectFrom('payment_reference').selectAll().where('reference', '=', reference).where('business_id', '=', businessId).executeTakeFirst();
  return row && toReference(row);
}

// --- payment requests (bank/UPI claims) ---------------------------------------------------------

export interface PaymentRequest {
  id: string;
  businessId: string;
  referenceId: string;
  paymentReference: string;
  method: PaymentMethod;
  utr: string;
  amountPaise: number;
  packId: string;
  notes: string | null;
  status: PaymentRequestStatus;
  submittedByUserId: string | null;
  submittedByLabel: string;
  decisionNotes: string | null;
  rejectionReason: string | null;
  processedByUserId: string | null;
  processedByLabel: string | null;
  processedAt: Date | null;
  ledgerEntryId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toPaymentRequest(row: Selectable<PaymentRequestTable>): PaymentRequest {
  return {
    id: row.id,
    businessId: row.business_id,
    referenceId: row.reference_id,
    paymentReference: row.payment_reference,
    method: row.method,
    utr: row.utr,
    amountPaise: toNumber(row.amount_paise),
    packId: row.pack_id,
    notes: row.notes,
    status: row.status,
    submittedByUserId: row.submitted_by_user_id,
    submittedByLabel: row.submitted_by_label,
    decisionNotes: row.decision_notes,
    rejectionReason: row.rejection_reason,
    processedByUserId: row.processed_by_user_id,
    processedByLabel: row.processed_by_label,
    processedAt: toDateOrNull(row.processed_at),
    ledgerEntryId: row.ledger_entry_id,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export async function insertPaymentRequest(
  db: Executor,
  values: Pick<PaymentRequest, 'id' | 'businessId' | 'referenceId' | 'paymentReference' | 'method' | 'utr' | 'amountPaise' | 'packId' | 'notes' | 'submittedByUserId' | 'submittedByLabel'>,
  now: Date,
): Promise<void> {
  await db
    .insertInto('payment_request')
    .values({
      id: values.id,
      business_id: values.businessId,
      reference_id: values.referenceId,
      payment_reference: values.paymentReference,
      method: values.method,
      utr: values.utr,
      amount_paise: values.amountPaise,
      pack_id: values.packId,
      notes: values.notes,
      status: 'pending',
      submitted_by_user_id: values.submittedByUserId,
      submitted_by_label: values.submittedByLabel,
      decision_notes: null,
      rejection_reason: null,
      processed_by_user_id: null,
      processed_by_label: null,
      processed_at: null,
      ledger_entry_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function findPaymentRequest(db: Executor, id: string): Promise<PaymentRequest | undefined> {
  const row = await db.selectFrom('payment_request').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toPaymentRequest(row);
}

/** This business's own claim with this UTR, if any (another business's claim is not its business). */
export async function findPaymentRequestByUtr(db: Executor, businessId: string, utr: string): Promise<PaymentRequest | undefined> {
  const row = await db.selectFrom('payment_request').selectAll().where('business_id', '=', businessId).where('utr', '=', utr).executeTakeFirst();
  return row && toPaymentRequest(row);
}

/** Every claim on these UTRs, whichever business made it (the desk's duplicate-UTR check). */
export async function claimsOnUtrs(
  db: Executor,
  utrs: readonly string[],
): Promise<Array<Pick<PaymentRequest, 'id' | 'businessId' | 'utr' | 'status'> & { companyName: string }>> {
  if (utrs.length === 0) return [];
  const rows = await db
    .selectFrom('payment_request')
    .innerJoin('business', 'business.id', 'payment_request.business_id')
    .select(['payment_request.id', 'payment_request.business_id', 'payment_request.utr', 'payment_request.status', 'business.company_name'])
    .where('payment_request.utr', 'in', [...new Set(utrs)])
    .orderBy('payment_request.created_at', 'asc')
    .execute();
  return rows.map((r) => ({ id: r.id, businessId: r.business_id, companyName: r.company_name, utr: r.utr, status: r.status as PaymentRequest['status'] }));
}

/** The pending or approved claim on a reference, if any (a rejected one does not block a retry). */
export async function findLiveRequestForReference(db: Executor, referenceId: string): Promise<PaymentRequest | undefined> {
  const row = await db
    .selectFrom('payment_request')
    .selectAll()
    .where('reference_id', '=', referenceId)
    .where('status', '<>', 'rejected')
    .executeTakeFirst();
  return row && toPaymentRequest(row);
}

export async function listPaymentRequests(
  db: Executor,
  filter: { businessId?: string; status?: PaymentRequestStatus; limit: number },
): Promise<PaymentRequest[]> {
  let query = db.selectFrom('payment_request').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit);
  if (filter.businessId) query = query.where('business_id', '=', filter.businessId);
  if (filter.status) query = query.where('status', '=', filter.status);
  return (await query.execute()).map(toPaymentRequest);
}

/**
 * The one step that decides a request: a conditional UPDATE … WHERE status = 'pending'.
 * Of two desks deciding at once, exactly one gets the row back; the other gets undefined.
 */
export async function decidePending(
  trx: Transaction<Database>,
  id: string,
  decision:
    | { status: 'approved'; notes: string | null; ledgerEntryId: string }
    | { status: 'rejected'; reason: string },
  actor: { userId: string | null; label: string },
  now: Date,
): Promise<PaymentRequest | undefined> {
  const row = await trx
    .updateTable('payment_request')
    .set({
      status: decision.status,
      decision_notes: decision.status === 'approved' ? decision.notes : null,
      rejection_reason: decision.status === 'rejected' ? decision.reason : null,
      ledger_entry_id: decision.status === 'approved' ? decision.ledgerEntryId : null,
      processed_by_user_id: actor.userId,
      processed_by_label: actor.label,
      processed_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  return row && toPaymentRequest(row);
}

// --- Razorpay orders --------------------------------------------------------------------------

export interface RazorpayOrder {
  id: string;
  businessId: string;
  amountPaise: number;
  currency: string;
  receipt: string;
  packId: string;
  status: 'created' | 'paid';
  paymentId: string | null;
  paidVia: 'checkout' | 'webhook' | null;
  createdAt: Date;
  paidAt: Date | null;
}

function toOrder(row: Selectable<RazorpayOrderTable>): RazorpayOrder {
  return {
    id: row.id,
    businessId: row.business_id,
    amountPaise: toNumber(row.amount_paise),
    currency: row.currency,
    receipt: row.receipt,
    packId: row.pack_id,
    status: row.status,
    paymentId: row.payment_id,
    paidVia: row.paid_via,
    createdAt: toDate(row.created_at),
    paidAt: toDateOrNull(row.paid_at),
  };
}

export async function insertOrder(
  db: Executor,
  values: { id: string; businessId: string; amountPaise: number; currency: string; receipt: string; packId: string; createdByUserId: string | null },
  now: Date,
): Promise<void> {
  await db
    .insertInto('razorpay_order')
    .values({
      id: values.id,
      business_id: values.businessId,
      amount_paise: values.amountPaise,
      currency: values.currency,
      receipt: values.receipt,
      pack_id: values.packId,
      status: 'created',
      payment_id: null,
      paid_via: null,
      created_by_user_id: values.createdByUserId,
      created_at: now,
      paid_at: null,
      updated_at: now,
    })
    .execute();
}

export async function findOrder(db: Executor, id: string): Promise<RazorpayOrder | undefined> {
  const row = await db.selectFrom('razorpay_order').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toOrder(row);
}

/** Conditional: only a `created` order becomes `paid`, so an order is credited at most once. */
export async function markOrderPaid(
  trx: Transaction<Database>,
  id: string,
  paymentId: string,
  via: 'checkout' | 'webhook',
  now: Date,
): Promise<RazorpayOrder | undefined> {
  const row = await trx
    .updateTable('razorpay_order')
    .set({ status: 'paid', payment_id: paymentId, paid_via: via, paid_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'created')
    .returningAll()
    .executeTakeFirst();
  return row && toOrder(row);
}

// --- notifications ----------------------------------------------------------------------------

export interface Notification {
  id: string;
  businessId: string;
  kind: string;
  title: string;
  message: string;
  subjectId: string | null;
  createdAt: Date;
  readAt: Date | null;
}

function toNotification(row: Selectable<NotificationTable>): Notification {
  return {
    id: row.id,
    businessId: row.business_id,
    kind: row.kind,
    title: row.title,
    message: row.message,
    subjectId: row.subject_id,
    createdAt: toDate(row.created_at),
    readAt: toDateOrNull(row.read_at),
  };
}

export async function insertNotification(db: Executor, values: Omit<Notification, 'createdAt' | 'readAt'>, now: Date): Promise<void> {
  await db
    .insertInto('notification')
    .values({
      id: values.id,
      business_id: values.businessId,
      kind: values.kind,
      title: values.title,
      message: values.message,
      subject_id: values.subjectId,
      created_at: now,
      read_at: null,
    })
    .execute();
}

export async function listNotifications(db: Executor, businessId: string, limit: number): Promise<Notification[]> {
  const rows = await db
    .selectFrom('notification')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toNotification);
}

export async function countUnreadNotifications(db: Executor, businessId: string): Promise<number> {
  const row = await db
    .selectFrom('notification')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('business_id', '=', businessId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

/** Marks one of the business's notifications read (first read time kept); undefined if not theirs. */
export async function markNotificationRead(db: Executor, businessId: string, id: string, now: Date): Promise<Notification | undefined> {
  await db.updateTable('notification').set({ read_at: now }).where('id', '=', id).where('business_id', '=', businessId).where('read_at', 'is', null).execute();
  const row = await db.selectFrom('notification').selectAll().where('id', '=', id).where('business_id', '=', businessId).executeTakeFirst();
  return row && toNotification(row);
}
