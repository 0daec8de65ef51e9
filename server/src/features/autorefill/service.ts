import type { AutoRefillMode, AutoRefillSettings, MandateBody, MandateConfirmBody, MandateOrder } from '@common/contract/business';
import { TOP_UP_PACKS, formatCountIndian, formatRupees, getTopUpPack, paiseToDecimalString } from '@common/pricing';
import type { FastifyBaseLogger } from 'fastify';
import type { Config, RazorpayConfig } from '../../config';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import type { CurrentUser } from '../auth/service';
import * as businessRepo from '../business/repo';
import { creditOrder } from '../payments/checkout';
import { findOrder, insertNotification, insertOrder, insertReferences } from '../payments/repo';
import { checkoutSignatureValid } from '../payments/razorpay';
import { bankQrAvailable, newPaymentReference, refuseWhileImpersonating, upiUri } from '../payments/service';
import { queueMail } from '../mail/outbox';
import { findUserById } from '../users/repo';
import { qrCodeDataUri } from '../verify/totp';
import * as razorpay from './razorpay-recurring';
import * as repo from './repo';

type Executor = Kysely<Database> | Transaction<Database>;

/** Which of the two auto-refills this installation runs (README "Auto-refill"). */
export function autoRefillMode(config: Config): AutoRefillMode {
  if (config.razorpay) return 'razorpay';
  return bankQrAvailable(config) ? 'bank' : 'unavailable';
}

/** The most one charge of the saved token may take: the largest pack, so any pack can be chosen later. */
export const MANDATE_MAX_PAISE = Math.max(...TOP_UP_PACKS.map((p) => p.amountPaise));
/** How long the token is authorised for (Razorpay's `expire_at`). */
const MANDATE_YEARS = 10;
/** Transient failures (network, 5xx) are retried after these delays; then the refill fails. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000];
/** A charge whose webhook has not come after this long is looked up at Razorpay (then again as long). */
export const WEBHOOK_OVERDUE_MS = 15 * 60_000;

// --- the crossing (verification hot path) --------------------------------------------------------

/**
 * Called in the debit's transaction for each business a group charged. Costs nothing unless
 * this debit took the balance from at or above the owner's threshold to under it; then it
 * writes one "refill due" row (none while another refill is in flight). No network here: the
 * worker charges the token or issues the bank/UPI request after the commit.
 */
export async function startRefillOnCrossing(
  trx: Executor,
  businessId: string,
  settings: { enabled: boolean; thresholdPaise: number | null; packId: string | null },
  balanceBeforePaise: number,
  balanceAfterPaise: number,
  now: Date,
): Promise<void> {
  const threshold = settings.thresholdPaise;
  if (!settings.enabled || threshold === null || !settings.packId) return;
  if (!(balanceBeforePaise >= threshold && balanceAfterPaise < threshold)) return;
  const pack = getTopUpPack(settings.packId);
  if (!pack) return;
  await repo.insertDueRefill(trx, { businessId, packId: pack.id, amountPaise: pack.amountPaise, balancePaise: balanceAfterPaise, thresholdPaise: threshold }, now);
}

// --- what the dashboard shows --------------------------------------------------------------------

export async function autoRefillView(ctx: AppContext, business: businessRepo.Business): Promise<AutoRefillSettings> {
  const [off, mandate, last] = await Promise.all([
    repo.findOffReason(ctx.db, business.id),
    repo.findMandate(ctx.db, business.id),
    repo.listRefills(ctx.db, business.id, 1),
  ]);
  const run = last[0];
  let request: NonNullable<AutoRefillSettings['lastRefill']>['request'] = null;
  if (run?.status === 'open' && run.referenceId) {
    const ref = await repo.findReferenceById(ctx.db, run.referenceId);
    if (ref) {
      const uri = upiUri({ upiId: ref.payeeUpiId, name: ref.payeeName }, ref.amountPaise, ref.reference);
      request = {
        paymentReference: ref.reference,
        verificationCode: ref.verificationCode,
        amount: paiseToDecimalString(ref.amountPaise),
        upiUri: uri,
        qrCodeImageUrl: await qrCodeDataUri(uri),
        upiId: ref.payeeUpiId,
        merchantName: ref.payeeName,
        expiresAt: ref.expiresAt.toISOString(),
      };
    }
  }
  return {
    ...business.autoRefill,
    mode: autoRefillMode(ctx.config),
    offReason: off?.reason ?? null,
    offAt: off?.at.toISOString() ?? null,
    mandate: mandate ? { method: mandate.method, status: mandate.status, label: mandate.label, maxAmount: paiseToDecimalString(mandate.maxAmountPaise) } : null,
    lastRefill: run
      ? {
          id: run.id,
          status: run.status,
          packId: run.packId,
          amount: paiseToDecimalString(run.amountPaise),
          failureReason: run.failureReason,
          createdAt: run.createdAt.toISOString(),
          updatedAt: run.updatedAt.toISOString(),
          request,
        }
      : null,
  };
}

/**
 * The owner's settings (PUT /api/business/auto-refill). Turning it on needs something to refill
 * with: a saved, active mandate when Razorpay is configured; bank/UPI top-ups otherwise.
 * Turning it on again clears the reason the server switched it off.
 */
export async function checkCanEnable(ctx: AppContext, businessId: string): Promise<void> {
  const mode = autoRefillMode(ctx.config);
  if (mode === 'unavailable') {
    throw new AppError('not_configured', 'Auto-refill needs card/UPI payments (Razorpay) or bank/UPI top-ups (PAYEE_UPI_ID), and neither is set up on this server.');
  }
  if (mode === 'razorpay') {
    const mandate = await repo.findMandate(ctx.db, businessId);
    if (mandate?.status !== 'active') {
      throw new AppError('conflict', 'Save a card or UPI mandate first: auto-refill charges it when your balance falls below the threshold.');
    }
  }
}

export async function afterSettingsSaved(ctx: AppContext, businessId: string, enabled: boolean): Promise<void> {
  if (enabled) await repo.clearOffReason(ctx.db, businessId);
}

// --- saving the mandate (Razorpay) ---------------------------------------------------------------

function requireRazorpay(ctx: AppContext): RazorpayConfig {
  if (!ctx.config.razorpay) {
    throw new AppError('not_configured', 'Card/UPI auto-refill needs Razorpay, which is not set up on this server. Auto-refill here sends you a bank/UPI top-up request instead.');
  }
  return ctx.config.razorpay;
}

const gatewayDown = () => new AppError('bad_gateway', 'Razorpay could not be reached to set up the mandate. Please try again.');

/**
 * Step 1: a Razorpay customer for the business and an authorisation order for the chosen pack
 * with a `token` block (max amount, expiry, `as_presented`). Paying it in Razorpay's checkout
 * (`customer_id`, `recurring: "1"`) buys the pack and saves the card or UPI mandate.
 */
export async function startMandate(ctx: AppContext, user: CurrentUser, impersonatedBy: string | null, input: MandateBody, log?: FastifyBaseLogger, now = new Date()): Promise<MandateOrder> {
  const config = requireRazorpay(ctx);
  refuseWhileImpersonating(impersonatedBy);
  const business = await requireOwnBusiness(ctx, user);
  const pack = getTopUpPack(input.packId);
  if (!pack) throw new AppError('validation_failed', `Unknown top-up pack "${input.packId}".`);
  const existing = await repo.findMandate(ctx.db, business.id);
  let customerId: string;
  let orderId: string;
  const receipt = newId('rcpt');
  try {
    customerId = existing?.customerId ?? (await razorpay.createCustomer(config, { name: business.companyName, email: user.email, notes: { business_id: business.id } }));
    orderId = await razorpay.createAuthorisationOrder(config, {
      amountPaise: pack.amountPaise,
      customerId,
      method: input.method,
      maxAmountPaise: MANDATE_MAX_PAISE,
      expireAt: new Date(now.getTime() + MANDATE_YEARS * 365 * 86_400_000),
      receipt,
      notes: { business_id: business.id, pack_id: pack.id, purpose: 'auto_refill_mandate' },
    });
  } catch (err) {
    log?.warn({ err: (err as Error).message }, 'auto-refill: mandate set-up refused');
    throw gatewayDown();
  }
  await ctx.db.transaction().execute(async (trx) => {
    // The authorising payment is an ordinary order: credited by the one checkout/webhook path.
    await insertOrder(trx, { id: orderId, businessId: business.id, amountPaise: pack.amountPaise, currency: 'INR', receipt, packId: pack.id, createdByUserId: user.id }, now);
    await repo.savePendingMandate(trx, { businessId: business.id, customerId, method: input.method, authOrderId: orderId, maxAmountPaise: MANDATE_MAX_PAISE }, now);
    await businessRepo.updateAutoRefill(trx, business.id, { enabled: business.autoRefill.enabled, thresholdPaise: input.thresholdRupees * 100, packId: pack.id }, now);
  });
  return {
    orderId,
    customerId,
    amount: pack.amountPaise,
    currency: 'INR',
    keyId: config.keyId,
    method: input.method,
    packId: pack.id,
    description: `${pack.name} pack — ${formatCountIndian(pack.verifications)} verifications; saves your ${input.method === 'card' ? 'card' : 'UPI mandate'} for auto-refill`,
  };
}

/**
 * Step 2: the checkout's signed result. The payment is credited like any checkout (the same
 * function), then the token is read from the payment (`token_id`) and auto-refill is switched on.
 */
export async function confirmMandate(
  ctx: AppContext,
  user: CurrentUser,
  impersonatedBy: string | null,
  input: MandateConfirmBody,
  credit: (input: MandateConfirmBody) => Promise<unknown>,
  log?: FastifyBaseLogger,
  now = new Date(),
): Promise<void> {
  const config = requireRazorpay(ctx);
  refuseWhileImpersonating(impersonatedBy);
  const business = await requireOwnBusiness(ctx, user);
  if (!checkoutSignatureValid(config.keySecret, input.razorpay_order_id, input.razorpay_payment_id, input.razorpay_signature)) {
    throw new AppError('invalid_signature', 'The payment signature does not match. Please contact support.');
  }
  const mandate = await repo.findMandate(ctx.db, business.id);
  if (!mandate || mandate.authOrderId !== input.razorpay_order_id) throw new AppError('not_found', 'No mandate set-up with this order for your business.');
  await credit(input);
  let payment: razorpay.PaymentFacts;
  try {
    payment = await razorpay.fetchPayment(config, input.razorpay_payment_id);
  } catch (err) {
    log?.warn({ err: (err as Error).message }, 'auto-refill: could not read the authorising payment');
    throw gatewayDown();
  }
  if (payment.orderId !== input.razorpay_order_id) throw new AppError('conflict', 'This payment belongs to another order.');
  if (!payment.tokenId) {
    // UPI Autopay may confirm the mandate later; the token.confirmed webhook activates it then.
    return;
  }
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.activateMandate(trx, business.id, input.razorpay_order_id, payment.tokenId!, payment.label, now))) return;
    const current = (await businessRepo.findBusinessById(trx, business.id))!;
    await businessRepo.updateAutoRefill(trx, business.id, { ...current.autoRefill, enabled: true }, now);
    await repo.clearOffReason(trx, business.id);
    await insertAuditEntry(
      trx,
      { actorUserId: user.id, actorLabel: user.email, action: 'auto_refill.mandate_saved', subjectType: 'business', subjectId: business.id, details: { method: mandate.method, customer_id: mandate.customerId, order_id: input.razorpay_order_id } },
      now,
    );
  });
}

/** The owner removes the mandate: the token is deleted at Razorpay, auto-refill goes off. */
export async function removeMandate(ctx: AppContext, user: CurrentUser, impersonatedBy: string | null, log?: FastifyBaseLogger, now = new Date()): Promise<void> {
  const config = requireRazorpay(ctx);
  refuseWhileImpersonating(impersonatedBy);
  const business = await requireOwnBusiness(ctx, user);
  const mandate = await repo.findMandate(ctx.db, business.id);
  if (!mandate) throw new AppError('not_found', 'No saved card or UPI mandate.');
  if (mandate.tokenId) {
    try {
      await razorpay.deleteToken(config, mandate.customerId, mandate.tokenId);
    } catch (err) {
      // Already gone at Razorpay is fine; anything else: keep it, so it is not forgotten while still chargeable.
      if (!(err instanceof razorpay.RazorpayCallError && err.status === 400)) {
        log?.warn({ err: err instanceof Error ? err.message : err }, 'auto-refill: token deletion refused');
        throw new AppError('bad_gateway', 'Razorpay could not delete the saved mandate. Please try again.');
      }
    }
  }
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteMandate(trx, business.id);
    await businessRepo.updateAutoRefill(trx, business.id, { ...business.autoRefill, enabled: false }, now);
    await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'auto_refill.mandate_removed', subjectType: 'business', subjectId: business.id, details: { method: mandate.method } }, now);
  });
}

async function requireOwnBusiness(ctx: AppContext, user: CurrentUser): Promise<businessRepo.Business> {
  const business = await businessRepo.findBusinessByOwner(ctx.db, user.id);
  if (!business) throw new AppError('not_found', 'You have no business account yet.');
  return business;
}

// --- webhooks (Razorpay) -------------------------------------------------------------------------

/** In the credit's transaction (payments/checkout.ts): a refill's order was paid; close it and tell the owner. */
export async function onRefillCredited(trx: Executor, orderId: string, paymentId: string, balancePaise: number, now: Date): Promise<void> {
  const refill = await repo.markCreditedByOrder(trx, orderId, paymentId, now);
  if (!refill) return;
  const business = await businessRepo.findBusinessById(trx, refill.businessId);
  const mandate = await repo.findMandate(trx, refill.businessId);
  if (!business) return;
  await queueMail(trx, {
    to: { userId: business.ownerUserId },
    template: 'auto_refill_charged',
    data: {
      companyName: business.companyName,
      amountPaise: refill.amountPaise,
      packName: getTopUpPack(refill.packId)?.name ?? refill.packId,
      thresholdPaise: refill.thresholdPaise,
      paymentId,
      mandate: mandate?.label ?? (mandate?.method === 'upi' ? 'UPI mandate' : 'card'),
      balancePaise,
    },
    dedupeKey: `auto_refill_charged:${refill.id}`,
    now,
  });
}

/** payment.failed for a refill's order: the refill fails and auto-refill goes off, saying why. Returns whether it was one. */
export async function onPaymentFailed(ctx: AppContext, orderId: string, paymentId: string, description: string | null, now = new Date()): Promise<boolean> {
  const refill = await repo.findRefillByOrder(ctx.db, orderId);
  if (!refill) return false;
  await failRefill(ctx, refill, `The charge of ${formatRupees(refill.amountPaise)} to your saved mandate failed${description ? `: ${description}` : '.'}`, now, paymentId);
  return true;
}

/** token.confirmed (UPI Autopay confirms later): the pending mandate of this customer becomes active. */
export async function onTokenConfirmed(ctx: AppContext, customerId: string, tokenId: string, now = new Date()): Promise<boolean> {
  const pending = await repo.findPendingMandateByCustomer(ctx.db, customerId);
  if (!pending) return false;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.activateMandate(trx, pending.businessId, pending.authOrderId, tokenId, null, now))) return;
    const current = (await businessRepo.findBusinessById(trx, pending.businessId))!;
    await businessRepo.updateAutoRefill(trx, pending.businessId, { ...current.autoRefill, enabled: true }, now);
    await repo.clearOffReason(trx, pending.businessId);
  });
  return true;
}

const REVOKED_BY: Record<string, string> = {
  'token.cancelled': 'was cancelled',
  'token.paused': 'was paused',
  'token.rejected': 'was rejected by your bank',
};

/** token.cancelled / paused / rejected: the mandate cannot be charged; auto-refill goes off and says why. */
export async function onTokenRevoked(ctx: AppContext, event: string, tokenId: string, now = new Date()): Promise<boolean> {
  const how = REVOKED_BY[event];
  if (!how) return false;
  return ctx.db.transaction().execute(async (trx) => {
    const businessId = await repo.revokeMandateByToken(trx, tokenId, now);
    if (!businessId) return false;
    const reason = `Your saved card or UPI mandate ${how}, so it cannot be charged. Save a new one to turn auto-refill on again.`;
    await repo.switchOff(trx, businessId, reason, now);
    await insertNotification(trx, { id: newId('ntf'), businessId, kind: 'auto_refill.failed', title: 'Auto-refill switched off', message: reason, subjectId: null }, now);
    await insertAuditEntry(trx, { actorUserId: null, actorLabel: 'razorpay:webhook', action: 'auto_refill.mandate_revoked', subjectType: 'business', subjectId: businessId, details: { event, token_id: tokenId } }, now);
    return true;
  });
}

// --- the worker's side ---------------------------------------------------------------------------

/**
 * Fails a refill still in flight and switches auto-refill off with the reason, in one
 * transaction, with a notice on the dashboard. A refill already settled is left alone.
 */
export async function failRefill(ctx: AppContext, refill: repo.Refill, reason: string, now: Date, paymentId?: string): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const failed = await repo.updateRefill(trx, refill.id, repo.IN_FLIGHT, { status: 'failed', failure_reason: reason.slice(0, 500), locked_until: null, ...(paymentId ? { payment_id: paymentId } : {}) }, now);
    if (!failed) return false;
    await repo.switchOff(trx, refill.businessId, reason, now);
    await insertNotification(trx, { id: newId('ntf'), businessId: refill.businessId, kind: 'auto_refill.failed', title: 'Auto-refill switched off', message: reason, subjectId: refill.id }, now);
    await insertAuditEntry(trx, { actorUserId: null, actorLabel: 'auto-refill', action: 'auto_refill.failed', subjectType: 'business', subjectId: refill.businessId, details: { refill_id: refill.id, reason } }, now);
    const business = await businessRepo.findBusinessById(trx, refill.businessId);
    if (business) {
      await queueMail(trx, {
        to: { userId: business.ownerUserId },
        template: 'auto_refill_failed',
        data: { companyName: business.companyName, amountPaise: refill.amountPaise, reason },
        dedupeKey: `auto_refill_failed:${refill.id}`,
        now,
      });
    }
    return true;
  });
}

/** One claimed refill: charge the token (Razorpay) or issue the bank/UPI request. */
export async function processRefill(ctx: AppContext, refill: repo.Refill, log?: Pick<FastifyBaseLogger, 'warn' | 'info'>, now = new Date()): Promise<void> {
  const business = await businessRepo.findBusinessById(ctx.db, refill.businessId);
  if (!business) return;
  if (refill.status === 'due' && !business.autoRefill.enabled) {
    await repo.updateRefill(ctx.db, refill.id, ['due'], { status: 'expired', failure_reason: 'Auto-refill was turned off before the refill started.', locked_until: null }, now);
    return;
  }
  const mode = autoRefillMode(ctx.config);
  if (mode === 'razorpay') {
    if (refill.status === 'charging' && refill.paymentId) return reconcileCharge(ctx, ctx.config.razorpay!, refill, log, now);
    return chargeSavedToken(ctx, ctx.config.razorpay!, refill, business, log, now);
  }
  if (mode === 'bank') return issueBankRequest(ctx, refill, business, now);
  await failRefill(ctx, refill, 'Auto-refill is not available on this server (no Razorpay and no bank/UPI payee).', now);
}

/**
 * A charge Razorpay accepted whose webhook is overdue (not configured, lost, or Razorpay still
 * retrying): ask Razorpay. Captured → credited through the one credit path, exactly as the
 * webhook would; failed → the refill fails and auto-refill goes off; else look again later.
 */
async function reconcileCharge(ctx: AppContext, config: RazorpayConfig, refill: repo.Refill, log: Pick<FastifyBaseLogger, 'warn' | 'info'> | undefined, now: Date): Promise<void> {
  const later = () => repo.updateRefill(ctx.db, refill.id, ['charging'], { locked_until: null, next_attempt_at: new Date(now.getTime() + WEBHOOK_OVERDUE_MS) }, now);
  let payment: razorpay.PaymentFacts;
  try {
    payment = await razorpay.fetchPayment(config, refill.paymentId!);
  } catch (err) {
    log?.warn({ refillId: refill.id, err: err instanceof Error ? err.message : String(err) }, 'auto-refill: could not look up an overdue charge');
    await later();
    return;
  }
  if (payment.status === 'captured') {
    const order = await findOrder(ctx.db, refill.orderId!);
    if (order) {
      await creditOrder(ctx, order, payment.id, 'webhook', { userId: null, label: 'auto-refill:reconcile' }, now).catch((err: unknown) => {
        log?.warn({ refillId: refill.id, err: err instanceof Error ? err.message : String(err) }, 'auto-refill: overdue charge not credited');
      });
    }
    await later(); // a no-op once the credit closed the refill
    return;
  }
  if (payment.status === 'failed') {
    await failRefill(ctx, refill, `The charge of ${formatRupees(refill.amountPaise)} to your saved mandate failed${payment.errorDescription ? `: ${payment.errorDescription}` : '.'}`, now, payment.id);
    return;
  }
  await later();
}

async function chargeSavedToken(
  ctx: AppContext,
  config: RazorpayConfig,
  refill: repo.Refill,
  business: businessRepo.Business,
  log: Pick<FastifyBaseLogger, 'warn' | 'info'> | undefined,
  now: Date,
): Promise<void> {
  const mandate = await repo.findMandate(ctx.db, business.id);
  if (!mandate || mandate.status !== 'active' || !mandate.tokenId) {
    await failRefill(ctx, refill, 'There is no active saved card or UPI mandate to charge. Save one and turn auto-refill on again.', now);
    return;
  }
  if (refill.amountPaise > mandate.maxAmountPaise) {
    await failRefill(ctx, refill, `The ${formatRupees(refill.amountPaise)} pack is more than your mandate allows (${formatRupees(mandate.maxAmountPaise)}).`, now);
    return;
  }
  const owner = await findUserById(ctx.db, business.ownerUserId);
  const pack = getTopUpPack(refill.packId)!;
  const retryLater = async (err: unknown) => {
    const attempt = refill.attempts + 1;
    const permanent = err instanceof razorpay.RazorpayCallError && !err.transient;
    log?.warn({ refillId: refill.id, attempt, err: err instanceof Error ? err.message : String(err) }, 'auto-refill: charge not made');
    if (permanent || attempt > RETRY_DELAYS_MS.length) {
      const why = err instanceof razorpay.RazorpayCallError && err.description ? err.description : permanent ? 'the charge was refused' : 'Razorpay could not be reached';
      await failRefill(ctx, refill, `Auto-refill could not charge ${formatRupees(refill.amountPaise)} to your saved ${mandate.method === 'card' ? 'card' : 'UPI mandate'}: ${why}.`, now);
      return;
    }
    await repo.updateRefill(ctx.db, refill.id, ['due', 'charging'], { attempts: attempt, next_attempt_at: new Date(now.getTime() + RETRY_DELAYS_MS[attempt - 1]!), locked_until: null }, now);
  };

  let orderId = refill.orderId;
  if (!orderId) {
    try {
      orderId = await razorpay.createChargeOrder(config, {
        amountPaise: refill.amountPaise,
        receipt: refill.id,
        notes: { business_id: business.id, pack_id: pack.id, auto_refill_id: refill.id },
      });
    } catch (err) {
      return retryLater(err);
    }
    const made = orderId;
    // The order row makes the capture webhook credit this business through the one credit path.
    await ctx.db.transaction().execute(async (trx) => {
      await insertOrder(trx, { id: made, businessId: business.id, amountPaise: refill.amountPaise, currency: 'INR', receipt: refill.id, packId: pack.id, createdByUserId: null }, now);
      await repo.updateRefill(trx, refill.id, ['due'], { mode: 'razorpay', status: 'charging', order_id: made }, now);
    });
  } else if (refill.attempts > 0) {
    // An earlier attempt may have reached Razorpay before its worker died or timed out:
    // ask before charging again, so one crossing is never charged twice.
    let earlier: razorpay.PaymentFacts[];
    try {
      earlier = await razorpay.fetchOrderPayments(config, orderId);
    } catch (err) {
      return retryLater(err);
    }
    const live = earlier.find((p) => p.status !== 'failed');
    if (live) {
      await repo.updateRefill(ctx.db, refill.id, ['charging'], { payment_id: live.id, locked_until: null, next_attempt_at: new Date(now.getTime() + WEBHOOK_OVERDUE_MS) }, now);
      return;
    }
    if (earlier.length > 0) {
      await failRefill(ctx, refill, `The charge of ${formatRupees(refill.amountPaise)} to your saved mandate failed${earlier[0]!.errorDescription ? `: ${earlier[0]!.errorDescription}` : '.'}`, now, earlier[0]!.id);
      return;
    }
  }
  // The attempt is on record before it is made.
  await repo.updateRefill(ctx.db, refill.id, ['charging'], { attempts: refill.attempts + 1 }, now);
  try {
    const paymentId = await razorpay.createRecurringPayment(config, {
      email: owner?.email ?? 'unknown@invalid',
      contact: null,
      amountPaise: refill.amountPaise,
      orderId,
      customerId: mandate.customerId,
      tokenId: mandate.tokenId,
      description: `Auto-refill: ${pack.name} pack`,
      notes: { business_id: business.id, auto_refill_id: refill.id },
    });
    // Captured (and credited) when Razorpay's signed webhook says so.
    await repo.updateRefill(ctx.db, refill.id, ['charging'], { payment_id: paymentId, locked_until: null, next_attempt_at: new Date(now.getTime() + WEBHOOK_OVERDUE_MS) }, now);
    log?.info({ refillId: refill.id, orderId, paymentId }, 'auto-refill: saved token charged');
  } catch (err) {
    await retryLater(err);
  }
}

async function issueBankRequest(ctx: AppContext, refill: repo.Refill, business: businessRepo.Business, now: Date): Promise<void> {
  const pack = getTopUpPack(refill.packId)!;
  const { payee } = ctx.config;
  const reference = newPaymentReference(business.id, pack, payee, now);
  // The UPI QR the dashboard shows, attached to the mail as a PNG (a few hundred bytes).
  const qr = await qrCodeDataUri(upiUri(payee, pack.amountPaise, reference.reference));
  const qrPng = Buffer.from(qr.slice(qr.indexOf(',') + 1), 'base64');
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.updateRefill(trx, refill.id, ['due'], { mode: 'bank', status: 'open', reference_id: reference.id, locked_until: null }, now))) return;
    await insertReferences(trx, [reference]);
    await insertNotification(
      trx,
      {
        id: newId('ntf'),
        businessId: business.id,
        kind: 'auto_refill.request',
        title: 'Auto-refill: top-up request',
        message: `Your balance fell below ${formatRupees(refill.thresholdPaise)}. Pay ${formatRupees(pack.amountPaise)} (${pack.name} pack) by UPI or bank transfer quoting ${reference.reference}, then submit the UTR under Add Credits.`,
        subjectId: refill.id,
      },
      now,
    );
    await queueMail(trx, {
      to: { userId: business.ownerUserId },
      template: 'auto_refill_request',
      data: {
        companyName: business.companyName,
        reference: reference.reference,
        amountPaise: pack.amountPaise,
        packName: pack.name,
        thresholdPaise: refill.thresholdPaise,
        upiId: payee.upiId,
        payeeName: payee.name,
        bankDetails: payee.bankDetails || null,
        expiresAt: reference.expiresAt.toISOString(),
      },
      attachments: [{ filename: `upi-qr-${reference.reference}.png`, contentType: 'image/png', content: qrPng }],
      dedupeKey: `auto_refill_request:${refill.id}`,
      now,
    });
  });
}
