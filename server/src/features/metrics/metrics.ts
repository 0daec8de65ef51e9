import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../../context';
import { outboxStats } from '../admin/repo';
import { pendingPaymentRequests } from './repo';

/**
 * Prometheus metrics, one registry per app context (not prom-client's global one), so tests that
 * run several apps in one process do not share counters. Labels are closed sets (statuses, route
 * patterns, outcomes): never a URL, key, code or user id.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly verifications = new Counter({
    name: 'sixdigit_verifications_total',
    help: 'POST /verify answers by status (verified, invalid_code, expired, replayed) or error code',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly verifyLatency = new Histogram({
    name: 'sixdigit_verify_duration_seconds',
    help: 'Time to answer POST /verify, from the API key check to the answer',
    labelNames: ['status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly httpRequests = new Counter({
    name: 'sixdigit_http_requests_total',
    help: 'HTTP requests by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'sixdigit_http_request_duration_seconds',
    help: 'HTTP request duration by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'sixdigit_webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this instance, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private defaultsOn = false;

  constructor(ctx: AppContext) {
    const db = ctx.db;
    // Read from the database at scrape time: every instance reports the shared figures.
    new Gauge({
      name: 'sixdigit_webhook_outbox_depth',
      help: 'Webhook deliveries pending or being delivered (all instances)',
      registers: [this.registry],
      async collect() {
        this.set((await outboxStats(db, new Date())).depth);
      },
    });
    new Gauge({
      name: 'sixdigit_webhook_outbox_oldest_due_age_seconds',
      help: 'How long the oldest due webhook delivery has waited (0 when none is due)',
      registers: [this.registry],
      async collect() {
        const now = new Date();
        const { oldestDueAt } = await outboxStats(db, now);
        this.set(oldestDueAt ? Math.max(0, (now.getTime() - oldestDueAt.getTime()) / 1000) : 0);
      },
    });
    new Gauge({
      name: 'sixdigit_payment_requests_pending',
      help: 'Bank/UPI payment requests waiting for the financial desk',
      registers: [this.registry],
      async collect() {
        this.set(await pendingPaymentRequests(db));
      },
    });
  }

  /** Node process metrics (CPU, memory, event loop lag, GC), only where /metrics is served. */
  enableProcessMetrics(): void {
    if (this.defaultsOn) return;
    this.defaultsOn = true;
    collectDefaultMetrics({ register: this.registry });
  }

  /** One POST /verify answer: the verification's status when 200, else the error code. */
  verification(result: { statusCode: number; body: Record<string, unknown> }, elapsedMs: number): void {
    const status = labelOf(result);
    this.verifications.inc({ status });
    this.verifyLatency.observe({ status }, elapsedMs / 1000);
  }

  http(method: string, route: string, statusCode: number, elapsedMs: number): void {
    this.httpRequests.inc({ method, route, status_code: String(statusCode) });
    this.httpDuration.observe({ method, route }, elapsedMs / 1000);
  }

  /** One webhook attempt: `succeeded`, `retrying`, `exhausted`, `cancelled`, … (a closed set). */
  delivery(outcome: string): void {
    this.deliveries.inc({ outcome });
  }
}

const STATUS_LABEL = /^[a-z_]{1,40}$/;

function labelOf(result: { statusCode: number; body: Record<string, unknown> }): string {
  const fromBody = result.statusCode === 200 ? result.body.status : (result.body.error as { code?: unknown } | undefined)?.code;
  return typeof fromBody === 'string' && STATUS_LABEL.test(fromBody) ? fromBody : `http_${result.statusCode}`;
}

const byContext = new WeakMap<AppContext, AppMetrics>();

/** The metrics of this app context (made on first use). */
export function metricsFor(ctx: AppContext): AppMetrics {
  let metrics = byContext.get(ctx);
  if (!metrics) {
    metrics = new AppMetrics(ctx);
    byContext.set(ctx, metrics);
  }
  return metrics;
}
