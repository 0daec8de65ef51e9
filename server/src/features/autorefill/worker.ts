import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import * as repo from './repo';
import { processRefill } from './service';

/** A claimed refill not finished within this lease is taken again (its worker died). */
export const LEASE_MS = 120_000;
const BATCH = 20;

/**
 * Acts on the "refill due" rows crossings write: charges the saved token or issues the bank/UPI
 * request, outside any verification's transaction. Also closes bank/UPI requests whose reference
 * expired unpaid. Several instances may run on one PostgreSQL (claims use SKIP LOCKED).
 */
export class AutoRefillWorker {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly options: { pollIntervalMs?: number; now?: () => Date; logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> } = {},
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      await this.runOnce().catch((err: unknown) => this.options.logger?.error({ err }, 'auto-refill worker pass failed'));
      if (!this.stopped) this.timer = setTimeout(loop, this.options.pollIntervalMs ?? 1_000);
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: expire stale requests, then claim and process what is due. Returns how many were processed. */
  runOnce(): Promise<void> {
    const pass = this.running.then(() => this.pass());
    this.running = pass.catch(() => undefined);
    return pass;
  }

  private async pass(): Promise<void> {
    const now = this.options.now?.() ?? new Date();
    await repo.expireOpenRequests(this.ctx.db, now);
    const claimed = await repo.claimDue(this.ctx.db, this.ctx.database.dialect, now, new Date(now.getTime() + LEASE_MS), BATCH);
    for (const refill of claimed) {
      try {
        await processRefill(this.ctx, refill, this.options.logger, now);
      } catch (err) {
        // Left claimed: the lease runs out and the refill is taken again.
        this.options.logger?.error({ err, refillId: refill.id }, 'auto-refill failed to process a refill');
      }
    }
  }
}
