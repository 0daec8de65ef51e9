import type { Kysely, Selectable, Transaction } from 'kysely';
import { toDate, toDateOrNull, toNumber } from '../../db/normalize';
import type { AutoRefillMandateTable, AutoRefillStatus, AutoRefillTable, Database, Dialect } from '../../db/types';
import { newId } from '../../lib/ids';

type Executor = Kysely<Database> | Transaction<Database>;

/** The statuses of a refill still in flight; the partial unique index allows one per business. */
export const IN_FLIGHT: AutoRefillStatus[] = ['due', 'charging', 'open'];

export interface Refill {
  id: string;
  businessId: string;
  mode: 'razorpay' | 'bank' | null;
  status: AutoRefillStatus;
  packId: string;
  amountPaise: number;
  balanceAtCrossingPaise: number;
  thresholdPaise: number;
  orderId: string | null;
  paymentId: string | null;
  referenceId: string | null;
  failureReason: string | null;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

function toRefill(row: Selectable<AutoRefillTable>): Refill {
  return {
    id: row.id,
    businessId: row.business_id,
    mode: row.mode,
    status: row.status,
    packId: row.pack_id,
    amountPaise: toNumber(row.amount_paise),
    balanceAtCrossingPaise: toNumber(row.balance_at_crossing_paise),
    thresholdPaise: toNumber(row.threshold_paise),
    orderId: row.order_id,
    paymentId: row.payment_id,
    referenceId: row.reference_id,
    failureReason: row.failure_reason,
    attempts: toNumber(row.attempts),
    nextAttemptAt: toDate(row.next_attempt_at),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/**
 * The debit's side of auto-refill: a durable "refill due" row in the debit's own transaction.
 * ON CONFLICT DO NOTHING against the one-in-flight index: while a refill is due, charging or
 * open, a further crossing (or a concurrent group's) adds nothing. Returns whether it landed.
 */
export async function insertDueRefill(
  trx: Executor,
  values: { businessId: string; packId: string; amountPaise: number; balancePaise: number; thresholdPaise: number },
  now: Date,
): Promise<boolean> {
  const result = await trx
    .insertInto('auto_refill')
    .values({
      id: newId('arf'),
      business_id: values.businessId,
      mode: null,
      status: 'due',
      pack_id: values.packId,
      amount_paise: values.amountPaise,
      balance_at_crossing_paise: values.balancePaise,
      threshold_paise: values.thresholdPaise,
      order_id: null,
      payment_id: null,
      reference_id: null,
      failure_reason: null,
      attempts: 0,
      next_attempt_at: now,
      locked_until: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Due refills, and ones a worker took but never finished (its lease ran out: it died mid-way).
 * SKIP LOCKED on PostgreSQL so several instances never take the same row at once.
 */
export async function claimDue(db: Kysely<Database>, dialect: Dialect, now: Date, leaseUntil: Date, limit: number): Promise<Refill[]> {
  return db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom('auto_refill')
      .select('id')
      .where((eb) =>
        eb.and([
          eb('status', 'in', ['due', 'charging']),
          eb('next_attempt_at', '<=', now),
          eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]),
          // a charge that reached Razorpay is looked at again only when its webhook is overdue
          // (next_attempt_at is set then), so a lost webhook cannot hold the refill forever
        ]),
      )
      .orderBy('next_attempt_at')
      .limit(limit);
    if (dialect === 'postgres') due = due.forUpdate().skipLocked();
    const ids = (await due.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    await trx.updateTable('auto_refill').set({ locked_until: leaseUntil, updated_at: now }).where('id', 'in', ids).execute();
    const rows = await trx.selectFrom('auto_refill').selectAll().where('id', 'in', ids).execute();
    return rows.map(toRefill);
  });
}

export async function findRefill(db: Executor, id: string): Promise<Refill | undefined> {
  const row = await db.selectFrom('auto_refill').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRefill(row);
}

export async function findRefillByOrder(db: Executor, orderId: string): Promise<Refill | undefined> {
  const row = await db.selectFrom('auto_refill').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  return row && toRefill(row);
}

export async function findInFlight(db: Executor, businessId: string): Promise<Refill | undefined> {
  const row = await db.selectFrom('auto_refill').selectAll().where('business_id', '=', businessId).where('status', 'in', IN_FLIGHT).executeTakeFirst();
  return row && toRefill(row);
}

export async function listRefills(db: Executor, businessId: string, limit = 20): Promise<Refill[]> {
  const rows = await db.selectFrom('auto_refill').selectAll().where('business_id', '=', businessId).orderBy('created_at', 'desc').limit(limit).execute();
  return rows.map(toRefill);
}

type RefillPatch = Partial<{
  mode: 'razorpay' | 'bank';
  status: AutoRefillStatus;
  order_id: string;
  payment_id: string;
  reference_id: string;
  failure_reason: string;
  attempts: number;
  next_attempt_at: Date;
  locked_until: Date | null;
}>;

/** Updates a refill only while it is in one of `from` (a webhook may have settled it meanwhile). */
export async function updateRefill(db: Executor, id: string, from: AutoRefillStatus[], patch: RefillPatch, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('auto_refill')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** In the credit's transaction: the refill whose order was just paid is done. Returns it (undefined for other orders). */
export async function markCreditedByOrder(trx: Executor, orderId: string, paymentId: string, now: Date): Promise<Refill | undefined> {
  const result = await trx
    .updateTable('auto_refill')
    .set({ status: 'credited', payment_id: paymentId, locked_until: null, updated_at: now })
    .where('order_id', '=', orderId)
    .where('status', 'in', IN_FLIGHT)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return findRefillByOrder(trx, orderId);
}

/** In the approval's transaction: the bank/UPI refill request whose reference was just paid is done. */
export async function markCreditedByReference(trx: Executor, referenceId: string, now: Date): Promise<void> {
  await trx
    .updateTable('auto_refill')
    .set({ status: 'credited', locked_until: null, updated_at: now })
    .where('reference_id', '=', referenceId)
    .where('status', '=', 'open')
    .execute();
}

/**
 * Open bank/UPI refill requests whose reference has expired with no claim still pending or
 * approved: closed as expired, so the next crossing may issue a fresh one.
 */
export async function expireOpenRequests(db: Executor, now: Date): Promise<number> {
  const result = await db
    .updateTable('auto_refill')
    .set({ status: 'expired', updated_at: now })
    .where('status', '=', 'open')
    .where('reference_id', 'in', (eb) =>
      eb
        .selectFrom('payment_reference')
        .select('payment_reference.id')
        .where('payment_reference.expires_at', '<=', now)
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('payment_request')
                .select('payment_request.id')
                .whereRef('payment_request.reference_id', '=', 'payment_reference.id')
                .where('payment_request.status', 'in', ['pending', 'approved']),
            ),
          ),
        ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The server switches auto-refill off after a failed charge, and keeps why for the dashboard. */
export async function switchOff(trx: Executor, businessId: string, reason: string, now: Date): Promise<void> {
  await trx
    .updateTable('business')
    .set({ auto_refill_enabled: false, auto_refill_off_reason: reason.slice(0, 500), auto_refill_off_at: now, updated_at: now })
    .where('id', '=', businessId)
    .execute();
}

export async function findOffReason(db: Executor, businessId: string): Promise<{ reason: string; at: Date } | null> {
  const row = await db.selectFrom('business').select(['auto_refill_off_reason', 'auto_refill_off_at']).where('id', '=', businessId).executeTakeFirst();
  if (!row?.auto_refill_off_reason) return null;
  return { reason: row.auto_refill_off_reason, at: toDateOrNull(row.auto_refill_off_at) ?? new Date(0) };
}

export async function clearOffReason(db: Executor, businessId: string): Promise<void> {
  await db.updateTable('business').set({ auto_refill_off_reason: null, auto_refill_off_at: null }).where('id', '=', businessId).execute();
}

// --- mandate -------------------------------------------------------------------------------------

export interface Mandate {
  businessId: string;
  customerId: string;
  tokenId: string | null;
  method: 'card' | 'upi';
  status: 'pending' | 'active' | 'revoked';
  authOrderId: string;
  maxAmountPaise: number;
  label: string | null;
  updatedAt: Date;
}

function toMandate(row: Selectable<AutoRefillMandateTable>): Mandate {
  return {
    businessId: row.business_id,
    customerId: row.customer_id,
    tokenId: row.token_id,
    method: row.method,
    status: row.status,
    authOrderId: row.auth_order_id,
    maxAmountPaise: toNumber(row.max_amount_paise),
    label: row.label,
    updatedAt: toDate(row.updated_at),
  };
}

export async function findMandate(db: Executor, businessId: string): Promise<Mandate | undefined> {
  const row = await db.selectFrom('auto_refill_mandate').selectAll().where('business_id', '=', businessId).executeTakeFirst();
  return row && toMandate(row);
}

export async function findMandateByAuthOrder(db: Executor, orderId: string): Promise<Mandate | undefined> {
  const row = await db.selectFrom('auto_refill_mandate').selectAll().where('auth_order_id', '=', orderId).executeTakeFirst();
  return row && toMandate(row);
}

export async function findPendingMandateByCustomer(db: Executor, customerId: string): Promise<Mandate | undefined> {
  const row = await db.selectFrom('auto_refill_mandate').selectAll().where('customer_id', '=', customerId).where('status', '=', 'pending').executeTakeFirst();
  return row && toMandate(row);
}

/** A new authorisation replaces whatever was saved before (one mandate per business). */
export async function savePendingMandate(
  db: Executor,
  values: { businessId: string; customerId: string; method: 'card' | 'upi'; authOrderId: string; maxAmountPaise: number },
  now: Date,
): Promise<void> {
  const row = {
    customer_id: values.customerId,
    token_id: null,
    method: values.method,
    status: 'pending' as const,
    auth_order_id: values.authOrderId,
    max_amount_paise: values.maxAmountPaise,
    label: null,
    updated_at: now,
  };
  await db
    .insertInto('auto_refill_mandate')
    .values({ business_id: values.businessId, ...row, created_at: now })
    .onConflict((oc) => oc.column('business_id').doUpdateSet(row))
    .execute();
}

/** Only the mandate still waiting on this authorisation order becomes active. */
export async function activateMandate(db: Executor, businessId: string, authOrderId: string, tokenId: string, label: string | null, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('auto_refill_mandate')
    .set({ status: 'active', token_id: tokenId, label, updated_at: now })
    .where('business_id', '=', businessId)
    .where('auth_order_id', '=', authOrderId)
    .where('status', 'in', ['pending', 'active'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The bank or Razorpay cancelled, paused or rejected the token: it can no longer be charged. Returns its business. */
export async function revokeMandateByToken(db: Executor, tokenId: string, now: Date): Promise<string | undefined> {
  const row = await db.selectFrom('auto_refill_mandate').select('business_id').where('token_id', '=', tokenId).where('status', '=', 'active').executeTakeFirst();
  if (!row) return undefined;
  await db.updateTable('auto_refill_mandate').set({ status: 'revoked', updated_at: now }).where('business_id', '=', row.business_id).where('token_id', '=', tokenId).execute();
  return row.business_id;
}

export async function deleteMandate(db: Executor, businessId: string): Promise<void> {
  await db.deleteFrom('auto_refill_mandate').where('business_id', '=', businessId).execute();
}

export interface IssuedReference {
  id: string;
  reference: string;
  verificationCode: string;
  amountPaise: number;
  payeeUpiId: string;
  payeeName: string;
  expiresAt: Date;
}

export async function findReferenceById(db: Executor, id: string): Promise<IssuedReference | undefined> {
  const row = await db
    .selectFrom('payment_reference')
    .select(['id', 'reference', 'verification_code', 'amount_paise', 'payee_upi_id', 'payee_name', 'expires_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      reference: row.reference,
      verificationCode: row.verification_code,
      amountPaise: toNumber(row.amount_paise),
      payeeUpiId: row.payee_upi_id,
      payeeName: row.payee_name,
      expiresAt: toDate(row.expires_at),
    }
  );
}
