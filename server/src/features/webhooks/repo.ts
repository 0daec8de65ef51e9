import { SqliteAdapter, type Kysely, type Selectable, type Transaction } from 'kysely';
import { fromJson, toBoolean, toDate, toDateOrNull, toJson, toNumber } from '../../db/normalize';
import { preparedQuery } from '../../db/prepared';
import type { Database, Dialect, WebhookDeliveryTable, WebhookTable } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface Webhook {
  id: string;
  businessId: string;
  url: string;
  events: string[];
  description: string | null;
  secretEnc: string;
  isActive: boolean;
  disabledReason: string | null;
  /** when the server switched it off (410 Gone, a day of failures) */
  disabledAt: Date | null;
  createdAt: Date;
  lastTriggeredAt: Date | null;
  /** false: a test endpoint, sent only the events of test keys */
  livemode: boolean;
}

function toWebhook(row: Selectable<WebhookTable>): Webhook {
  return {
    id: row.id,
    businessId: row.business_id,
    url: row.url,
    events: fromJson<string[]>(row.events),
    description: row.description,
    secretEnc: row.secret_enc,
    isActive: toBoolean(row.is_active),
    disabledReason: row.disabled_reason,
    disabledAt: toDateOrNull(row.disabled_at),
    createdAt: toDate(row.created_at),
    lastTriggeredAt: toDateOrNull(row.last_triggered_at),
    livemode: toBoolean(row.livemode),
  };
}

export async function insertWebhook(db: Executor, w: Omit<Webhook, 'lastTriggeredAt' | 'disabledReason' | 'disabledAt'>): Promise<void> {
  await db
    .insertInto('webhook')
    .values({
      id: w.id,
      business_id: w.businessId,
      url: w.url,
      events: toJson(w.events),
      description: w.description,
      secret_enc: w.secretEnc,
      is_active: w.isActive,
      livemode: w.livemode,
      disabled_reason: null,
      created_at: w.createdAt,
      last_triggered_at: null,
      failing_since: null,
      disabled_at: null,
    })
    .execute();
}

export async function listWebhooks(db: Executor, businessId: string, livemode: boolean): Promise<Webhook[]> {
  const rows = await db.selectFrom('webhook').selectAll().where('business_id', '=', businessId).where('livemode', '=', livemode).orderBy('created_at', 'desc').execute();
  return rows.map(toWebhook);
}

/**
 * A page of a business's endpoints, newest first (created_at, then id, so ties have one order),
 * after the cursor endpoint when there is one. Reads `limit + 1` rows to know whether more follow.
 */
export async function listWebhooksPage(
  db: Executor,
  businessId: string,
  livemode: boolean,
  limit: number,
  after?: Webhook,
): Promise<{ rows: Webhook[]; hasMore: boolean }> {
  let query = db.selectFrom('webhook').selectAll().where('business_id', '=', businessId).where('livemode', '=', livemode);
  if (after) {
    query = query.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]));
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  return { rows: rows.slice(0, limit).map(toWebhook), hasMore: rows.length > limit };
}

/**
 * Serialises endpoint creation per business inside `trx` (PostgreSQL: the business row locked;
 * SQLite's one writer already does), so concurrent creates cannot overshoot the limit.
 */
export async function lockBusinessEndpoints(trx: Transaction<Database>, businessId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof SqliteAdapter) return;
  await trx.selectFrom('business').select('id').where('id', '=', businessId).forUpdate().execute();
}

export async function countWebhooks(db: Executor, businessId: string): Promise<number> {
  const row = await db.selectFrom('webhook').select((eb) => eb.fn.countAll().as('n')).where('business_id', '=', businessId).executeTakeFirstOrThrow();
  return toNumber(row.n);
}

export async function findWebhook(db: Executor, businessId: string, id: string): Promise<Webhook | undefined> {
  const row = await db.selectFrom('webhook').selectAll().where('business_id', '=', businessId).where('id', '=', id).executeTakeFirst();
  return row && toWebhook(row);
}

export async function deleteWebhook(db: Executor, businessId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook').where('business_id', '=', businessId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Changes what the owner may change: address, events, description (undefined: left as it is). */
export async function updateWebhook(
  db: Executor,
  businessId: string,
  id: string,
  changes: { url?: string; events?: string[]; description?: string | null },
): Promise<void> {
  const set = {
    ...(changes.url === undefined ? {} : { url: changes.url }),
    ...(changes.events === undefined ? {} : { events: toJson(changes.events) }),
    ...(changes.description === undefined ? {} : { description: changes.description }),
  };
  if (Object.keys(set).length === 0) return;
  await db.updateTable('webhook').set(set).where('business_id', '=', businessId).where('id', '=', id).execute();
}

/**
 * Switches an endpoint on or off. Switching on clears the reason and the run of failures (the
 * owner says it works again); a reason and time are kept only when the server switched it off.
 */
export async function setWebhookActive(db: Executor, id: string, isActive: boolean, reason: string | null, now: Date): Promise<void> {
  await db
    .updateTable('webhook')
    .set({
      is_active: isActive,
      disabled_reason: isActive ? null : reason,
      disabled_at: !isActive && reason ? now : null,
      ...(isActive ? { failing_since: null } : {}),
    })
    .where('id', '=', id)
    .execute();
}

const selectSubscribers = preparedQuery((db, businessId: string, livemode: boolean) =>
  db.selectFrom('webhook').select(['id', 'events']).where('business_id', '=', businessId).where('livemode', '=', livemode).where('is_active', '=', true),
);

/** Active endpoints of a business in one mode that subscribe to `event` (runs inside the event's transaction). */
export async function subscribersOf(db: Executor, businessId: string, livemode: boolean, event: string): Promise<string[]> {
  const { rows } = await selectSubscribers(db, businessId, livemode);
  return rows.filter((r) => fromJson<string[]>(r.events).includes(event)).map((r) => r.id);
}

export interface NewDelivery {
  id: string;
  webhookId: string;
  businessId: string;
  event: string;
  payload: string;
  verificationId: string | null;
}

export async function insertDeliveries(db: Executor, deliveries: NewDelivery[], now: Date): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .insertInto('webhook_delivery')
    .values(
      deliveries.map((d) => ({
        id: d.id,
        webhook_id: d.webhookId,
        business_id: d.businessId,
        event: d.event,
        payload: d.payload,
        verification_id: d.verificationId,
        status: 'pending' as const,
        attempt_count: 0,
        next_attempt_at: now,
        locked_until: null,
        last_status_code: null,
        last_error: null,
        last_response_ms: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  event: string;
  payload: string;
  attemptCount: number;
  url: string;
  secretEnc: string;
  isActive: boolean;
}

/** At most `perEndpoint` deliveries per endpoint in flight in this worker (`inFlight`: per webhook id). */
export interface PerEndpointLimit {
  perEndpoint: number;
  inFlight: ReadonlyMap<string, number>;
}

/**
 * Claims due deliveries for this worker: pending ones whose time has come, and ones another
 * worker claimed but never finished (its lease ran out: it crashed). On PostgreSQL, `FOR UPDATE
 * SKIP LOCKED` lets many instances claim side by side without taking the same row twice.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  dialect: Dialect,
  now: Date,
  leaseUntil: Date,
  limit: number,
  fairness?: PerEndpointLimit,
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  return db.transaction().execute(async (trx) => {
    const full = fairness ? [...fairness.inFlight].filter(([, n]) => n >= fairness.perEndpoint).map(([id]) => id) : [];
    let due = trx
      .selectFrom('webhook_delivery')
      .select(['id', 'webhook_id'])
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('status', '=', 'delivering'), eb('locked_until', '<', now)]),
        ]),
      )
      .$if(full.length > 0, (q) => q.where('webhook_id', 'not in', full))
      .orderBy('next_attempt_at')
      // Room to skip rows of endpoints that already have their share.
      .limit(fairness ? limit * 4 : limit);
    if (dialect === 'postgres') due = due.forUpdate().skipLocked();
    const candidates = await due.execute();
    const taken = new Map<string, number>();
    const ids: string[] = [];
    for (const c of candidates) {
      if (ids.length >= limit) break;
      const n = (fairness?.inFlight.get(c.webhook_id) ?? 0) + (taken.get(c.webhook_id) ?? 0);
      if (fairness && n >= fairness.perEndpoint) continue;
      taken.set(c.webhook_id, (taken.get(c.webhook_id) ?? 0) + 1);
      ids.push(c.id);
    }
    if (ids.length === 0) return [];
    await trx
      .updateTable('webhook_delivery')
      .set({ status: 'delivering', locked_until: leaseUntil, updated_at: now })
      .where('id', 'in', ids)
      .execute();
    const rows = await trx
      .selectFrom('webhook_delivery')
      .innerJoin('webhook', 'webhook.id', 'webhook_delivery.webhook_id')
      .select([
        'webhook_delivery.id',
        'webhook_delivery.webhook_id',
        'webhook_delivery.event',
        'webhook_delivery.payload',
        'webhook_delivery.attempt_count',
        'webhook.url',
        'webhook.secret_enc',
        'webhook.is_active',
      ])
      .where('webhook_delivery.id', 'in', ids)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      event: r.event,
      payload: r.payload,
      attemptCount: toNumber(r.attempt_count),
      url: r.url,
      secretEnc: r.secret_enc,
      isActive: toBoolean(r.is_active),
    }));
  });
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  responseTimeMs: number | null;
}

/**
 * Records one attempt and moves the delivery on: done, retry at `retryAt`, or given up. Keeps
 * the endpoint's run of failures; when every attempt has failed for `disableAfterMs`, switches
 * the endpoint off with a reason (returned, else null).
 */
export async function finishAttempt(
  db: Kysely<Database>,
  delivery: { id: string; webhookId: string; attemptNumber: number },
  outcome: AttemptOutcome,
  next: { status: WebhookDeliveryTable['status']; retryAt: Date | null },
  attemptId: string,
  now: Date,
  disableAfterMs = Infinity,
): Promise<string | null> {
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempt')
      .values({
        id: attemptId,
        delivery_id: delivery.id,
        attempt_number: delivery.attemptNumber,
        status_code: outcome.statusCode,
        error: outcome.error?.slice(0, 500) ?? null,
        response_time_ms: outcome.responseTimeMs,
        created_at: now,
      })
      .execute();
    await trx
      .updateTable('webhook_delivery')
      .set({
        status: next.status,
        attempt_count: delivery.attemptNumber,
        next_attempt_at: next.retryAt ?? now,
        locked_until: null,
        last_status_code: outcome.statusCode,
        last_error: outcome.error?.slice(0, 500) ?? null,
        last_response_ms: outcome.responseTimeMs,
        updated_at: now,
      })
      .where('id', '=', delivery.id)
      .execute();
    if (ok) {
      await trx.updateTable('webhook').set({ last_triggered_at: now, failing_since: null }).where('id', '=', delivery.webhookId).execute();
      return null;
    }
    await trx
      .updateTable('webhook')
      .set((eb) => ({ last_triggered_at: now, failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
      .where('id', '=', delivery.webhookId)
      .execute();
    const hook = await trx.selectFrom('webhook').select(['failing_since', 'is_active']).where('id', '=', delivery.webhookId).executeTakeFirst();
    const since = hook?.failing_since ? toDate(hook.failing_since) : null;
    if (hook && !toBoolean(hook.is_active) && next.status === 'pending') {
      // Switched off while this attempt was in flight: no retry.
      await trx.updateTable('webhook_delivery').set({ status: 'cancelled' }).where('id', '=', delivery.id).execute();
      return null;
    }
    if (!hook || !toBoolean(hook.is_active) || !since || now.getTime() - since.getTime() < disableAfterMs) return null;
    const last = outcome.statusCode !== null ? `HTTP ${outcome.statusCode}` : (outcome.error ?? 'no answer');
    const reason = `Every delivery failed for ${duration(now.getTime() - since.getTime())} (since ${since.toISOString().slice(0, 16).replace('T', ' ')} UTC; last: ${last}).`.slice(0, 200);
    await trx.updateTable('webhook').set({ is_active: false, disabled_reason: reason, disabled_at: now }).where('id', '=', delivery.webhookId).execute();
    // Its retries would only be cancelled when claimed; say so in the log at once.
    await trx
      .updateTable('webhook_delivery')
      .set({ status: 'cancelled', locked_until: null, updated_at: now })
      .where('webhook_id', '=', delivery.webhookId)
      .where('status', '=', 'pending')
      .execute();
    return reason;
  });
}

function duration(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round(ms / 3_600_000)} h`;
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 1000)} s`;
}

export interface OwnedDelivery {
  id: string;
  webhookId: string;
  status: WebhookDeliveryTable['status'];
  webhookActive: boolean;
}

export async function findDelivery(db: Executor, businessId: string, id: string): Promise<OwnedDelivery | undefined> {
  const row = await db
    .selectFrom('webhook_delivery')
    .innerJoin('webhook', 'webhook.id', 'webhook_delivery.webhook_id')
    .select(['webhook_delivery.id', 'webhook_delivery.webhook_id', 'webhook_delivery.status', 'webhook.is_active'])
    .where('webhook_delivery.business_id', '=', businessId)
    .where('webhook_delivery.id', '=', id)
    .executeTakeFirst();
  return row && { id: row.id, webhookId: row.webhook_id, status: row.status, webhookActive: toBoolean(row.is_active) };
}

/**
 * Queues a finished delivery once more: the same row (so the same webhook-id), due now; the
 * worker records the new attempt after the earlier ones. False when it is already queued.
 */
export async function requeueDelivery(db: Executor, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('webhook_delivery')
    .set({ status: 'pending', next_attempt_at: now, locked_until: null, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['succeeded', 'exhausted', 'cancelled'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function cancelDelivery(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('webhook_delivery').set({ status: 'cancelled', locked_until: null, updated_at: now }).where('id', '=', id).execute();
}

export interface LogRow {
  id: string;
  deliveryId: string;
  event: string;
  webhookId: string;
  webhookUrl: string;
  verificationId: string | null;
  attemptNumber: number;
  responseStatus: number | null;
  error: string | null;
  responseTime: number | null;
  createdAt: Date;
  deliveryStatus: WebhookDeliveryTable['status'];
}

/** One row per attempt, plus a Pending row for deliveries not yet attempted; newest first. */
/** The delivery log of one mode's endpoints. */
export async function listLogs(db: Executor, businessId: string, livemode: boolean, limit: number): Promise<LogRow[]> {
  const attempts = await db
    .selectFrom('webhook_attempt')
    .innerJoin('webhook_delivery', 'webhook_delivery.id', 'webhook_attempt.delivery_id')
    .innerJoin('webhook', 'webhook.id', 'webhook_delivery.webhook_id')
    .select([
      'webhook_attempt.id',
      'webhook_attempt.delivery_id',
      'webhook_attempt.attempt_number',
      'webhook_attempt.status_code',
      'webhook_attempt.error',
      'webhook_attempt.response_time_ms',
      'webhook_attempt.created_at',
      'webhook_delivery.event',
      'webhook_delivery.verification_id',
      'webhook_delivery.status',
      'webhook.id as webhook_id',
      'webhook.url',
    ])
    .where('webhook_delivery.business_id', '=', businessId)
    .where('webhook.livemode', '=', livemode)
    .orderBy('webhook_attempt.created_at', 'desc')
    .limit(limit)
    .execute();
  const waiting = await db
    .selectFrom('webhook_delivery')
    .innerJoin('webhook', 'webhook.id', 'webhook_delivery.webhook_id')
    .select([
      'webhook_delivery.id',
      'webhook_delivery.event',
      'webhook_delivery.verification_id',
      'webhook_delivery.status',
      'webhook_delivery.attempt_count',
      'webhook_delivery.created_at',
      'webhook.id as webhook_id',
      'webhook.url',
    ])
    .where('webhook_delivery.business_id', '=', businessId)
    .where('webhook.livemode', '=', livemode)
    .where('webhook_delivery.attempt_count', '=', 0)
    .where('webhook_delivery.status', 'in', ['pending', 'delivering'])
    .orderBy('webhook_delivery.created_at', 'desc')
    .limit(limit)
    .execute();
  const rows: LogRow[] = [
    ...attempts.map((a) => ({
      id: a.id,
      deliveryId: a.delivery_id,
      event: a.event,
      webhookId: a.webhook_id,
      webhookUrl: a.url,
      verificationId: a.verification_id,
      attemptNumber: toNumber(a.attempt_number),
      responseStatus: a.status_code === null ? null : toNumber(a.status_code),
      error: a.error,
      responseTime: a.response_time_ms === null ? null : toNumber(a.response_time_ms),
      createdAt: toDate(a.created_at),
      deliveryStatus: a.status,
    })),
    ...waiting.map((d) => ({
      id: d.id,
      deliveryId: d.id,
      event: d.event,
      webhookId: d.webhook_id,
      webhookUrl: d.url,
      verificationId: d.verification_id,
      attemptNumber: 0,
      responseStatus: null,
      error: null,
      responseTime: null,
      createdAt: toDate(d.created_at),
      deliveryStatus: d.status,
    })),
  ];
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, limit);
}

export async function deliveryStats(db: Executor, deliveryId: string) {
  const rows = await db.selectFrom('webhook_attempt').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt_number').execute();
  return rows.map((r) => ({ attemptNumber: toNumber(r.attempt_number), statusCode: r.status_code === null ? null : toNumber(r.status_code), error: r.error, createdAt: toDate(r.created_at) }));
}

// --- one endpoint's delivery log, paged (the public API's GET /webhook_endpoints/{id}/deliveries) ---

export interface EndpointDelivery {
  id: string;
  event: string;
  verificationId: string | null;
  status: WebhookDeliveryTable['status'];
  attemptCount: number;
  nextAttemptAt: Date;
  createdAt: Date;
  attempts: Array<{ attemptNumber: number; statusCode: number | null; error: string | null; responseTimeMs: number | null; createdAt: Date }>;
}

/** One delivery of one endpoint of the business (the cursor of the page below), or undefined. */
export async function findEndpointDelivery(db: Executor, businessId: string, webhookId: string, id: string): Promise<{ id: string; createdAt: Date } | undefined> {
  const row = await db
    .selectFrom('webhook_delivery')
    .select(['id', 'created_at'])
    .where('business_id', '=', businessId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { id: row.id, createdAt: toDate(row.created_at) };
}

/**
 * A page of one endpoint's deliveries, newest first (created_at, then id), each with every
 * attempt made so far (the rows the dashboard's log shows, grouped by delivery).
 */
export async function listEndpointDeliveries(
  db: Executor,
  businessId: string,
  webhookId: string,
  limit: number,
  after?: { id: string; createdAt: Date },
): Promise<{ rows: EndpointDelivery[]; hasMore: boolean }> {
  let query = db
    .selectFrom('webhook_delivery')
    .select(['id', 'event', 'verification_id', 'status', 'attempt_count', 'next_attempt_at', 'created_at'])
    .where('business_id', '=', businessId)
    .where('webhook_id', '=', webhookId);
  if (after) {
    query = query.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]));
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const attempts =
    page.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempt')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            page.map((r) => r.id),
          )
          .orderBy('attempt_number')
          .execute();
  const byDelivery = new Map<string, EndpointDelivery['attempts']>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id) ?? [];
    list.push({
      attemptNumber: toNumber(a.attempt_number),
      statusCode: a.status_code === null ? null : toNumber(a.status_code),
      error: a.error,
      responseTimeMs: a.response_time_ms === null ? null : toNumber(a.response_time_ms),
      createdAt: toDate(a.created_at),
    });
    byDelivery.set(a.delivery_id, list);
  }
  return {
    rows: page.map((r) => ({
      id: r.id,
      event: r.event,
      verificationId: r.verification_id,
      status: r.status,
      attemptCount: toNumber(r.attempt_count),
      nextAttemptAt: toDate(r.next_attempt_at),
      createdAt: toDate(r.created_at),
      attempts: byDelivery.get(r.id) ?? [],
    })),
    hasMore: rows.length > limit,
  };
}
