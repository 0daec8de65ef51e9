import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { envelope } from '../../lib/errors';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  // Liveness: the process answers. No dependency is checked, so a slow database never kills it.
  app.get('/healthz', async () => ({ status: 'ok' }));

  // Readiness: the database answers a query within two seconds.
  app.get('/readyz', async (request, reply) => {
    const started = performance.now();
    try {
      await Promise.race([
        sql`select 1`.execute(app.ctx.db),
        new Promise((_, reject) => setTimeout(() => reject(new Error('database timeout')), 2000).unref()),
      ]);
      return { status: 'ok', database: app.ctx.database.dialect, latency_ms: Math.round(performance.now() - started) };
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return reply.status(503).send(envelope('service_unavailable', 'The database is not reachable.', request.id, { docsBase: app.ctx.config.publicUrl }));
    }
  });
}
