import { indianFinancialYear, splitGst } from '@common/gst';
import { paiseToDecimalString, verificationsForPaise } from '@common/pricing';
import type { Transaction } from 'kysely';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { CurrentUser } from '../auth/service';
import { insertAuditEntry } from '../audit/repo';
import { requireBusiness } from '../business/service';
import { listPaymentRequests } from '../payments/repo';
import { PAYMENT_METHOD_LABEL } from '../payments/service';
import { renderReceiptPdf } from './pdf';
import * as repo from './repo';

/**
 * Receipts (issue 22, item 3). Every credited payment gets one, in the transaction that credits
 * it, numbered in one gap-free series per Indian financial year: SD/2026-27/000123.
 */

export const RECEIPT_PREFIX = 'SD';

export function receiptNumber(financialYear: string, sequence: number): string {
  return `${RECEIPT_PREFIX}/${financialYear}/${String(sequence).padStart(6, '0')}`;
}

export interface IssueReceiptInput {
  /** the payee and its GST registration at issue time (ctx.config) */
  config: Pick<Config, 'payee' | 'gst'>;
  businessId: string;
  /** the ledger credit this receipt documents (one receipt per credit) */
  ledgerEntryId: string;
  /** what was paid: `payment_request` (bank/UPI), `razorpay_order` (card/UPI checkout), … and its id */
  payment: { kind: string; id: string };
  /** `upi`, `bank_transfer`, `razorpay`, … and how the receipt names it */
  method: string;
  methodLabel: string;
  /** the reference the business quoted or was given (SD… reference, Razorpay order id) */
  paymentReference: string;
  /** the bank's UTR or the gateway's payment id */
  transactionId: string | null;
  amountPaise: number;
  issuedAt: Date;
}

/**
 * Issues the receipt of a credited payment INSIDE the crediting transaction: if the credit rolls
 * back, so do the receipt and its number. The buyer's details and the payee are copied in, so
 * later edits never change an issued receipt. Every code path that credits a payment calls this.
 */
export async function issueReceipt(trx: Transaction<Database>, input: IssueReceiptInput): Promise<repo.Receipt> {
  const buyer = await repo.buyerNow(trx, input.businessId);
  const financialYear = indianFinancialYear(input.issuedAt);
  const sequence = await repo.takeNextSequence(trx, financialYear);
  const gst = input.config.gst;
  const tax = splitGst({ amountPaise: input.amountPaise, payeeState: gst?.state, buyerState: buyer.billing_state });
  const payee = input.config.payee;
  const receipt: repo.Receipt = {
    id: newId('rct'),
    businessId: input.businessId,
    number: receiptNumber(financialYear, sequence),
    financialYear,
    sequence,
    ledgerEntryId: input.ledgerEntryId,
    paymentKind: input.payment.kind,
    paymentId: input.payment.id,
    method: input.method,
    methodLabel: input.methodLabel,
    paymentReference: input.paymentReference,
    transactionId: input.transactionId,
    amountPaise: input.amountPaise,
    creditsAdded: verificationsForPaise(input.amountPaise),
    buyer: { name: buyer.company_name, email: buyer.email, address: buyer.billing_address, state: buyer.billing_state, gstin: buyer.gstin },
    payee: {
      name: payee.name,
      details: gst ? gst.address : [payee.bankDetails, `UPI ${payee.upiId}`].filter(Boolean).join(' · '),
      gstin: gst?.gstin ?? null,
      state: gst?.state ?? null,
    },
    sac: gst?.sac ?? null,
    taxablePaise: tax.taxablePaise,
    cgstPaise: tax.cgstPaise,
    sgstPaise: tax.sgstPaise,
    igstPaise: tax.igstPaise,
    issuedAt: input.issuedAt,
  };
  await repo.insertReceipt(trx, receipt);
  return receipt;
}

export function receiptFileName(receipt: Pick<repo.Receipt, 'number'>): string {
  return `sixdigit-receipt-${receipt.number.replaceAll('/', '-')}.pdf`;
}

/** The receipt's PDF, for its business's owner only: another business's receipt is a 404. */
export async function receiptPdf(ctx: AppContext, user: CurrentUser, id: string): Promise<{ fileName: string; pdf: Uint8Array }> {
  const business = await requireBusiness(ctx, user);
  const receipt = await repo.findReceipt(ctx.db, id, business.id);
  if (!receipt) throw new AppError('not_found', 'No such receipt.');
  return { fileName: receiptFileName(receipt), pdf: await renderReceiptPdf(receipt) };
}

const HISTORY_LIMIT = 100;

/**
 * The business's payment history, newest first: its bank/UPI claims in every state (pending,
 * approved, rejected) and every other credited payment (card checkout, auto-refill charges),
 * each with its receipt once credited.
 */
export async function paymentHistory(ctx: AppContext, user: CurrentUser) {
  const business = await requireBusiness(ctx, user);
  const [requests, receipts] = await Promise.all([
    listPaymentRequests(ctx.db, { businessId: business.id, limit: HISTORY_LIMIT }),
    repo.listReceipts(ctx.db, business.id, HISTORY_LIMIT),
  ]);
  const receiptOfRequest = new Map(receipts.filter((r) => r.paymentKind === 'payment_request').map((r) => [r.paymentId, r]));
  const rows = [
    ...requests.map((r) => {
      const receipt = receiptOfRequest.get(r.id);
      return {
        id: r.id,
        date: (r.processedAt && r.status === 'approved' ? r.processedAt : r.createdAt).toISOString(),
        amount: paiseToDecimalString(r.amountPaise),
        method: PAYMENT_METHOD_LABEL[r.method],
        reference: r.paymentReference,
        transactionId: r.utr,
        status: r.status,
        receipt: receipt ? { id: receipt.id, number: receipt.number } : null,
      };
    }),
    ...receipts
      .filter((r) => r.paymentKind !== 'payment_request')
      .map((r) => ({
        id: r.paymentId,
        date: r.issuedAt.toISOString(),
        amount: paiseToDecimalString(r.amountPaise),
        method: r.methodLabel,
        reference: r.paymentReference,
        transactionId: r.transactionId,
        // a gateway payment is listed once it is paid (and so credited)
        status: 'paid' as const,
        receipt: { id: r.id, number: r.number },
      })),
  ];
  return rows.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)).slice(0, HISTORY_LIMIT);
}

// --- the buyer's billing details -------------------------------------------------------------------

export async function billingDetails(ctx: AppContext, user: CurrentUser) {
  const business = await requireBusiness(ctx, user);
  return { ...(await repo.findBilling(ctx.db, business.id)), taxInvoices: ctx.config.gst !== undefined };
}

/**
 * Saves the details the next receipts are made out to (issued ones keep theirs). The body was
 * validated by the contract (GSTIN checksum, state code, the GSTIN's state); a GSTIN without a
 * state takes the GSTIN's.
 */
export async function updateBillingDetails(ctx: AppContext, user: CurrentUser, body: repo.BillingDetails, now = new Date()) {
  const business = await requireBusiness(ctx, user);
  const billingState = body.billingState ?? (body.gstin ? body.gstin.slice(0, 2) : null);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateBilling(trx, business.id, { ...body, billingState }, now);
    await insertAuditEntry(
      trx,
      {
        actorUserId: user.id,
        actorLabel: user.email,
        action: 'business.billing_updated',
        subjectType: 'business',
        subjectId: business.id,
        details: { gstin: body.gstin, billing_state: billingState, address_set: body.billingAddress !== null },
      },
      now,
    );
  });
  return billingDetails(ctx, user);
}
