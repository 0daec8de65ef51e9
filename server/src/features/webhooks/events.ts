import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { newId } from '../../lib/ids';
import { insertDeliveries, subscribersOf } from './repo';

export const WEBHOOK_EVENTS = ['verification.success', 'verification.failed', 'credit.low', 'credit.depleted'] as const;
/** Sent on request to one endpoint (dashboard "Send test", POST /webhook_endpoints/{id}/test); never subscribed to. */
export const TEST_EVENT = 'test.ping';
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number] | typeof TEST_EVENT;

/**
 * The transactional outbox: called inside the transaction of the change that causes the event,
 * so the delivery rows commit (or vanish) with it and a crash in between cannot lose one.
 */
export async function enqueueEvent(
  trx: Transaction<Database> | Kysely<Database>,
  businessId: string,
  event: WebhookEvent,
  data: Record<string, unknown>,
  now: Date,
  options: { verificationId?: string | null; onlyWebhookId?: string; livemode?: boolean } = {},
): Promise<string[]> {
  // A test key's events reach only test endpoints, a live key's only live ones.
  const livemode = options.livemode ?? true;
  const targets = options.onlyWebhookId ? [options.onlyWebhookId] : await subscribersOf(trx, businessId, livemode, event);
  if (targets.length === 0) return [];
  const verificationId = options.verificationId ?? null;
  // `type` is Standard Webhooks' name for the event (`event` stays for existing receivers);
  // `livemode` is false for the events of a test key (and a test endpoint's test event).
  const body = JSON.stringify({ type: event, event, data, timestamp: now.toISOString(), verification_id: verificationId, livemode });
  const deliveries = targets.map((webhookId) => ({ id: newId('msg'), webhookId, businessId, event, payload: body, verificationId }));
  await insertDeliveries(trx, deliveries, now);
  // The delivery ids are the `webhook-id` header each endpoint will see.
  return deliveries.map((d) => d.id);
}
