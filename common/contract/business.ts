/** The business dashboard's cookie API (/api/business/*): what the server answers and the web reads. */
import { z } from 'zod';
import { GSTIN_MESSAGES, gstinProblem, isGstStateCode, normaliseGstin } from '../gst';
import { isoDate, isoDateTime, rupees, storableText } from './shared';

/**
 * What auto-refill does on this installation: `razorpay` charges a saved card/UPI mandate,
 * `bank` issues a bank/UPI top-up request (reference + UPI QR) to pay, `unavailable` neither
 * (a production server without Razorpay and with the demo payee).
 */
export const AUTO_REFILL_MODES = ['razorpay', 'bank', 'unavailable'] as const;
export const AutoRefillMode = z.enum(AUTO_REFILL_MODES);
export type AutoRefillMode = z.infer<typeof AutoRefillMode>;

/** The saved Razorpay recurring token (customer + token), never the token itself. */
export const AutoRefillMandate = z.object({
  method: z.enum(['card', 'upi']),
  /** pending: the authorising payment is not confirmed yet; revoked: the bank or owner cancelled it */
  status: z.enum(['pending', 'active', 'revoked']),
  /** e.g. "Visa •••• 1111" or the UPI id, as Razorpay describes it */
  label: z.string().nullable(),
  maxAmount: rupees,
});

/** The bank/UPI top-up request an open refill waits on: what to pay and how. */
export const AutoRefillRequest = z.object({
  paymentReference: z.string(),
  verificationCode: z.string(),
  amount: rupees,
  upiUri: z.string(),
  qrCodeImageUrl: z.string(),
  upiId: z.string(),
  merchantName: z.string(),
  expiresAt: isoDateTime,
});

/** The latest refill a crossing started (in flight or finished). */
export const AutoRefillRun = z.object({
  id: z.string(),
  /** due | charging | open | credited | failed | expired */
  status: z.string(),
  packId: z.string(),
  amount: rupees,
  failureReason: z.string().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  request: AutoRefillRequest.nullable(),
});

/** Which data a dashboard view reads, and which key a regeneration replaces: live unless asked. */
export const API_MODES = ['live', 'test'] as const;
export type ApiMode = (typeof API_MODES)[number];
export const ModeQuery = z.object({ mode: z.enum(API_MODES).default('live') });
export type ModeQuery = z.infer<typeof ModeQuery>;

export const AutoRefillSettings = z.object({
  enabled: z.boolean(),
  thresholdPaise: z.number().int().nullable(),
  packId: z.string().nullable(),
  mode: AutoRefillMode,
  /** why the server switched auto-refill off (a failed charge), until the owner turns it on again */
  offReason: z.string().nullable(),
  offAt: isoDateTime.nullable(),
  mandate: AutoRefillMandate.nullable(),
  lastRefill: AutoRefillRun.nullable(),
});
export type AutoRefillSettings = z.infer<typeof AutoRefillSettings>;

export const BusinessProfile = z.object({
  id: z.string(),
  companyName: z.string(),
  balance: rupees,
  balancePaise: z.number().int(),
  credits: z.number().int(),
  verificationsLeft: z.number().int(),
  lowBalance: z.boolean(),
  rateLimitPerMinute: z.number().int(),
  apiKeyPrefix: z.string().nullable(),
  apiKeyCreatedAt: isoDateTime.nullable(),
  apiKeyLastUsedAt: isoDateTime.nullable(),
  /** the test key (sk_test_…): free calls, data kept apart from live; null until one is made */
  testApiKeyPrefix: z.string().nullable(),
  testApiKeyCreatedAt: isoDateTime.nullable(),
  testApiKeyLastUsedAt: isoDateTime.nullable(),
  /** calls a minute allowed to the test key */
  testRateLimitPerMinute: z.number().int(),
  autoRefill: AutoRefillSettings,
  createdAt: isoDateTime,
});
export type BusinessProfile = z.infer<typeof BusinessProfile>;

export const CreateBusinessBody = z.object({ companyName: storableText().max(200) });
/** POST /api/business/create answers the profile plus both full keys, each shown once. */
export const CreatedBusiness = BusinessProfile.extend({ apiKey: z.string(), testApiKey: z.string() });
export type CreatedBusiness = z.infer<typeof CreatedBusiness>;

export const VERIFICATION_STATUSES = ['verified', 'invalid_code', 'expired', 'replayed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const RecentVerification = z.object({
  id: z.string(),
  isVerified: z.boolean(),
  /** one of VERIFICATION_STATUSES; kept open so a new status does not fail the answer */
  status: z.string(),
  userId: z.string().nullable(),
  purpose: z.string().nullable(),
  createdAt: isoDateTime,
  responseTime: z.number().nullable(),
  cost: rupees,
});
export type RecentVerification = z.infer<typeof RecentVerification>;

export const DailyCount = z.object({
  /** YYYY-MM-DD (UTC day) */
  date: z.string(),
  total: z.number().int(),
  verified: z.number().int(),
  failed: z.number().int(),
});
export type DailyCount = z.infer<typeof DailyCount>;

export const BusinessDashboard = z.object({
  stats: z.object({
    today: z.object({ totalRequests: z.number(), successRate: z.number(), avgResponseTime: z.number(), failedVerifications: z.number() }),
    month: z.object({ totalRequests: z.number(), successfulVerifications: z.number(), totalCost: rupees, avgResponseTime: z.number() }),
    daily: z.array(DailyCount),
  }),
  recentVerifications: z.array(RecentVerification),
  /** which mode's data these are */
  mode: z.enum(API_MODES),
});
export type BusinessDashboard = z.infer<typeof BusinessDashboard>;

export const RegeneratedKey = z.object({ apiKey: z.string(), prefix: z.string(), mode: z.enum(API_MODES) });
export type RegeneratedKey = z.infer<typeof RegeneratedKey>;

export const AutoRefillBody = z.object({
  enabled: z.boolean(),
  thresholdRupees: z.number().int().min(100).max(10_000_000),
  packId: z.string().max(40),
});
export type AutoRefillBody = z.infer<typeof AutoRefillBody>;

/** Start saving a card or UPI mandate: the first payment (the chosen pack) authorises the token. */
export const MandateBody = AutoRefillBody.omit({ enabled: true }).extend({ method: z.enum(['card', 'upi']) });
export type MandateBody = z.infer<typeof MandateBody>;

/** What Razorpay's checkout needs for the authorising payment (`recurring: "1"`). */
export const MandateOrder = z.object({
  orderId: z.string(),
  customerId: z.string(),
  /** paise, as Razorpay's checkout expects it */
  amount: z.number().int(),
  currency: z.literal('INR'),
  keyId: z.string(),
  method: z.enum(['card', 'upi']),
  packId: z.string(),
  description: z.string(),
});
export type MandateOrder = z.infer<typeof MandateOrder>;

/** Razorpay checkout's signed result for the authorising payment. */
export const MandateConfirmBody = z.object({
  razorpay_order_id: z.string().regex(/^order_[A-Za-z0-9]{1,50}$/),
  razorpay_payment_id: z.string().regex(/^pay_[A-Za-z0-9]{1,50}$/),
  razorpay_signature: z.string().regex(/^[a-f0-9]{64}$/i),
});
export type MandateConfirmBody = z.infer<typeof MandateConfirmBody>;

export const LedgerEntry = z.object({
  id: z.string(),
  amount: rupees,
  /** top_up | grant | refund | adjustment */
  kind: z.string(),
  reference: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: isoDateTime,
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const UsageCsvQuery = z.object({ from: isoDate, to: isoDate, mode: z.enum(API_MODES).default('live') });

// --- billing details and receipts (issue 22, item 3) ---------------------------------------------

/** The buyer's details printed on receipts and tax invoices. */
export const BillingDetails = z.object({
  /** the name receipts are made out to */
  companyName: z.string(),
  gstin: z.string().nullable(),
  /** GST state code, e.g. "29" (Karnataka): decides CGST+SGST or IGST on a tax invoice */
  billingState: z.string().nullable(),
  billingAddress: z.string().nullable(),
  /** true when the payee is GST-registered: receipts are tax invoices */
  taxInvoices: z.boolean(),
});
export type BillingDetails = z.infer<typeof BillingDetails>;

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/**
 * PUT /api/business/billing. A GSTIN is checked to the check character (common/gst.ts); its first
 * two digits are the state, so a different billing state is refused and a missing one is taken
 * from it.
 */
export const BillingBody = z
  .object({
    gstin: z.preprocess(
      (v) => (typeof v === 'string' ? normaliseGstin(v) || null : v),
      z
        .string()
        .max(15, GSTIN_MESSAGES.format)
        .superRefine((v, check) => {
          const problem = gstinProblem(v);
          if (problem) check.addIssue({ code: 'custom', message: GSTIN_MESSAGES[problem] });
        })
        .nullable(),
    ),
    billingState: z.preprocess(blankToNull, z.string().refine(isGstStateCode, 'Choose a state from the list.').nullable()),
    billingAddress: z.preprocess(
      // one line on the receipt: "Plot 4,\nAndheri East" → "Plot 4, Andheri East"
      (v) => (typeof v === 'string' ? v.split('\n').map((line) => line.trim().replace(/,$/, '')).filter(Boolean).join(', ') || null : v),
      storableText().max(300, 'The address can be at most 300 characters.').nullable(),
    ),
  })
  .refine((b) => !b.gstin || !b.billingState || b.gstin.slice(0, 2) === b.billingState, {
    message: 'The billing state must be the GSTIN’s state (its first two digits).',
    path: ['billingState'],
  });
export type BillingBody = z.input<typeof BillingBody>;

export const PAYMENT_STATUSES = ['pending', 'approved', 'rejected', 'paid'] as const;

/** One row of GET /api/business/payments: a bank/UPI claim (any state) or a gateway payment. */
export const PaymentHistoryEntry = z.object({
  id: z.string(),
  date: isoDateTime,
  amount: rupees,
  method: z.string(),
  reference: z.string(),
  /** the UTR quoted, or the gateway's payment id */
  transactionId: z.string().nullable(),
  status: z.enum(PAYMENT_STATUSES),
  /** set once the payment is credited */
  receipt: z.object({ id: z.string(), number: z.string() }).nullable(),
});
export type PaymentHistoryEntry = z.infer<typeof PaymentHistoryEntry>;
export const PaymentHistory = z.array(PaymentHistoryEntry);

export const ReceiptParams = z.object({ id: z.string().regex(/^rct_[A-Za-z0-9_-]{1,60}$/, 'not a receipt id') });
