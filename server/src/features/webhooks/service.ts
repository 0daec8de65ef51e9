import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { CurrentUser } from '../auth/service';
import { requireBusiness } from '../business/service';
import { WEBHOOK_EVENTS, enqueueEvent } from './events';
import * as repo from './repo';
import { newWebhookSecret, secretKey } from './signing';
import { UnsafeUrlError, assertSafeWebhookUrl } from './url-guard';
import { webhookSecretContext } from './worker';

export const MAX_WEBHOOKS_PER_BUSINESS = 10;

function toView(w: repo.Webhook) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    isActive: w.isActive,
    disabledReason: w.disabledReason,
    disabledAt: w.disabledAt?.toISOString() ?? null,
    createdAt: w.createdAt.toISOString(),
    lastTriggered: w.lastTriggeredAt?.toISOString() ?? null,
    livemode: w.livemode,
  };
}

/** One mode's endpoints: live ones hear live keys' events, test ones test keys'. */
export async function listWebhooks(ctx: AppContext, user: CurrentUser, livemode = true) {
  const business = await requireBusiness(ctx, user);
  return (await repo.listWebhooks(ctx.db, business.id, livemode)).map(toView);
}

export async function createWebhook(
  ctx: AppContext,
  user: CurrentUser,
  input: { url: string; events: string[]; secret?: string | undefined; livemode?: boolean | undefined },
  now = new Date(),
) {
  const business = await requireBusiness(ctx, user);
  const url = input.url.trim();
  const events = [...new Set(input.events)];
  if (!url || events.length === 0) {
    throw new AppError('validation_failed', 'Validation Error: Please provide a URL and select at least one event.');
  }
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length > 0) throw new AppError('validation_failed', `Unknown event(s): ${unknown.join(', ')}. Events: ${WEBHOOK_EVENTS.join(', ')}.`);
  try {
    await assertSafeWebhookUrl(url, { allowPrivate: ctx.config.webhookAllowPrivate, requireHttps: ctx.config.isProduction });
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw new AppError('validation_failed', err.message);
    throw err;
  }
  const secret = input.secret?.trim() || newWebhookSecret();
  if (!secretKey(secret)) {
    throw new AppError('validation_failed', 'The secret must look like whsec_ followed by 16–64 base64-encoded bytes, or be left empty to generate one.');
  }
  if ((await repo.countWebhooks(ctx.db, business.id)) >= MAX_WEBHOOKS_PER_BUSINESS) {
    throw new AppError('conflict', `A business can have at most ${MAX_WEBHOOKS_PER_BUSINESS} webhooks.`);
  }
  const id = newId('wh');
  await repo.insertWebhook(ctx.db, {
    id,
    businessId: business.id,
    url,
    events,
    secretEnc: ctx.secrets.encrypt(secret, webhookSecretContext(id)),
    isActive: true,
    createdAt: now,
    livemode: input.livemode ?? true,
  });
  const created = (await repo.findWebhook(ctx.db, business.id, id))!;
  // The secret is shown once, now; afterwards only the receiver and our encrypted copy have it.
  return { ...toView(created), secret };
}

async function ownWebhook(ctx: AppContext, user: CurrentUser, id: string) {
  const business = await requireBusiness(ctx, user);
  const webhook = await repo.findWebhook(ctx.db, business.id, id);
  if (!webhook) throw new AppError('not_found', 'No such webhook.');
  return { business, webhook };
}

export async function deleteWebhook(ctx: AppContext, user: CurrentUser, id: string): Promise<void> {
  const { business } = await ownWebhook(ctx, user, id);
  await repo.deleteWebhook(ctx.db, business.id, id);
}

/** The owner's switch: on clears a reason the server switched it off with (and the run of failures). */
export async function toggleWebhook(ctx: AppContext, user: CurrentUser, id: string, isActive: boolean, now = new Date()) {
  const { business } = await ownWebhook(ctx, user, id);
  await repo.setWebhookActive(ctx.db, id, isActive, null, now);
  return toView((await repo.findWebhook(ctx.db, business.id, id))!);
}

export async function sendTestEvent(ctx: AppContext, user: CurrentUser, id: string, now = new Date()) {
  const { business, webhook } = await ownWebhook(ctx, user, id);
  if (!webhook.isActive) throw new AppError('conflict', 'Turn the webhook on before sending a test event.');
  await enqueueEvent(ctx.db, business.id, 'webhook.test', { message: 'This is a test event from Sixdigit.', webhook_id: id }, now, {
    onlyWebhookId: id,
    livemode: webhook.livemode,
  });
  return { queued: true };
}

export async function listLogs(ctx: AppContext, user: CurrentUser, limit = 100, livemode = true) {
  const business = await requireBusiness(ctx, user);
  const rows = await repo.listLogs(ctx.db, business.id, livemode, limit);
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
export async function resendDelivery(ctx: AppContext, user: CurrentUser, deliveryId: string, now = new Date()) {
  const business = await requireBusiness(ctx, user);
  const delivery = await repo.findDelivery(ctx.db, business.id, deliveryId);
  if (!delivery) throw new AppError('not_found', 'No such delivery.');
  if (!delivery.webhookActive) throw new AppError('conflict', 'Turn the webhook on before resending to it.');
  if (!(await repo.requeueDelivery(ctx.db, delivery.id, now))) {
    throw new AppError('conflict', 'This delivery is already queued or being sent.');
  }
  return { queued: true as const, deliveryId: delivery.id, webhookId: delivery.webhookId };
}
