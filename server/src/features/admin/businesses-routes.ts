import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminBusinessDetail,
  AdminBusinesses,
  AdminIdParams,
  BusinessChanged,
  EmptyBody,
  GrantBody,
  Granted,
  RateLimitBody,
  RateLimitSet,
  ReasonBody,
  SearchQuery,
  UserStanding,
} from '@common/contract/admin';
import { requireAdmin } from './guard';
import * as service from './businesses-service';

/** The administrator's view of one business and of a user's standing; every write audited. */
export async function adminBusinessRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  app.addHook('onRequest', requireAdmin);
  const actor = (request: { currentUser: { id: string; email: string } | null }) => ({ userId: request.currentUser!.id, label: request.currentUser!.email });

  r.get(
    '/api/admin/businesses',
    { schema: { querystring: SearchQuery, response: { 200: AdminBusinesses } } },
    async (request) => service.search(ctx, request.query.q, request.query.limit),
  );

  r.get('/api/admin/businesses/:id', { schema: { params: AdminIdParams, response: { 200: AdminBusinessDetail } } }, async (request) => service.detail(ctx, request.params.id));

  r.post(
    '/api/admin/businesses/:id/grant',
    {
      schema: { params: AdminIdParams, body: GrantBody, response: { 200: Granted } },
    },
    async (request) => service.grant(ctx, request.params.id, { amountPaise: Math.round(request.body.amountRupees * 100), reason: request.body.reason }, actor(request)),
  );

  r.post('/api/admin/businesses/:id/rate-limit', { schema: { params: AdminIdParams, body: RateLimitBody, response: { 200: RateLimitSet } } }, async (request) =>
    service.setRateLimit(ctx, request.params.id, request.body.perMinute, actor(request)),
  );

  r.post('/api/admin/businesses/:id/suspend', { schema: { params: AdminIdParams, body: ReasonBody, response: { 200: BusinessChanged } } }, async (request) =>
    service.setSuspended(ctx, request.params.id, { reason: request.body.reason }, actor(request)),
  );

  r.post('/api/admin/businesses/:id/restore', { schema: { params: AdminIdParams, body: EmptyBody, response: { 200: BusinessChanged } } }, async (request) =>
    service.setSuspended(ctx, request.params.id, null, actor(request)),
  );

  r.post('/api/admin/users/:id/ban', { schema: { params: AdminIdParams, body: ReasonBody, response: { 200: UserStanding } } }, async (request) =>
    service.setBanned(ctx, request.params.id, { reason: request.body.reason }, actor(request)),
  );

  r.post('/api/admin/users/:id/unban', { schema: { params: AdminIdParams, body: EmptyBody, response: { 200: UserStanding } } }, async (request) =>
    service.setBanned(ctx, request.params.id, null, actor(request)),
  );
}
