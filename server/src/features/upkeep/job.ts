import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { runUpkeep } from './service';

/** Runs the upkeep pass inside the server every `intervalMs` (first pass a minute after start). */
export class UpkeepJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly ctx: AppContext,
    private readonly options: { intervalMs: number; firstDelayMs?: number; logger?: Pick<FastifyBaseLogger, 'info' | 'error'> },
  ) {}

  start(): void {
    if (!this.stopped || this.options.intervalMs <= 0) return;
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      const pass = runUpkeep(this.ctx);
      this.running = pass;
      try {
        const report = await pass;
        if (report && Object.values(report).some((n) => n > 0)) this.options.logger?.info({ upkeep: report }, 'upkeep: removed expired rows');
      } catch (err) {
        this.options.logger?.error({ err }, 'upkeep pass failed');
      }
      if (!this.stopped) this.timer = setTimeout(loop, this.options.intervalMs);
    };
    this.timer = setTimeout(loop, this.options.firstDelayMs ?? Math.min(60_000, this.options.intervalMs));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => {});
  }
}
