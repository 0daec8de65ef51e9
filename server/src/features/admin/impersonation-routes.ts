import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdminUsers, EmptyBody, ImpersonationStarted, LiveImpersonation, SearchQuery, StartImpersonationBody } from '@common/contract/admin';
import { NoticeIdParams, UserNotices } from '@common/contract/notices';
import { Ok } from '@common/contract/shared';
import { paiseToDecimalString } from '@common/pricing';
import { refuseWhileImpersonating, requireUser } from '../auth/guards';
import * as usersRepo from '../users/repo';
import { requireAdmin } from './guard';
import * as service from './impersonation-service';

/** Finding a user and acting as them (SPEC "Impersonation"), and the notices users see afterwards. */
export async function adminImpersonationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get(
    '/api/admin/users',
    { onRequest: [requireAdmin], schema: { querystring: SearchQuery, response: { 200: AdminUsers } } },
    async (request) => {
      const rows = await usersRepo.searchUsers(ctx.db, request.query.q, request.query.limit);
      return {
        users: rows.map((u) => ({
          id: u.id,
          email: u.email,
          name: u.name,
          role: u.email === ctx.config.adminEmail ? ('admin' as const) : u.role === 'financial_manager' ? ('financial_manager' as const) : ('user' as const),
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

  r.get('/api/admin/impersonation', { onRequest: [requireAdmin], schema: { response: { 200: LiveImpersonation } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.live(ctx, request.currentUser!)),
  );

  r.post(
    '/api/admin/impersonation/start',
    {
      onRequest: [requireAdmin],
      schema: { body: StartImpersonationBody, response: { 200: ImpersonationStarted } },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await service.start(ctx, request, reply, request.currentUser!, request.body)),
  );

  // Open to the impersonated session itself: the way back.
  r.post('/api/admin/impersonation/stop', { onRequest: [requireUser], schema: { body: EmptyBody, response: { 200: Ok } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.stop(ctx, request, reply)),
  );

  r.get('/api/user/notices', { onRequest: [requireUser], schema: { response: { 200: UserNotices } } }, async (request) => service.notices(ctx, request.currentUser!));

  // Only the person marks their notices read: an administrator acting as them must not hide
  // the "the administrator signed in as you" notice (or any other) before they see it.
  const ownNoticesOnly = refuseWhileImpersonating("A user's notices can only be marked read by the user, not while impersonating them.");
  r.post('/api/user/notices/:id/read', { onRequest: [requireUser, ownNoticesOnly], schema: { params: NoticeIdParams, response: { 200: Ok } } }, async (request) =>
    service.markNoticeRead(ctx, request.currentUser!, request.params.id),
  );
}
