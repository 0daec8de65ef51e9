import { z } from 'zod';

/** Request and response shapes of the webhook routes (cookie API). */
export const DeliveryParams = z.object({ id: z.string().min(1).max(40) });

export const ResendResponse = z.object({
  queued: z.literal(true),
  /** also the `webhook-id` header the receiver sees again */
  deliveryId: z.string(),
  webhookId: z.string(),
});
export type ResendResponse = z.infer<typeof ResendResponse>;
