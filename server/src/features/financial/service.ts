import { formatRupees, paiseToDecimalString } from '@common/pricing';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import type { PaymentRequestStatus } from '../../db/types';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import { markCreditedByReference } from '../autorefill/repo';
import { queueMail } from '../mail/outbox';
import { appendCredit } from '../credits/repo';
import * as payments from '../payments/repo';
import { PAYMENT_METHOD_LABEL, creditedText } from '../payments/service';
import { countOpen } from '../contact/repo';
import { receiptAttachment } from '../receipts/mail-attachment';
import { issueReceipt } from '../receipts/service';
import * as repo from './repo';

/**
 * The financial manager's desk (SPEC.md §2, §4): bank/UPI claims wait as `pending` until a
 * financial manager or the administrator approves them (credit added exactly once) or rejects
 * them with a reason. The same functions serve the web desk and the operator CLI.
 */

export interface DeskActor {
  /** null for the operator CLI */
  userId: string | null;
  label: string;
  /** set while an administrator is impersonating the acting user */
  impersonatedBy?: string | null;
}

/** India has one time zone and no daylight saving: the desk's "today" starts at 00:00 IST. */
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;

export function startOfIstDay(now: Date): Date {
  const ist = new Date(now.getTime() + IST_OFFSET_MS);
  return new Date(Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate()) - IST_OFFSET_MS);
}

/** Other businesses' (or this one's earlier) claims on the same UTR: a conflict for the desk to settle. */
export interface UtrClaim {
  id: string;
  businessId: string;
  companyName: string;
  status: PaymentRequestStatus;
}

/** Claims on each request's UTR other than the request itself (empty when the UTR is quoted once). */
async function utrConflicts(ctx: AppContext, requests: readonly repo.DeskPaymentRequest[]): Promise<Map<string, UtrClaim[]>> {
  const claims = await payments.claimsOnUtrs(ctx.db, requests.map((r) => r.utr));
  return new Map(requests.map((r) => [r.id, claims.filter((c) => c.utr === r.utr && c.id !== r.id).map(({ id, businessId, companyName, status }) => ({ id, businessId, companyName, status }))]));
}

async function withConflicts(ctx: AppContext, requests: repo.DeskPaymentRequest[]) {
  const conflicts = await utrConflicts(ctx, requests);
  return requests.map((r) => toDeskView(r, conflicts.get(r.id) ?? []));
}

export function toDeskView(r: repo.DeskPaymentRequest, sameUtr: UtrClaim[] = []) {
  return {
    id: r.id,
    businessId: r.businessId,
    companyName: r.companyName,
    businessEmail: r.businessEmail,
    paymentMethod: PAYMENT_METHOD_LABEL[r.method],
    amount: paiseToDecimalString(r.amountPaise),
    packId: r.packId,
    paymentReference: r.paymentReference,
    verificationCode: r.verificationCode,
    utr: r.utr,
    notes: r.notes,
    // Where the money should have arrived, as shown to the payer when the reference was issued.
    bankAccountDetails: r.method === 'bank_transfer' && r.payeeBankDetails ? r.payeeBankDetails : `UPI ${r.payeeUpiId} (${r.payeeName})`,
    status: r.status,
    reason: r.rejectionReason,
    decisionNotes: r.decisionNotes,
    processedBy: r.processedByLabel,
    processedAt: r.processedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    /**
     * Other claims quoting the same UTR (another business, usually): the desk must find out which
     * business really paid. Only one of them can ever be approved.
     */
    duplicateUtr: sameUtr,
  };
}

export async function pendingApprovals(ctx: AppContext) {
  return withConflicts(ctx, await repo.listPending(ctx.db, 500));
}

export async function recentlyProcessed(ctx: AppContext, limit = 5) {
  return withConflicts(ctx, await repo.listProcessed(ctx.db, limit));
}

export async function listForOperator(ctx: AppContext, status: PaymentRequestStatus | undefined, limit = 100) {
  return withConflicts(ctx, await repo.listByStatus(ctx.db, status, limit));
}

/** A UTR is credited once, whoever quoted it: the approved claim that already holds it, if any. */
async function approvedClaimOnUtr(ctx: AppContext, request: repo.DeskPaymentRequest): Promise<UtrClaim | undefined> {
  return (await utrConflicts(ctx, [request])).get(request.id)?.find((c) => c.status === 'approved');
}

const utrAlreadyCredited = (utr: string, other: UtrClaim) =>
  new AppError('conflict', `The UTR ${utr} was already credited with payment request ${other.id}. Reject this claim with a reason instead.`);

export async function stats(ctx: AppContext, now = new Date()) {
  const [counts, openMessages] = await Promise.all([repo.deskCounts(ctx.db, startOfIstDay(now)), countOpen(ctx.db)]);
  return {
    pendingApprovals: counts.pendingCount,
    /** contact messages not closed yet (open, with Luna, or escalated) */
    openMessages,
    todayApprovals: counts.approvedCount,
    /** the rupees waiting for a decision */
    totalAmount: paiseToDecimalString(counts.pendingPaise),
    todayApprovedAmount: paiseToDecimalString(counts.approvedPaise),
  };
}

/** Loads the request and refuses what no desk may do, before any write. */
async function decidable(ctx: AppContext, id: string, actor: DeskActor): Promise<repo.DeskPaymentRequest> {
  if (actor.impersonatedBy) throw new AppError('impersonation_forbidden', 'Payments cannot be approved or rejected while impersonating a user.');
  const request = await repo.findDeskRequest(ctx.db, id);
  if (!request) throw new AppError('not_found', 'No such payment request.');
  if (actor.userId !== null && request.businessOwnerUserId === actor.userId) {
    throw new AppError('forbidden', 'You cannot approve or reject a payment for your own business. Ask another financial manager or the administrator.');
  }
  if (request.status !== 'pending') throw alreadyDecided(request.status);
  return request;
}

function alreadyDecided(status: PaymentRequestStatus | undefined): AppError {
  return new AppError(
    'conflict',
    status === 'approved' ? 'This payment was already approved; its credit was added once.' : 'This payment was already rejected and can no longer be approved or rejected.',
  );
}

/**
 * Approves a pending request: the status change (conditional on `pending`), the ledger row
 * (kind top_up, reference = request id, unique), the balance, the audit entry and the
 * business's notification commit together or not at all. Of two approvals racing, one wins.
 */
export async function approvePayment(ctx: AppContext, id: string, input: { notes?: string | undefined }, actor: DeskActor, now = new Date()) {
  const notes = input.notes?.trim() || null;
  if (notes && notes.length > 1000) throw new AppError('validation_failed', 'The notes can be at most 1000 characters.');
  const request = await decidable(ctx, id, actor);
  const credited = await approvedClaimOnUtr(ctx, request);
  if (credited) throw utrAlreadyCredited(request.utr, credited);
  const ledgerEntryId = newId('led');
  let balancePaise: number;
  try {
    balancePaise = await ctx.db.transaction().execute(async (trx) => {
      const decided = await payments.decidePending(trx, id, { status: 'approved', notes, ledgerEntryId }, actor, now);
      if (!decided) throw alreadyDecided((await payments.findPaymentRequest(trx, id))?.status);
      // An auto-refill's bank/UPI request paid: the next crossing may open a new one.
      await markCreditedByReference(trx, decided.referenceId, now);
      const balance = await appendCredit(
        trx,
        {
          id: ledgerEntryId,
          businessId: decided.businessId,
          amountPaise: decided.amountPaise,
          kind: 'top_up',
          reference: decided.id,
          reason: `${PAYMENT_METHOD_LABEL[decided.method]} payment ${decided.paymentReference}, UTR ${decided.utr}`,
          actorLabel: actor.label,
        },
        now,
      );
      const receipt = await issueReceipt(trx, {
        config: ctx.config,
        businessId: decided.businessId,
        ledgerEntryId,
        payment: { kind: 'payment_request', id: decided.id },
        method: decided.method,
        methodLabel: PAYMENT_METHOD_LABEL[decided.method],
        paymentReference: decided.paymentReference,
        transactionId: decided.utr,
        amountPaise: decided.amountPaise,
        issuedAt: now,
      });
      await insertAuditEntry(
        trx,
        {
          actorUserId: actor.userId,
          actorLabel: actor.label,
          action: 'payment.approved',
          subjectType: 'payment_request',
          subjectId: decided.id,
          details: {
            business_id: decided.businessId,
            amount_paise: decided.amountPaise,
            reference: decided.paymentReference,
            utr: decided.utr,
            ledger_entry_id: ledgerEntryId,
            receipt_number: receipt.number,
            balance_after_paise: balance,
            notes,
          },
        },
        now,
      );
      await payments.insertNotification(
        trx,
        {
          id: newId('ntf'),
          businessId: decided.businessId,
          kind: 'payment.approved',
          title: 'Payment approved',
          message: `Your payment ${decided.paymentReference} (UTR ${decided.utr}) was approved. ${creditedText(decided.amountPaise)}`,
          subjectId: decided.id,
        },
        now,
      );
      // The PDF is made from the frozen receipt row when the mail is sent (receipts/mail-attachment.ts).
      await queueMail(trx, {
        to: { userId: request.businessOwnerUserId },
        template: 'topup_approved',
        data: { reference: decided.paymentReference, amountPaise: decided.amountPaise, creditedPaise: decided.amountPaise, balancePaise: balance, receiptNumber: receipt.number },
        attachments: [receiptAttachment(receipt.id)],
        now,
      });
      return balance;
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      // Two desks approving two claims on one UTR at once: the unique index on approved UTRs lets one in.
      const winner = await approvedClaimOnUtr(ctx, request);
      if (winner) throw utrAlreadyCredited(request.utr, winner);
      // Belt and braces: the ledger's unique (kind, reference) refuses a second credit outright.
      throw alreadyDecided('approved');
    }
    throw err;
  }
  const [view] = await withConflicts(ctx, [(await repo.findDeskRequest(ctx.db, request.id))!]);
  return { ...view!, balance: paiseToDecimalString(balancePaise) };
}

/** Rejects a pending request with a reason the business sees; nothing is credited. */
export async function rejectPayment(ctx: AppContext, id: string, input: { reason?: string | undefined }, actor: DeskActor, now = new Date()) {
  const reason = input.reason?.trim() ?? '';
  if (!reason) throw new AppError('validation_failed', 'A reason is required to reject a payment.');
  if (reason.length > 500) throw new AppError('validation_failed', 'The reason can be at most 500 characters.');
  const request = await decidable(ctx, id, actor);
  await ctx.db.transaction().execute(async (trx) => {
    const decided = await payments.decidePending(trx, id, { status: 'rejected', reason }, actor, now);
    if (!decided) throw alreadyDecided((await payments.findPaymentRequest(trx, id))?.status);
    await insertAuditEntry(
      trx,
      {
        actorUserId: actor.userId,
        actorLabel: actor.label,
        action: 'payment.rejected',
        subjectType: 'payment_request',
        subjectId: decided.id,
        details: { business_id: decided.businessId, amount_paise: decided.amountPaise, reference: decided.paymentReference, utr: decided.utr, reason },
      },
      now,
    );
    await payments.insertNotification(
      trx,
      {
        id: newId('ntf'),
        businessId: decided.businessId,
        kind: 'payment.rejected',
        title: 'Payment rejected',
        message: `Your payment of ${formatRupees(decided.amountPaise)} (${decided.paymentReference}, UTR ${decided.utr}) was rejected: ${reason}`,
        subjectId: decided.id,
      },
      now,
    );
    await queueMail(trx, {
      to: { userId: request.businessOwnerUserId },
      template: 'topup_rejected',
      data: { reference: decided.paymentReference, amountPaise: decided.amountPaise, reason },
      now,
    });
  });
  return toDeskView((await repo.findDeskRequest(ctx.db, id))!);
}
