import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../../lib/errors';
import { metricsFor } from './metrics';

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Counts every HTTP answer by route pattern (never the raw URL: ids and codes stay out of labels)
 * and serves `GET /metrics` in the Prometheus text format — 404 unless METRICS_TOKEN is set, then
 * only with `Authorization: Bearer <METRICS_TOKEN>`. Registered on the root instance so the hook
 * sees every route.
 */
export function installMetrics(app: FastifyInstance): void {
  const token = app.ctx.config.metricsToken;
  const metrics = metricsFor(app.ctx);
  if (token) metrics.enableProcessMetrics();

  // Synchronous: an async hook costs every request a promise (issue 23).
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    // Unmatched URLs (SPA pages, probes for random paths) share one label.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.http(request.method, route, reply.statusCode, reply.elapsedTime);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!token) throw new AppError('not_found', 'No route for GET /metrics.');
    const header = request.headers.authorization;
    const given = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
    if (!given || !sameToken(given, token)) {
      throw new AppError('unauthorized', 'Send the metrics token as "Authorization: Bearer …".', { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}
