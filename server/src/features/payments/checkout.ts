import type { RazorpayResult } from '@common/contract/payments';
import { formatCountIndian, paiseToDecimalString, verificationsForPaise } from '@common/pricing';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { RazorpayConfig } from '../../config';
import type { AppContext } from '../../context';
import { queueMail } from '../mail/outbox';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import { onPaymentFailed, onRefillCredited, onTokenConfirmed, onTokenRevoked } from '../autorefill/service';
import type { CurrentUser } from '../auth/service';
import { findBusinessById } from '../business/repo';
import { requireBusiness } from '../business/service';
import { appendCredit } from '../credits/repo';
import { receiptAttachment } from '../receipts/mail-attachment';
import { issueReceipt } from '../receipts/service';
import { checkoutSignatureValid, createRazorpayOrder, webhookSignatureValid } from './razorpay';
import * as repo from './repo';
import { creditedText, packForAmount, refuseWhileImpersonating, rupeesInputToPaise } from './service';

/**
 * Card/UPI checkout through Razorpay (DESIGN.md §7): orders are created server-side and stored,
 * so a payment is credited only to the business that ordered it, only after its HMAC signature
 * checks, and exactly once per order and per payment id — whether the browser (verify-payment)
 * or Razorpay's webhook reports it first, or both at once.
 */

function requireRazorpay(ctx: AppContext): RazorpayConfig {
  const razorpay = ctx.config.razorpay;
  if (!razorpay) {
    throw new AppError('not_configured', 'Card/UPI checkout is coming soon. Pay by bank transfer or UPI QR from the Bank QR tab meanwhile.');
  }
  return razorpay;
}

export async function createOrder(ctx: AppContext, user: CurrentUser, impersonatedBy: string | null, amount: number | string, log?: FastifyBaseLogger, now = new Date()) {
  const razorpay = requireRazorpay(ctx);
  refuseWhileImpersonating(impersonatedBy);
  const business = await requireBusiness(ctx, user);
  const pack = packForAmount(rupeesInputToPaise(amount));
  const receipt = newId('rcpt');
  const order = await createRazorpayOrder(
    razorpay,
    { amountPaise: pack.amountPaise, receipt, notes: { business_id: business.id, pack_id: pack.id } },
    log,
  );
  await repo.insertOrder(
    ctx.db,
    { id: order.id, businessId: business.id, amountPaise: pack.amountPaise, currency: 'INR', receipt, packId: pack.id, createdByUserId: user.id },
    now,
  );
  return {
    id: order.id,
    /** paise, as Razorpay's checkout expects it */
    amount: pack.amountPaise,
    currency: 'INR',
    keyId: razorpay.keyId,
    packId: pack.id,
    description: `${pack.name} pack — ${formatCountIndian(pack.verifications)} verifications`,
  };
}

export interface CreditOutcome {
  credited: boolean;
  orderId: string;
  paymentId: string;
  amountPaise: number;
  balancePaise: number;
}

/** Marks the order paid and credits it, in one transaction; a repeat of the same payment is a no-op. */
export async function creditOrder(
  ctx: AppContext,
  order: repo.RazorpayOrder,
  paymentId: string,
  via: 'checkout' | 'webhook',
  actor: { userId: string | null; label: string },
  now: Date,
): Promise<CreditOutcome> {
  const alreadyCredited = async (): Promise<CreditOutcome> => {
    const current = await repo.findOrder(ctx.db, order.id);
    if (current?.paymentId !== paymentId) {
      throw new AppError('conflict', current?.status === 'paid' ? 'This order was already paid with another payment.' : 'This payment was already credited.');
    }
    const business = await findBusinessById(ctx.db, order.businessId);
    return { credited: false, orderId: order.id, paymentId, amountPaise: order.amountPaise, balancePaise: business?.balancePaise ?? 0 };
  };
  try {
    const balancePaise = await ctx.db.transaction().execute(async (trx) => {
      const paid = await repo.markOrderPaid(trx, order.id, paymentId, via, now);
      if (!paid) return null;
      const ledgerEntryId = newId('led');
      const balance = await appendCredit(
        trx,
        {
          id: ledgerEntryId,
          businessId: order.businessId,
          amountPaise: order.amountPaise,
          kind: 'top_up',
          reference: paymentId,
          reason: `Razorpay payment for order ${order.id}`,
          actorLabel: actor.label,
        },
        now,
      );
      const receipt = await issueReceipt(trx, {
        config: ctx.config,
        businessId: order.businessId,
        ledgerEntryId,
        payment: { kind: 'razorpay_order', id: order.id },
        method: 'razorpay',
        methodLabel: 'Card/UPI (Razorpay)',
        paymentReference: order.id,
        transactionId: paymentId,
        amountPaise: order.amountPaise,
        issuedAt: now,
      });
      // An auto-refill's charge: its refill is done with this credit, and the owner is told (no-op for other orders).
      await onRefillCredited(trx, order.id, paymentId, balance, now);
      await insertAuditEntry(
        trx,
        {
          actorUserId: actor.userId,
          actorLabel: actor.label,
          action: 'payment.razorpay_credited',
          subjectType: 'business',
          subjectId: order.businessId,
          details: {
            order_id: order.id,
            payment_id: paymentId,
            via,
            amount_paise: order.amountPaise,
            ledger_entry_id: ledgerEntryId,
            receipt_number: receipt.number,
            balance_after_paise: balance,
          },
        },
        now,
      );
      await repo.insertNotification(
        trx,
        { id: newId('ntf'), businessId: order.businessId, kind: 'payment.succeeded', title: 'Payment Successful', message: creditedText(order.amountPaise), subjectId: order.id },
        now,
      );
      const business = await findBusinessById(trx, order.businessId);
      await queueMail(trx, {
        to: { userId: business!.ownerUserId },
        template: 'card_credited',
        data: { paymentId, amountPaise: order.amountPaise, creditedPaise: order.amountPaise, balancePaise: balance, receiptNumber: receipt.number },
        attachments: [receiptAttachment(receipt.id)],
        now,
      });
      return balance;
    });
    if (balancePaise === null) return alreadyCredited();
    return { credited: true, orderId: order.id, paymentId, amountPaise: order.amountPaise, balancePaise };
  } catch (err) {
    // The payment id is already on another order, or a racing report of it won: re-read.
    if (isUniqueViolation(err)) return alreadyCredited();
    throw err;
  }
}

function toVerifyView(outcome: CreditOutcome) {
  return {
    status: 'paid' as const,
    credited: outcome.credited,
    orderId: outcome.orderId,
    paymentId: outcome.paymentId,
    amount: paiseToDecimalString(outcome.amountPaise),
    balance: paiseToDecimalString(outcome.balancePaise),
    verificationsLeft: verificationsForPaise(outcome.balancePaise),
  };
}

/** The browser's report after checkout: signature first, then the order must be this business's. */
export async function verifyPayment(ctx: AppContext, user: CurrentUser, impersonatedBy: string | null, input: RazorpayResult, now = new Date()) {
  const razorpay = requireRazorpay(ctx);
  refuseWhileImpersonating(impersonatedBy);
  const business = await requireBusiness(ctx, user);
  if (!checkoutSignatureValid(razorpay.keySecret, input.razorpay_order_id, input.razorpay_payment_id, input.razorpay_signature)) {
    throw new AppError('invalid_signature', 'Payment Verification Failed: Payment verification failed. Please contact support.');
  }
  const order = await repo.findOrder(ctx.db, input.razorpay_order_id);
  if (!order || order.businessId !== business.id) throw new AppError('not_found', 'No such order for your business.');
  const outcome = await creditOrder(ctx, order, input.razorpay_payment_id, 'checkout', { userId: user.id, label: user.email }, now);
  return toVerifyView(outcome);
}

// --- webhook -----------------------------------------------------------------------------------

const paymentEntity = z.object({
  id: z.string().regex(/^pay_[A-Za-z0-9]{1,50}$/),
  order_id: z.string().regex(/^order_[A-Za-z0-9]{1,50}$/).nullable().optional(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string().optional(),
  error_description: z.string().nullable().optional(),
});

const webhookBody = z.object({
  event: z.string().max(100),
  payload: z
    .object({
      payment: z.object({ entity: paymentEntity }).optional(),
      order: z.object({ entity: z.object({ id: z.string() }).loose() }).optional(),
      token: z.object({ entity: z.object({ id: z.string(), customer_id: z.string().nullable().optional() }).loose() }).optional(),
    })
    .loose()
    .default({}),
}).loose();

const CREDITING_EVENTS = new Set(['payment.captured', 'order.paid']);

export interface WebhookOutcome {
  received: true;
  credited: boolean;
  ignored?: string;
}

/**
 * Razorpay's server-to-server report. Answers 2xx for anything signed that we understand or
 * deliberately ignore (so Razorpay does not retry it forever); a bad signature is refused.
 */
export async function handleWebhook(
  ctx: AppContext,
  rawBody: Buffer,
  signature: string | undefined,
  log?: FastifyBaseLogger,
  now = new Date(),
): Promise<WebhookOutcome> {
  const razorpay = requireRazorpay(ctx);
  if (!razorpay.webhookSecret) throw new AppError('not_configured', 'The Razorpay webhook is not configured on this server (RAZORPAY_WEBHOOK_SECRET).');
  if (!webhookSignatureValid(razorpay.webhookSecret, rawBody, signature)) {
    throw new AppError('invalid_signature', 'The X-Razorpay-Signature header does not match the body.');
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new AppError('invalid_json', 'The body is not valid JSON.');
  }
  const parsed = webhookBody.safeParse(json);
  if (!parsed.success) throw new AppError('validation_failed', 'Not a Razorpay webhook body.');
  const { event, payload } = parsed.data;
  const payment = payload.payment?.entity;
  const orderId = payment?.order_id ?? payload.order?.entity.id;
  // Auto-refill: a failed charge of a saved token turns auto-refill off; a UPI mandate confirmed later activates it.
  if (event === 'payment.failed' && payment && orderId && (await onPaymentFailed(ctx, orderId, payment.id, payment.error_description ?? null, now))) {
    return { received: true, credited: false };
  }
  const token = payload.token?.entity;
  if (event === 'token.confirmed' && token?.customer_id && (await onTokenConfirmed(ctx, token.customer_id, token.id, now))) {
    return { received: true, credited: false };
  }
  if (token && (await onTokenRevoked(ctx, event, token.id, now))) return { received: true, credited: false };
  if (!CREDITING_EVENTS.has(event)) return { received: true, credited: false, ignored: `event ${event}` };
  if (!payment || !orderId) return { received: true, credited: false, ignored: 'no payment or order in the payload' };
  if (event === 'payment.captured' && payment.status !== undefined && payment.status !== 'captured') {
    return { received: true, credited: false, ignored: `payment status ${payment.status}` };
  }

  const order = await repo.findOrder(ctx.db, orderId);
  if (!order) {
    log?.warn({ orderId, paymentId: payment.id }, 'razorpay webhook: order not created by this server');
    return { received: true, credited: false, ignored: 'unknown order' };
  }
  if (payment.amount !== order.amountPaise || payment.currency !== order.currency) {
    log?.warn({ orderId, paymentId: payment.id, amount: payment.amount, expected: order.amountPaise }, 'razorpay webhook: amount does not match the order');
    await insertAuditEntry(
      ctx.db,
      {
        actorUserId: null,
        actorLabel: 'razorpay:webhook',
        action: 'payment.razorpay_mismatch',
        subjectType: 'business',
        subjectId: order.businessId,
        details: { order_id: orderId, payment_id: payment.id, amount_paise: payment.amount, currency: payment.currency, expected_paise: order.amountPaise },
      },
      now,
    );
    return { received: true, credited: false, ignored: 'amount does not match the order' };
  }
  try {
    const outcome = await creditOrder(ctx, order, payment.id, 'webhook', { userId: null, label: 'razorpay:webhook' }, now);
    return { received: true, credited: outcome.credited };
  } catch (err) {
    if (err instanceof AppError && err.code === 'conflict') {
      log?.warn({ orderId, paymentId: payment.id }, `razorpay webhook: ${err.message}`);
      return { received: true, credited: false, ignored: err.message };
    }
    throw err;
  }
}
