import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertAdminWithFreshMfa } from '../admin/guard';
import { requireRole } from '../auth/guards';
import type { CurrentUser } from '../auth/service';
import { storableText } from '../verify/schemas';
import * as contact from '../contact/service';
import * as service from './service';

const requestId = z.object({ id: z.string().min(1).max(40) });

/**
 * The financial manager's desk (session cookie; roles financial_manager and admin). The role is
 * read from the user row on every request, so taking it away closes the desk at once.
 */
export async function financialRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireRole('financial_manager', 'admin'));
  const ctx = app.ctx;
  const actorOf = (user: CurrentUser, impersonatedBy: string | null) => ({ userId: user.id, label: user.email, impersonatedBy });
  // Money decisions by the administrator need the administrator's fresh MFA, like every admin power.
  const adminNeedsFreshMfa = async (request: FastifyRequest) => {
    if (request.currentUser?.isAdmin && !request.impersonatedBy) await assertAdminWithFreshMfa(request);
  };

  r.get('/api/financial/pending-approvals', async () => service.pendingApprovals(ctx));

  r.get('/api/financial/stats', async () => service.stats(ctx));

  r.get('/api/financial/recent', { schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(50).default(5) }) } }, async (request) =>
    service.recentlyProcessed(ctx, request.query.limit),
  );

  r.post(
    '/api/financial/approve-payment/:id',
    { onRequest: [adminNeedsFreshMfa], schema: { params: requestId, body: z.object({ notes: storableText().max(1000).optional() }).nullish() } },
    async (request) => service.approvePayment(ctx, request.params.id, request.body ?? {}, actorOf(request.currentUser!, request.impersonatedBy)),
  );

  r.post(
    '/api/financial/reject-payment/:id',
    // A missing or blank reason reaches the service, which answers the one "reason required" message.
    { onRequest: [adminNeedsFreshMfa], schema: { params: requestId, body: z.object({ reason: storableText().max(500).optional() }).nullish() } },
    async (request) => service.rejectPayment(ctx, request.params.id, request.body ?? {}, actorOf(request.currentUser!, request.impersonatedBy)),
  );

  r.get(
    '/api/financial/contact-messages',
    { schema: { querystring: z.object({ status: z.enum(['all', 'active', 'open', 'assigned_to_luna', 'escalated', 'closed']).default('all') }) } },
    async (request) => contact.deskList(ctx, request.query.status),
  );

  r.post(
    '/api/financial/escalate-message/:id',
    { onRequest: [adminNeedsFreshMfa], schema: { params: requestId, body: z.object({ escalationType: z.enum(['luna', 'admin']) }) } },
    async (request) => contact.escalate(ctx, request.params.id, request.body.escalationType, actorOf(request.currentUser!, null)),
  );

  r.post(
    '/api/financial/close-message/:id',
    { onRequest: [adminNeedsFreshMfa], schema: { params: requestId, body: z.object({ resolution: storableText().trim().min(1, 'resolution: say how it was resolved.').max(2000) }) } },
    async (request) => contact.close(ctx, request.params.id, request.body.resolution, actorOf(request.currentUser!, null)),
  );
}
