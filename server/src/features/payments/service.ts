import type { PaymentRequestBody } from '@common/contract/payments';
import type { z } from 'zod';
import { randomInt } from 'node:crypto';
import {
  MIN_PAYMENT_PAISE,
  TOP_UP_PACKS,
  formatCountIndian,
  formatRupees,
  getTopUpPack,
  paiseToDecimalString,
  verificationsForPaise,
  type TopUpPack,
} from '@common/pricing';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import type { PaymentMethod, PaymentRequestStatus } from '../../db/types';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import type { CurrentUser } from '../auth/service';
import { requireBusiness } from '../business/service';
import { qrCodeDataUri } from '../verify/totp';
import * as repo from './repo';

/** How long an issued reference may be quoted in a submission. */
export const REFERENCE_TTL_MS = 7 * 86_400_000;
/** Upper-case letters and digits without look-alikes (0/O, 1/I/L): easy to type into a bank app. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const UTR_PATTERN = /^[A-Z0-9]{12,22}$/;

export const PAYMENT_METHOD_LABEL: Record<PaymentMethod, string> = { upi: 'UPI', bank_transfer: 'Bank transfer' };
export const INVALID_AMOUNT_MESSAGE = 'Invalid Amount: Minimum amount is ₹100.';
const NOT_AN_AMOUNT_MESSAGE = 'Invalid Amount: give rupees with at most two decimals, e.g. 5000 or 5000.00.';

function randomCode(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return out;
}

/** DESIGN.md §4: an administrator acting as someone cannot pay or buy credit for them. */
export function refuseWhileImpersonating(impersonatedBy: string | null | undefined): void {
  if (impersonatedBy) throw new AppError('impersonation_forbidden', 'Payments and credit purchases are disabled while impersonating a user.');
}

/** The amount checks every payment path shares: at least ₹100, and one of the catalogue's packs. */
export function packForAmount(amountPaise: number | null): TopUpPack {
  checkMinimum(amountPaise);
  const pack = TOP_UP_PACKS.find((p) => p.amountPaise === amountPaise);
  if (!pack) {
    const list = TOP_UP_PACKS.map((p) => formatRupees(p.amountPaise));
    throw new AppError(
      'validation_failed',
      `Payments are accepted only in multiples of ₹5,000: choose ${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}.`,
    );
  }
  return pack;
}

function checkMinimum(amountPaise: number | null): asserts amountPaise is number {
  if (amountPaise === null) throw new AppError('validation_failed', NOT_AN_AMOUNT_MESSAGE);
  if (amountPaise < MIN_PAYMENT_PAISE) throw new AppError('validation_failed', INVALID_AMOUNT_MESSAGE);
}

/** Rupees as the client sends them (5000, 5000.5 or "5000.00") → paise; null when not an amount. */
export function rupeesInputToPaise(value: number | string): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) && value >= 0 ? String(value) : '') : value.trim();
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Bank QR top-ups are offered unless a production server still has the demo payee. */
export function bankQrAvailable(config: Config): boolean {
  return !(config.payee.demo && config.isProduction);
}

export function paymentConfig(config: Config) {
  return {
    razorpay: Boolean(config.razorpay),
    razorpayKeyId: config.razorpay?.keyId ?? null,
    bankQr: bankQrAvailable(config),
    demo: config.payee.demo,
    minimumAmount: paiseToDecimalString(MIN_PAYMENT_PAISE),
    referenceValidDays: REFERENCE_TTL_MS / 86_400_000,
  };
}

export function upiUri(payee: { upiId: string; name: string }, amountPaise: number, reference: string): string {
  const params = [
    ['pa', payee.upiId],
    ['pn', payee.name],
    ['am', paiseToDecimalString(amountPaise)],
    ['cu', 'INR'],
    ['tn', reference],
  ];
  // '@' is legal in a query (RFC 3986) and UPI apps expect the VPA as written: pa=name@bank.
  return `upi://pay?${params.map(([k, v]) => `${k}=${encodeURIComponent(v!).replace(/%40/g, '@')}`).join('&')}`;
}

// --- static QR options -------------------------------------------------------------------------

/** A fresh reference for one pack, valid REFERENCE_TTL_MS (the QR flow and auto-refill's requests). */
export function newPaymentReference(businessId: string, pack: TopUpPack, payee: Config['payee'], now: Date): repo.PaymentReference {
  const short = businessId.replace(/^biz_/, '').slice(0, 6).toUpperCase();
  return {
    id: newId('prf'),
    businessId,
    reference: `SXD-${short}-${randomCode(8)}`,
    packId: pack.id,
    amountPaise: pack.amountPaise,
    verificationCode: randomCode(6),
    payeeUpiId: payee.upiId,
    payeeName: payee.name,
    payeeBankDetails: payee.bankDetails,
    createdAt: now,
    expiresAt: new Date(now.getTime() + REFERENCE_TTL_MS),
  };
}

/** One fresh, recorded reference and UPI QR per top-up pack: option1 … option4. */
export async function staticQrOptions(ctx: AppContext, user: CurrentUser, impersonatedBy: string | null, now = new Date()) {
  refuseWhileImpersonating(impersonatedBy);
  if (!bankQrAvailable(ctx.config)) {
    throw new AppError('not_configured', 'Bank/UPI top-ups are not set up on this server yet (PAYEE_UPI_ID). Please contact support.');
  }
  const business = await requireBusiness(ctx, user);
  const { payee } = ctx.config;
  const expiresAt = new Date(now.getTime() + REFERENCE_TTL_MS);
  const references = TOP_UP_PACKS.map((pack) => newPaymentReference(business.id, pack, payee, now));
  await repo.insertReferences(ctx.db, references);
  const options = await Promise.all(
    references.map(async (ref) => {
      const pack = getTopUpPack(ref.packId)!;
      const uri = upiUri(payee, ref.amountPaise, ref.reference);
      return {
        packId: pack.id,
        packName: pack.name,
        amount: paiseToDecimalString(ref.amountPaise),
        verifications: pack.verifications,
        qrCodeImageUrl: await qrCodeDataUri(uri),
        upiUri: uri,
        upiId: payee.upiId,
        merchantName: payee.name,
        bankAccountDetails: payee.bankDetails || null,
        verificationCode: ref.verificationCode,
        paymentReference: ref.reference,
        expiresAt: expiresAt.toISOString(),
        demo: payee.demo,
      };
    }),
  );
  return Object.fromEntries(options.map((option, i) => [`option${i + 1}`, option]));
}

// --- payment requests --------------------------------------------------------------------------

export function toBusinessView(r: repo.PaymentRequest) {
  return {
    id: r.id,
    paymentReference: r.paymentReference,
    utr: r.utr,
    amount: paiseToDecimalString(r.amountPaise),
    packId: r.packId,
    verifications: getTopUpPack(r.packId)?.verifications ?? null,
    paymentMethod: PAYMENT_METHOD_LABEL[r.method],
    method: r.method,
    status: r.status,
    reason: r.rejectionReason,
    notes: r.notes,
    createdAt: r.createdAt.toISOString(),
    processedAt: r.processedAt?.toISOString() ?? null,
  };
}

/** The payer's claim, as the route validated it. */
export type SubmitPaymentInput = z.output<typeof PaymentRequestBody>;

const utrTaken = () => new AppError('conflict', 'You have already submitted this bank transaction id (UTR).');
const referenceTaken = (status: PaymentRequestStatus) =>
  new AppError('conflict', status === 'approved' ? 'The payment for this reference was already approved.' : 'A payment for this reference is already waiting for approval.');

/** "I paid": the UTR for a reference we issued to this business → a pending request for the desk. */
export async function submitPaymentRequest(
  ctx: AppContext,
  user: CurrentUser,
  impersonatedBy: string | null,
  input: SubmitPaymentInput,
  now = new Date(),
) {
  refuseWhileImpersonating(impersonatedBy);
  const business = await requireBusiness(ctx, user);
  const amountPaise = rupeesInputToPaise(input.amount);
  checkMinimum(amountPaise);
  const utr = input.utr.replace(/\s+/g, '').toUpperCase();
  if (!UTR_PATTERN.test(utr)) {
    throw new AppError('validation_failed', 'The bank transaction id (UTR) is 12 to 22 letters and digits, as shown in your bank or UPI app.');
  }
  const reference = await repo.findReferenceForBusiness(ctx.db, business.id, input.paymentReference.trim().toUpperCase());
  if (!reference) {
    throw new AppError('not_found', 'Unknown payment reference. Quote the reference shown with the QR code on your Add Credits page.');
  }
  if (reference.expiresAt <= now) {
    throw new AppError(
      'validation_failed',
      `This payment reference expired on ${reference.expiresAt.toISOString().slice(0, 10)}. Load the payment options again for a fresh one, or contact support if you already paid with it.`,
    );
  }
  if (amountPaise !== reference.amountPaise) {
    throw new AppError(
      'validation_failed',
      `The amount ${formatRupees(amountPaise)} does not match this reference's ${formatRupees(reference.amountPaise)} pack.`,
    );
  }
  // Only this business's own earlier claim is refused. Another business's claim on the same UTR is
  // not revealed: both go to the desk, flagged as a duplicate-UTR conflict (financial/service.ts).
  if (await repo.findPaymentRequestByUtr(ctx.db, business.id, utr)) throw utrTaken();
  const live = await repo.findLiveRequestForReference(ctx.db, reference.id);
  if (live) throw referenceTaken(live.status);

  const notes = input.notes?.trim() || null;
  const method = input.paymentMethod ?? 'upi';
  const id = newId('pmt');
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertPaymentRequest(
        trx,
        {
          id,
          businessId: business.id,
          referenceId: reference.id,
          paymentReference: reference.reference,
          method,
          utr,
          amountPaise,
          packId: reference.packId,
          notes,
          submittedByUserId: user.id,
          submittedByLabel: user.email,
        },
        now,
      );
      await insertAuditEntry(
        trx,
        {
          actorUserId: user.id,
          actorLabel: user.email,
          action: 'payment.submitted',
          subjectType: 'payment_request',
          subjectId: id,
          details: { business_id: business.id, reference: reference.reference, utr, amount_paise: amountPaise, method },
        },
        now,
      );
    });
  } catch (err) {
    // Two submissions racing past the checks above: the unique indexes let exactly one in.
    if (isUniqueViolation(err)) {
      if (await repo.findPaymentRequestByUtr(ctx.db, business.id, utr)) throw utrTaken();
      const winner = await repo.findLiveRequestForReference(ctx.db, reference.id);
      if (winner) throw referenceTaken(winner.status);
    }
    throw err;
  }
  return toBusinessView((await repo.findPaymentRequest(ctx.db, id))!);
}

export async function listOwnPaymentRequests(ctx: AppContext, user: CurrentUser) {
  const business = await requireBusiness(ctx, user);
  const requests = await repo.listPaymentRequests(ctx.db, { businessId: business.id, limit: 100 });
  return requests.map(toBusinessView);
}

// --- notifications -----------------------------------------------------------------------------

function toNotificationView(n: repo.Notification) {
  return {
    id: n.id,
    kind: n.kind,
    title: n.title,
    message: n.message,
    subjectId: n.subjectId,
    read: n.readAt !== null,
    createdAt: n.createdAt.toISOString(),
    readAt: n.readAt?.toISOString() ?? null,
  };
}

export async function listNotifications(ctx: AppContext, user: CurrentUser) {
  const business = await requireBusiness(ctx, user);
  const [notifications, unreadCount] = await Promise.all([
    repo.listNotifications(ctx.db, business.id, 50),
    repo.countUnreadNotifications(ctx.db, business.id),
  ]);
  return { unreadCount, notifications: notifications.map(toNotificationView) };
}

export async function markNotificationRead(ctx: AppContext, user: CurrentUser, id: string, now = new Date()) {
  const business = await requireBusiness(ctx, user);
  const notification = await repo.markNotificationRead(ctx.db, business.id, id, now);
  if (!notification) throw new AppError('not_found', 'No such notification.');
  return toNotificationView(notification);
}

/** Wording shared by the desk and the checkout for what a credited amount buys. */
export function creditedText(amountPaise: number): string {
  return `${formatRupees(amountPaise)} added: ${formatCountIndian(verificationsForPaise(amountPaise))} verifications.`;
}
