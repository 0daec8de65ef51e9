import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { newId } from '../../lib/ids';
import { beat } from '../health/repo';
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

export interface WorkerOptions {
  sender: WebhookSender;
  now?: () => Date;
  pollIntervalMs?: number;
  batchSize?: number;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export function webhookSecretContext(webhookId: string): string {
  return `webhook:${webhookId}`;
}

/**
 * Delivers the outbox. Several workers (instances) may run against one PostgreSQL: claiming
 * uses SKIP LOCKED, so each row goes to one of them at a time.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = true;
  private readonly now: () => Date;

  constructor(
    private readonly ctx: AppContext,
    private readonly options: WorkerOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      try {
        await this.runOnce();
        await this.heartbeat();
      } catch (err) {
        this.options.logger?.error({ err }, 'webhook worker pass failed');
      }
      if (!this.stopped) this.timer = setTimeout(loop, this.options.pollIntervalMs ?? 250);
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => {});
  }

  private lastBeatAt = 0;

  /** Tells the admin dashboard (of any instance) that this worker is alive, at most every 10 s. */
  private async heartbeat(): Promise<void> {
    const now = this.now();
    if (now.getTime() - this.lastBeatAt < HEARTBEAT_EVERY_MS) return;
    this.lastBeatAt = now.getTime();
    await beat(this.ctx.db, `${WORKER_HEARTBEAT_PREFIX}${hostname()}:${process.pid}`, now);
  }

  /** One pass: claim what is due and deliver it. Returns how many attempts were made. */
  runOnce(): Promise<number> {
    const pass = this.pass();
    this.running = pass;
    return pass;
  }

  private async pass(): Promise<number> {
    const now = this.now();
    const claimed = await repo.claimDueDeliveries(
      this.ctx.db,
      this.ctx.database.dialect,
      now,
      new Date(now.getTime() + LEASE_MS),
      this.options.batchSize ?? 20,
    );
    await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
    return claimed.length;
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
    await repo.finishAttempt(this.ctx.db, { id: delivery.id, webhookId: delivery.webhookId, attemptNumber }, result, next, newId('wha'), finishedAt);
    metricsFor(this.ctx).delivery(next.status === 'pending' ? 'retrying' : next.status);
    if (result.statusCode === 410) {
      // 410 Gone: the receiver says this endpoint is no more.
      await repo.setWebhookActive(this.ctx.db, delivery.webhookId, false, 'The endpoint answered 410 Gone.');
      this.options.logger?.info({ webhookId: delivery.webhookId }, 'webhook disabled after 410 Gone');
    }
  }
}
