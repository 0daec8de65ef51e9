import type { Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import { AppError, type ErrorDetail } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { CurrentUser } from '../auth/service';
import type { Business } from '../business/repo';
import { requireBusiness } from '../business/service';
import { TEST_EVENT, WEBHOOK_EVENTS, enqueueEvent } from './events';
import * as repo from './repo';
import { newWebhookSecret, secretKey } from './signing';
import { UnsafeUrlError, assertSafeWebhookUrl } from './url-guard';
import { webhookSecretContext } from './worker';
import { withIdempotency } from '../verify/service';

/**
 * Webhook endpoints, one set of rules for both doors: the dashboard (/api/webhooks, a signed-in
 * owner) and the public API (/api/v1/webhook_endpoints, an API key). The same address guard,
 * event list, per-business limit and delivery log whichever way an endpoint is managed.
 */

export const MAX_WEBHOOKS_PER_BUSINESS = 10;

/**
 * Whose endpoints a call manages. The dashboard resolves it from the signed-in owner, the API
 * from the key (`ownerOfApiKey`): what a key carries besides its business (its mode, for test
 * mode) is added here and in that one function, and reaches every rule below.
 */
export interface EndpointOwner {
  businessId: string;
  /**
   * The key's mode: a test key (false) manages only test endpoints, a live key only live ones.
   * null: the dashboard's signed-in owner, who manages both by id (lists ask for one mode).
   */
  livemode: boolean | null;
}

export async function ownerOfUser(ctx: AppContext, user: CurrentUser): Promise<EndpointOwner> {
  const business = await requireBusiness(ctx, user);
  return { businessId: business.id, livemode: null };
}

export function ownerOfApiKey(business: Pick<Business, 'id'>, livemode: boolean): EndpointOwner {
  return { businessId: business.id, livemode };
}

/** Which mode's endpoints a list shows: the key's own, or (dashboard) the one asked for. */
function modeOf(owner: EndpointOwner, asked: boolean | undefined): boolean {
  return owner.livemode ?? asked ?? true;
}

function refused(path: string, message: string): AppError {
  return new AppError('validation_failed', message, {}, [{ path, message }]);
}

/** The events list as sent: known events only, at least one, duplicates dropped. */
function checkedEvents(events: string[]): string[] {
  const unique = [...new Set(events)];
  if (unique.length === 0) throw refused('events', 'Select at least one event.');
  const unknown = unique.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length > 0) throw refused('events', `Unknown event(s): ${unknown.join(', ')}. Events: ${WEBHOOK_EVENTS.join(', ')}.`);
  return unique;
}

/** The address guard (url-guard.ts): public http(s) only, https in production, checked when saved. */
async function checkedUrl(ctx: AppContext, raw: string): Promise<string> {
  const url = raw.trim();
  if (!url) throw refused('url', 'Provide the URL events are sent to.');
  try {
    await assertSafeWebhookUrl(url, { allowPrivate: ctx.config.webhookAllowPrivate, requireHttps: ctx.config.isProduction });
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw refused('url', err.message);
    throw err;
  }
  return url;
}

function checkedDescription(description: string | null | undefined): string | null | undefined {
  if (description === undefined || description === null) return description;
  const trimmed = description.trim();
  return trimmed === '' ? null : trimmed;
}

export interface NewEndpoint {
  url: string;
  events: string[];
  description?: string | null | undefined;
  /** the dashboard lets the owner bring one; the API always generates it */
  secret?: string | undefined;
  /** the dashboard's Live/Test switch; an API key always makes endpoints of its own mode */
  livemode?: boolean | undefined;
}

/**
 * Creates an endpoint and answers it with its signing secret, shown this once: afterwards only the
 * receiver and our encrypted copy have it. `remember` runs inside the insert's transaction (the
 * API's Idempotency-Key stores its answer there, so the answer and the endpoint commit together).
 */
export async function createEndpoint(
  ctx: AppContext,
  owner: EndpointOwner,
  input: NewEndpoint,
  now = new Date(),
  remember?: (trx: Transaction<Database>, created: repo.Webhook, secret: string) => Promise<void>,
): Promise<{ webhook: repo.Webhook; secret: string }> {
  const missing: ErrorDetail[] = [
    ...(input.url.trim() ? [] : [{ path: 'url', message: 'Provide the URL events are sent to.' }]),
    ...(input.events.length > 0 ? [] : [{ path: 'events', message: 'Select at least one event.' }]),
  ];
  // SPEC §5's wording (the dashboard's form shows it), with the fields named for API clients.
  if (missing.length > 0) throw new AppError('validation_failed', 'Validation Error: Please provide a URL and select at least one event.', {}, missing);
  const events = checkedEvents(input.events);
  const url = await checkedUrl(ctx, input.url);
  const secret = input.secret?.trim() || newWebhookSecret();
  if (!secretKey(secret)) {
    throw refused('secret', 'The secret must look like whsec_ followed by 16–64 base64-encoded bytes, or be left empty to generate one.');
  }
  const id = newId('wh');
  const webhook = await ctx.db.transaction().execute(async (trx) => {
    await repo.lockBusinessEndpoints(trx, owner.businessId);
    if ((await repo.countWebhooks(trx, owner.businessId)) >= MAX_WEBHOOKS_PER_BUSINESS) {
      throw new AppError('conflict', `A business can have at most ${MAX_WEBHOOKS_PER_BUSINESS} webhook endpoints. Delete one first.`);
    }
    await repo.insertWebhook(trx, {
      id,
      businessId: owner.businessId,
      url,
      events,
      description: checkedDescription(input.description) ?? null,
      secretEnc: ctx.secrets.encrypt(secret, webhookSecretContext(id)),
      isActive: true,
      createdAt: now,
      livemode: modeOf(owner, input.livemode),
    });
    const created = (await repo.findWebhook(trx, owner.businessId, id))!;
    await remember?.(trx, created, secret);
    return created;
  });
  return { webhook, secret };
}

/** One endpoint of the owner's; another business's id is answered exactly like a missing one. */
export async function getEndpoint(ctx: AppContext, owner: EndpointOwner, id: string): Promise<repo.Webhook> {
  const webhook = await repo.findWebhook(ctx.db, owner.businessId, id);
  // The other mode's endpoint is answered exactly like a missing one.
  if (!webhook || (owner.livemode !== null && webhook.livemode !== owner.livemode)) throw new AppError('not_found', `No webhook endpoint "${id}".`);
  return webhook;
}

/** Every endpoint of the owner's, newest first (at most MAX_WEBHOOKS_PER_BUSINESS). */
export async function listEndpoints(ctx: AppContext, owner: EndpointOwner, livemode?: boolean): Promise<repo.Webhook[]> {
  return repo.listWebhooks(ctx.db, owner.businessId, modeOf(owner, livemode));
}

/** A page of the owner's endpoints, newest first, after `startingAfter` (one of theirs, or 404). */
export async function listEndpointsPage(ctx: AppContext, owner: EndpointOwner, input: { limit: number; starting_after?: string | undefined }) {
  const after = input.starting_after === undefined ? undefined : await getEndpoint(ctx, owner, input.starting_after).catch(() => undefined);
  if (input.starting_after !== undefined && !after) throw new AppError('not_found', `No webhook endpoint "${input.starting_after}" to start after.`);
  return repo.listWebhooksPage(ctx.db, owner.businessId, modeOf(owner, undefined), input.limit, after);
}

export interface EndpointChanges {
  url?: string | undefined;
  events?: string[] | undefined;
  description?: string | null | undefined;
  /** on clears a reason the server switched it off with (and the run of failures) */
  isActive?: boolean | undefined;
}

/** Changes an endpoint: the same checks as at creation for what changes; the secret never changes here. */
export async function updateEndpoint(ctx: AppContext, owner: EndpointOwner, id: string, changes: EndpointChanges, now = new Date()): Promise<repo.Webhook> {
  const current = await getEndpoint(ctx, owner, id);
  const events = changes.events === undefined ? undefined : checkedEvents(changes.events);
  const url = changes.url === undefined ? undefined : await checkedUrl(ctx, changes.url);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateWebhook(trx, owner.businessId, id, { url, events, description: checkedDescription(changes.description) });
    if (changes.isActive !== undefined && changes.isActive !== current.isActive) await repo.setWebhookActive(trx, id, changes.isActive, null, now);
  });
  return getEndpoint(ctx, owner, id);
}

export async function deleteEndpoint(ctx: AppContext, owner: EndpointOwner, id: string): Promise<void> {
  await getEndpoint(ctx, owner, id);
  if (!(await repo.deleteWebhook(ctx.db, owner.businessId, id))) throw new AppError('not_found', `No webhook endpoint "${id}".`);
}

/**
 * Queues a signed `test.ping` to one endpoint through the outbox, like any event: logged, retried,
 * and the answer names the delivery (the `webhook-id` the receiver sees).
 */
export async function sendTestEvent(
  ctx: AppContext,
  owner: EndpointOwner,
  id: string,
  now = new Date(),
  remember?: (trx: Transaction<Database>, deliveryId: string) => Promise<void>,
): Promise<{ deliveryId: string }> {
  const webhook = await getEndpoint(ctx, owner, id);
  if (!webhook.isActive) throw new AppError('conflict', 'Turn the webhook endpoint on before sending a test event.');
  return ctx.db.transaction().execute(async (trx) => {
    const [deliveryId] = await enqueueEvent(trx, owner.businessId, TEST_EVENT, { message: 'This is a test event from Sixdigit.', webhook_id: id }, now, {
      onlyWebhookId: id,
      livemode: webhook.livemode,
    });
    await remember?.(trx, deliveryId!);
    return { deliveryId: deliveryId! };
  });
}

/**
 * POST /webhook_endpoints/{id}/test: with an Idempotency-Key a retry (an SDK's, after a lost
 * answer) gets the first answer instead of a second ping; the key is stored in the ping's transaction.
 */
export async function sendTestEventForApi(ctx: AppContext, owner: EndpointOwner, id: string, idempotencyKey: string | undefined) {
  return withIdempotency(ctx, { id: owner.businessId }, owner.livemode ?? true, idempotencyKey, 'webhook_endpoints.test', { id }, async (remember) => {
    const answer = (deliveryId: string) => ({ statusCode: 202, body: { queued: true as const, delivery_id: deliveryId } });
    const { deliveryId } = await sendTestEvent(ctx, owner, id, new Date(), remember ? (trx, d) => remember(trx, answer(d)) : undefined);
    return answer(deliveryId);
  });
}

/** One endpoint's deliveries, newest first, each with its attempts (the delivery log, by endpoint). */
export async function listEndpointDeliveries(ctx: AppContext, owner: EndpointOwner, id: string, input: { limit: number; starting_after?: string | undefined }) {
  await getEndpoint(ctx, owner, id);
  const after = input.starting_after === undefined ? undefined : await repo.findEndpointDelivery(ctx.db, owner.businessId, id, input.starting_after);
  if (input.starting_after !== undefined && !after) throw new AppError('not_found', `No delivery "${input.starting_after}" of this endpoint to start after.`);
  return repo.listEndpointDeliveries(ctx.db, owner.businessId, id, input.limit, after);
}

// --- the dashboard's shapes (common/contract/webhooks.ts) ---------------------------------------

export function toView(w: repo.Webhook) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    isActive: w.isActive,
    disabledReason: w.disabledReason,
    disabledAt: w.disabledAt?.toISOString() ?? null,
    createdAt: w.createdAt.toISOString(),
    lastTriggered: w.lastTriggeredAt?.toISOString() ?? null,
    livemode: w.livemode,
  };
}

/** The delivery log of one mode's endpoints. */
export async function listLogs(ctx: AppContext, owner: EndpointOwner, limit = 100, livemode?: boolean) {
  const rows = await repo.listLogs(ctx.db, owner.businessId, modeOf(owner, livemode), limit);
  return rows.map((r) => ({
    id: r.id,
    deliveryId: r.deliveryId,
    event: r.event,
    webhookId: r.webhookId,
    webhookUrl: r.webhookUrl,
    verificationId: r.verificationId,
    responseStatus: r.responseStatus,
    error: r.error,
    retryCount: Math.max(0, r.attemptNumber - 1),
    attemptNumber: r.attemptNumber,
    responseTime: r.responseTime,
    createdAt: r.createdAt.toISOString(),
    deliveryStatus: r.deliveryStatus,
  }));
}

/**
 * Sends a logged delivery again: the same delivery (so the same `webhook-id`, and receivers can
 * dedupe), due now; the worker records a new attempt after the earlier ones.
 */
export async function resendDelivery(ctx: AppContext, owner: EndpointOwner, deliveryId: string, now = new Date()) {
  const delivery = await repo.findDelivery(ctx.db, owner.businessId, deliveryId);
  if (!delivery) throw new AppError('not_found', 'No such delivery.');
  if (!delivery.webhookActive) throw new AppError('conflict', 'Turn the webhook on before resending to it.');
  if (!(await repo.requeueDelivery(ctx.db, delivery.id, now))) {
    throw new AppError('conflict', 'This delivery is already queued or being sent.');
  }
  return { queued: true as const, deliveryId: delivery.id, webhookId: delivery.webhookId };
}


// --- the public API's shapes (schemas.v1.ts) -----------------------------------------------------

export function endpointObject(w: repo.Webhook) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    is_active: w.isActive,
    disabled_reason: w.disabledReason,
    disabled_at: w.disabledAt?.toISOString() ?? null,
    created_at: w.createdAt.toISOString(),
    last_triggered_at: w.lastTriggeredAt?.toISOString() ?? null,
    livemode: w.livemode,
  };
}

export function deliveryObject(d: repo.EndpointDelivery) {
  return {
    id: d.id,
    type: d.event,
    status: d.status,
    verification_id: d.verificationId,
    attempt_count: d.attemptCount,
    next_attempt_at: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    created_at: d.createdAt.toISOString(),
    attempts: d.attempts.map((a) => ({
      attempt_number: a.attemptNumber,
      status_code: a.statusCode,
      error: a.error,
      response_time_ms: a.responseTimeMs,
      created_at: a.createdAt.toISOString(),
    })),
  };
}

/**
 * POST /webhook_endpoints: the endpoint and its secret. With an Idempotency-Key a retry gets the
 * first answer (secret included, stored encrypted like every stored answer) instead of a second
 * endpoint; the same key with another body is a conflict.
 */
export async function createEndpointForApi(
  ctx: AppContext,
  owner: EndpointOwner,
  input: { url: string; events: string[]; description?: string | undefined },
  idempotencyKey: string | undefined,
) {
  return withIdempotency(ctx, { id: owner.businessId }, owner.livemode ?? true, idempotencyKey, 'webhook_endpoints.create', input, async (remember) => {
    const answer = (w: repo.Webhook, secret: string) => ({ statusCode: 201, body: { ...endpointObject(w), secret } });
    const { webhook, secret } = await createEndpoint(ctx, owner, input, new Date(), remember ? (trx, w, s) => remember(trx, answer(w, s)) : undefined);
    return answer(webhook, secret);
  });
}
