/** The financial manager's desk (/api/financial/*; the contact-message routes are in ./contact). */
import { z } from 'zod';
import { isoDateTime, rupees, storableText } from './shared';

/** Another claim quoting the same UTR (usually another business's): only one can ever be approved. */
export const DuplicateUtrClaim = z.object({
  id: z.string(),
  businessId: z.string(),
  companyName: z.string(),
  /** pending | approved | rejected */
  status: z.string(),
});
export type DuplicateUtrClaim = z.infer<typeof DuplicateUtrClaim>;

export const DeskPayment = z.object({
  id: z.string(),
  businessId: z.string(),
  companyName: z.string(),
  businessEmail: z.string().nullable(),
  paymentMethod: z.string(),
  amount: rupees,
  packId: z.string().nullable(),
  paymentReference: z.string(),
  verificationCode: z.string().nullable(),
  utr: z.string(),
  notes: z.string().nullable(),
  /** where the money should have arrived, as shown to the payer */
  bankAccountDetails: z.string(),
  /** pending | approved | rejected */
  status: z.string(),
  reason: z.string().nullable(),
  decisionNotes: z.string().nullable(),
  processedBy: z.string().nullable(),
  processedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  /** other claims on this UTR: the desk decides which business really paid */
  duplicateUtr: z.array(DuplicateUtrClaim).optional(),
});
export type DeskPayment = z.infer<typeof DeskPayment>;

/** An approval also answers the business's balance after the credit. */
export const ApprovedPayment = DeskPayment.extend({ balance: rupees });
export type ApprovedPayment = z.infer<typeof ApprovedPayment>;

export const DeskStats = z.object({
  pendingApprovals: z.number().int(),
  /** contact messages not closed yet (open, with Luna, or escalated) */
  openMessages: z.number().int(),
  todayApprovals: z.number().int(),
  /** the rupees waiting for a decision */
  totalAmount: rupees,
  todayApprovedAmount: rupees,
});
export type DeskStats = z.infer<typeof DeskStats>;

export const PaymentRequestIdParams = z.object({ id: z.string().min(1).max(40) });
export const RecentQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(5) });
export const ApproveBody = z.object({ notes: storableText().max(1000).optional() }).nullish();
// A missing or blank reason reaches the service, which answers the one "reason required" message.
export const RejectBody = z.object({ reason: storableText().max(500).optional() }).nullish();
