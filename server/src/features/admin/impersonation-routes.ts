import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paiseToDecimalString } from '@common/pricing';
import { requireUser } from '../auth/guards';
import { storableText } from '../verify/schemas';
import * as usersRepo from '../users/repo';
import { requireAdmin } from './guard';
import * as service from './impersonation-service';

/** Finding a user and acting as them (SPEC "Impersonation"), and the notices users see afterwards. */
export async function adminImpersonationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get(
    '/api/admin/users',
    { onRequest: [requireAdmin], schema: { querystring: z.object({ q: z.string().trim().max(200).default(''), limit: z.coerce.number().int().min(1).max(100).default(50) }) } },
    async (request) => {
      const rows = await usersRepo.searchUsers(ctx.db, request.query.q, request.query.limit);
      return {
        users: rows.map((u) => ({
          id: u.id,
          email: u.email,
          name: u.name,
          role: u.email === ctx.config.adminEmail ? 'admin' : u.role === 'financial_manager' ? 'financial_manager' : 'user',
          status: u.banned ? ('banned' as const) : ('active' as const),
          business: u.businessId
            ? { id: u.businessId, companyName: u.companyName ?? '', balance: paiseToDecimalString(u.balancePaise ?? 0), apiKeyPrefix: u.apiKeyPrefix }
            : null,
          lastActiveAt: u.lastActiveAt?.toISOString() ?? null,
          createdAt: u.createdAt.toISOString(),
        })),
      };
    },
  );

  r.post(
    '/api/admin/impersonation/start',
    {
      onRequest: [requireAdmin],
      schema: { body: z.object({ userId: z.string().trim().min(1).max(64), reason: storableText().trim().min(3, 'Say why (at least 3 characters).').max(500) }).strict() },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await service.start(ctx, request, reply, request.currentUser!, request.body)),
  );

  // Open to the impersonated session itself: the way back.
  r.post('/api/admin/impersonation/stop', { onRequest: [requireUser], schema: { body: z.object({}).strict().nullish() } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.stop(ctx, request, reply)),
  );

  r.get('/api/user/notices', { onRequest: [requireUser] }, async (request) => service.notices(ctx, request.currentUser!));

  r.post('/api/user/notices/:id/read', { onRequest: [requireUser], schema: { params: z.object({ id: z.string().min(1).max(40) }) } }, async (request) =>
    service.markNoticeRead(ctx, request.currentUser!, request.params.id),
  );
}
