/** Webhook management for the business dashboard (/api/webhooks*, session cookie). */
import { z } from 'zod';
import { API_MODES } from './business';
import { isoDateTime, storableText } from './shared';

export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  /** the owner's note on what the endpoint is for; set in the dashboard or through the public API */
  description: z.string().nullable(),
  isActive: z.boolean(),
  /** why the server switched it off (e.g. the endpoint answered 410 Gone), if it did */
  disabledReason: z.string().nullable(),
  /** when the server switched it off; null when on or paused by the owner */
  disabledAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  lastTriggered: isoDateTime.nullable(),
  /** false: a test endpoint, sent only the events of the test key (sk_test_…) */
  livemode: z.boolean(),
});
export type Webhook = z.infer<typeof Webhook>;

export const CreateWebhookBody = z.object({
  // Missing url/events fall through to the service, which answers SPEC §5's message.
  url: z.string().max(2048).default(''),
  events: z.array(z.string().max(40)).max(10).default([]),
  secret: z.string().max(200).optional(),
  /** the owner's note on what the endpoint is for (the API's `description`; blank clears) */
  description: storableText().max(500).optional(),
  /** false makes a test endpoint (the dashboard's Test switch); live by default */
  livemode: z.boolean().default(true),
});
/** What the web sends (before the defaults above are applied). */
export type CreateWebhookInput = z.input<typeof CreateWebhookBody>;

/** POST /api/webhooks answers the webhook plus its signing secret, shown this once. */
export const CreatedWebhook = Webhook.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WebhookIdParams = z.object({ id: z.string().min(1).max(40) });
export const ToggleWebhookBody = z.object({ isActive: z.boolean() });
export const TestEventQueued = z.object({ queued: z.boolean() });
export type TestEventQueued = z.infer<typeof TestEventQueued>;

export const DeliveryParams = z.object({ id: z.string().min(1).max(40) });

/** POST /api/webhooks/logs/:id/resend: the same delivery queued again (so the same webhook-id). */
export const ResendResponse = z.object({
  queued: z.literal(true),
  /** also the `webhook-id` header the receiver sees again */
  deliveryId: z.string(),
  webhookId: z.string(),
});
export type ResendResponse = z.infer<typeof ResendResponse>;

export const WebhookLogsQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).optional(), mode: z.enum(API_MODES).default('live') });

export const WebhookLogEntry = z.object({
  id: z.string(),
  deliveryId: z.string(),
  event: z.string(),
  webhookId: z.string(),
  webhookUrl: z.string(),
  verificationId: z.string().nullable(),
  /** HTTP status of this attempt; null while pending (or when no answer came) */
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  retryCount: z.number().int(),
  attemptNumber: z.number().int(),
  /** milliseconds */
  responseTime: z.number().nullable(),
  createdAt: isoDateTime,
  /** pending | delivering | succeeded | exhausted | cancelled */
  deliveryStatus: z.string(),
});
export type WebhookLogEntry = z.infer<typeof WebhookLogEntry>;
