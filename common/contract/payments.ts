/** Buying credits, business side (/api/business/{payment-config,static-qr-options,payment-requests,notifications,create-order,verify-payment}). */
import { z } from 'zod';
import { isoDateTime, rupees, storableText } from './shared';

/** An amount as the payer typed it: rupees, a number or a decimal string. */
const rupeesInput = z.union([z.number(), z.string().max(20)]);

export const PaymentConfig = z.object({
  razorpay: z.boolean(),
  razorpayKeyId: z.string().nullable(),
  bankQr: z.boolean(),
  demo: z.boolean(),
  minimumAmount: rupees,
  referenceValidDays: z.number(),
});
export type PaymentConfig = z.infer<typeof PaymentConfig>;

/** One bank/UPI QR option (one per top-up pack), with a fresh reference. */
export const QrOption = z.object({
  packId: z.string(),
  packName: z.string(),
  amount: rupees,
  verifications: z.number().int(),
  qrCodeImageUrl: z.string(),
  upiUri: z.string(),
  upiId: z.string(),
  merchantName: z.string(),
  bankAccountDetails: z.string().nullable(),
  verificationCode: z.string(),
  paymentReference: z.string(),
  expiresAt: isoDateTime,
  demo: z.boolean(),
});
export type QrOption = z.infer<typeof QrOption>;
/** Keyed option1 … optionN in pack order. */
export const QrOptions = z.record(z.string(), QrOption);
export type QrOptions = z.infer<typeof QrOptions>;

export const PaymentRequestBody = z.object({
  paymentReference: z.string().max(40),
  utr: z.string().max(40),
  amount: rupeesInput,
  notes: storableText().max(500).optional(),
  paymentMethod: z.enum(['upi', 'bank_transfer']).optional(),
});
export type PaymentRequestInput = z.input<typeof PaymentRequestBody>;

export const PaymentRequest = z.object({
  id: z.string(),
  paymentReference: z.string(),
  utr: z.string(),
  amount: rupees,
  packId: z.string().nullable(),
  verifications: z.number().int().nullable(),
  /** the method's label, e.g. "UPI" */
  paymentMethod: z.string(),
  method: z.string(),
  /** pending | approved | rejected */
  status: z.string(),
  reason: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: isoDateTime,
  processedAt: isoDateTime.nullable(),
});
export type PaymentRequest = z.infer<typeof PaymentRequest>;
export type PaymentStatus = PaymentRequest['status'];

export const PaymentNotification = z.object({
  id: z.string(),
  /** payment.approved | payment.rejected */
  kind: z.string(),
  title: z.string(),
  message: z.string(),
  subjectId: z.string().nullable(),
  read: z.boolean(),
  createdAt: isoDateTime,
  readAt: isoDateTime.nullable(),
});
export type PaymentNotification = z.infer<typeof PaymentNotification>;

export const NotificationList = z.object({ unreadCount: z.number().int(), notifications: z.array(PaymentNotification) });
export type NotificationList = z.infer<typeof NotificationList>;
export const NotificationIdParams = z.object({ id: z.string().min(1).max(40) });

export const CreateOrderBody = z.object({ amount: rupeesInput });
export const RazorpayOrder = z.object({
  id: z.string(),
  /** paise, as Razorpay's checkout expects it */
  amount: z.number().int(),
  currency: z.string(),
  keyId: z.string(),
  packId: z.string(),
  description: z.string(),
});
export type RazorpayOrder = z.infer<typeof RazorpayOrder>;

/** What Razorpay's checkout hands the browser, posted back as is. */
export const VerifyPaymentBody = z.object({
  razorpay_order_id: z.string().regex(/^order_[A-Za-z0-9]{1,50}$/, 'not a Razorpay order id'),
  razorpay_payment_id: z.string().regex(/^pay_[A-Za-z0-9]{1,50}$/, 'not a Razorpay payment id'),
  razorpay_signature: z.string().max(200),
});
export type RazorpayResult = z.infer<typeof VerifyPaymentBody>;

export const VerifiedPayment = z.object({
  status: z.literal('paid'),
  credited: z.boolean(),
  orderId: z.string(),
  paymentId: z.string(),
  amount: rupees,
  balance: rupees,
  verificationsLeft: z.number().int(),
});
export type VerifiedPayment = z.infer<typeof VerifiedPayment>;

/** GET /api/payments/methods: how credits can be bought here (public; no secrets). */
export const PaymentMethodsResponse = z.object({
  currency: z.literal('INR'),
  /** rupees, e.g. "0.10" */
  pricePerVerification: z.string(),
  /** rupees, e.g. "100.00" */
  minimumAmount: z.string(),
  packs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      amount: z.string(),
      verifications: z.number().int(),
      popular: z.boolean(),
      description: z.string(),
    }),
  ),
  bankTransfer: z.object({
    /** false on a production server that still has only the demo payee */
    available: z.boolean(),
    demo: z.boolean(),
    payee: z.object({ upiId: z.string(), name: z.string(), bankDetails: z.string().nullable() }).nullable(),
    referenceValidDays: z.number().int(),
  }),
  card: z.object({ available: z.boolean() }),
  /** what auto-refill does here: charge a saved card/UPI mandate, send a bank/UPI request, or nothing */
  autoRefill: z.object({ mode: z.enum(['razorpay', 'bank', 'unavailable']) }),
  review: z.object({
    minHours: z.number().int(),
    maxHours: z.number().int(),
    days: z.string(),
    hours: z.string(),
    timeZone: z.string(),
  }),
});

export type PaymentMethods = z.infer<typeof PaymentMethodsResponse>;
