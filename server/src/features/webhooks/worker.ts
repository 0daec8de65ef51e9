import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { newId } from '../../lib/ids';
import { beat } from '../health/repo';
import { queueWebhookDisabledMail } from '../mail/business-mail';
import { metricsFor } from '../metrics/metrics';
import * as repo from './repo';
import type { WebhookSender } from './sender';
import { signedHeaders } from './signing';

/** Attempt 1 at once, then retries after 1 s, 5 s and 30 s (DESIGN.md §6). */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000];
/** A claimed row not finished within this lease is taken again (its worker died). */
export const LEASE_MS = 60_000;
export const WORKER_HEARTBEAT_PREFIX = 'webhook-worker:';
const HEARTBEAT_EVERY_MS = 10_000;

/** Deliveries in flight at once in one worker, and per endpoint (so one cannot take the pool). */
export const DEFAULT_CONCURRENCY = 16;
export const DEFAULT_PER_ENDPOINT = 2;

export interface WorkerOptions {
  sender: WebhookSender;
  now?: () => Date;
  pollIntervalMs?: number;
  /** the most rows one claim takes (default: the free slots of the pool) */
  batchSize?: number;
  concurrency?: number;
  perEndpoint?: number;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export function webhookSecretContext(webhookId: string): string {
  return `webhook:${webhookId}`;
}

/**
 * Delivers the outbox. Several workers (instances) may run against one PostgreSQL: claiming
 * uses SKIP LOCKED, so each row goes to one of them at a time.
 *
 * Fairness: deliveries run side by side in a bounded pool, and the polling loop keeps claiming
 * due rows for free slots while slow ones are in flight; an endpoint has at most `perEndpoint`
 * deliveries in flight, so a hanging receiver holds two slots for its timeout, not the batch.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly now: () => Date;
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly inFlightPerWebhook = new Map<string, number>();
  /** claims run one at a time per worker (the loop and runOnce may overlap) */
  private claiming: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly options: WorkerOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.perEndpoint = options.perEndpoint ?? DEFAULT_PER_ENDPOINT;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      try {
        // Not awaited: slow deliveries finish in the background while the next tick claims more.
        await this.claimAndStart();
        await this.heartbeat();
      } catch (err) {
        this.options.logger?.error({ err }, 'webhook worker pass failed');
      }
      if (!this.stopped) this.timer = setTimeout(loop, this.options.pollIntervalMs ?? 250);
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops claiming; deliveries in flight finish (and are recorded) first. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.claiming.catch(() => {});
    await Promise.allSettled([...this.inFlight]);
  }

  private lastBeatAt = 0;

  /** Tells the admin dashboard (of any instance) that this worker is alive, at most every 10 s. */
  private async heartbeat(): Promise<void> {
    const now = this.now();
    if (now.getTime() - this.lastBeatAt < HEARTBEAT_EVERY_MS) return;
    this.lastBeatAt = now.getTime();
    await beat(this.ctx.db, `${WORKER_HEARTBEAT_PREFIX}${hostname()}:${process.pid}`, now);
  }

  /**
   * Delivers everything due now, within the same limits as the loop, and waits for it (tests
   * and tools use this). Returns how many attempts were made.
   */
  async runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const started = await this.claimAndStart();
      if (started.length === 0) return total;
      total += started.length;
      await Promise.all(started);
    }
  }

  /** Claims due rows for the free slots (each endpoint within its share) and starts them. */
  private claimAndStart(): Promise<Array<Promise<void>>> {
    const next = this.claiming.catch(() => {}).then(async () => {
      const free = Math.min(this.concurrency - this.inFlight.size, this.options.batchSize ?? Infinity);
      if (free <= 0) return [];
      const now = this.now();
      const claimed = await repo.claimDueDeliveries(this.ctx.db, this.ctx.database.dialect, now, new Date(now.getTime() + LEASE_MS), free, {
        perEndpoint: this.perEndpoint,
        inFlight: this.inFlightPerWebhook,
      });
      return claimed.map((delivery) => this.launch(delivery));
    });
    this.claiming = next;
    return next;
  }

  private launch(delivery: repo.ClaimedDelivery): Promise<void> {
    const id = delivery.webhookId;
    this.inFlightPerWebhook.set(id, (this.inFlightPerWebhook.get(id) ?? 0) + 1);
    const running: Promise<void> = this.deliver(delivery)
      .catch((err) => this.options.logger?.error({ err, deliveryId: delivery.id }, 'webhook delivery failed'))
      .finally(() => {
        this.inFlight.delete(running);
        const left = (this.inFlightPerWebhook.get(id) ?? 1) - 1;
        if (left > 0) this.inFlightPerWebhook.set(id, left);
        else this.inFlightPerWebhook.delete(id);
      });
    this.inFlight.add(running);
    return running;
  }

  private async deliver(delivery: repo.ClaimedDelivery): Promise<void> {
    if (!delivery.isActive) {
      await repo.cancelDelivery(this.ctx.db, delivery.id, this.now());
      return;
    }
    const attemptNumber = delivery.attemptCount + 1;
    const secret = this.ctx.secrets.decrypt(delivery.secretEnc, webhookSecretContext(delivery.webhookId));
    const headers = signedHeaders(secret, delivery.id, delivery.payload, delivery.event, this.now());
    const result = await this.options.sender(delivery.url, headers, delivery.payload);
    const finishedAt = this.now();
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const retryDelay = RETRY_DELAYS_MS[attemptNumber - 1];
    const next: { status: 'succeeded' | 'pending' | 'exhausted'; retryAt: Date | null } = ok
      ? { status: 'succeeded', retryAt: null }
      : retryDelay !== undefined && result.statusCode !== 410
        ? { status: 'pending', retryAt: new Date(finishedAt.getTime() + retryDelay) }
        : { status: 'exhausted', retryAt: null };
    const disabled = await repo.finishAttempt(
      this.ctx.db,
      { id: delivery.id, webhookId: delivery.webhookId, attemptNumber },
      result,
      next,
      newId('wha'),
      finishedAt,
      this.ctx.config.webhookDisableAfterMs,
      (trx, reason) => queueWebhookDisabledMail(trx, delivery.webhookId, delivery.url, reason, finishedAt),
    );
    if (disabled) this.options.logger?.warn({ webhookId: delivery.webhookId, reason: disabled }, 'webhook switched off after a day of failures');
    metricsFor(this.ctx).delivery(next.status === 'pending' ? 'retrying' : next.status);
    if (result.statusCode === 410) {
      // 410 Gone: the receiver says this endpoint is no more.
      await repo.setWebhookActive(this.ctx.db, delivery.webhookId, false, 'The endpoint answered 410 Gone.', finishedAt);
      this.options.logger?.info({ webhookId: delivery.webhookId }, 'webhook disabled after 410 Gone');
    }
  }
}
