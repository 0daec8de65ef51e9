import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storableText } from '../verify/schemas';
import { requireAdmin } from './guard';
import * as service from './businesses-service';

const id = z.object({ id: z.string().trim().min(1).max(64) });
const reason = storableText().trim().min(3, 'Give a reason (at least 3 characters).').max(500);

/** The administrator's view of one business and of a user's standing; every write audited. */
export async function adminBusinessRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  app.addHook('onRequest', requireAdmin);
  const actor = (request: { currentUser: { id: string; email: string } | null }) => ({ userId: request.currentUser!.id, label: request.currentUser!.email });

  r.get(
    '/api/admin/businesses',
    { schema: { querystring: z.object({ q: z.string().trim().max(200).default(''), limit: z.coerce.number().int().min(1).max(100).default(50) }) } },
    async (request) => service.search(ctx, request.query.q, request.query.limit),
  );

  r.get('/api/admin/businesses/:id', { schema: { params: id } }, async (request) => service.detail(ctx, request.params.id));

  r.post(
    '/api/admin/businesses/:id/grant',
    {
      schema: {
        params: id,
        body: z.object({
          amountRupees: z.number().positive().max(10_000_000).refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'Use at most two decimals (paise).'),
          reason,
        }),
      },
    },
    async (request) => service.grant(ctx, request.params.id, { amountPaise: Math.round(request.body.amountRupees * 100), reason: request.body.reason }, actor(request)),
  );

  r.post('/api/admin/businesses/:id/rate-limit', { schema: { params: id, body: z.object({ perMinute: z.number().int().min(1).max(100_000) }) } }, async (request) =>
    service.setRateLimit(ctx, request.params.id, request.body.perMinute, actor(request)),
  );

  r.post('/api/admin/businesses/:id/suspend', { schema: { params: id, body: z.object({ reason }) } }, async (request) =>
    service.setSuspended(ctx, request.params.id, { reason: request.body.reason }, actor(request)),
  );

  r.post('/api/admin/businesses/:id/restore', { schema: { params: id, body: z.object({}).strict().nullish() } }, async (request) =>
    service.setSuspended(ctx, request.params.id, null, actor(request)),
  );

  r.post('/api/admin/users/:id/ban', { schema: { params: id, body: z.object({ reason }) } }, async (request) =>
    service.setBanned(ctx, request.params.id, { reason: request.body.reason }, actor(request)),
  );

  r.post('/api/admin/users/:id/unban', { schema: { params: id, body: z.object({}).strict().nullish() } }, async (request) =>
    service.setBanned(ctx, request.params.id, null, actor(request)),
  );
}
