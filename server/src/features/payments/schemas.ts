import { z } from 'zod';

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
  review: z.object({
    minHours: z.number().int(),
    maxHours: z.number().int(),
    days: z.string(),
    hours: z.string(),
    timeZone: z.string(),
  }),
});

export type PaymentMethodsResponse = z.infer<typeof PaymentMethodsResponse>;
