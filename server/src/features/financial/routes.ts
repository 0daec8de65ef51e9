import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CloseBody, DeskMessageAnswer, DeskMessages, DeskMessagesQuery, EscalateBody } from '@common/contract/contact';
import { ApproveBody, ApprovedPayment, DeskPayment, DeskStats, PaymentRequestIdParams, RecentQuery, RejectBody } from '@common/contract/financial';
import { z } from 'zod';
import { assertAdminWithFreshMfa } from '../admin/guard';
import { requireRole } from '../auth/guards';
import type { CurrentUser } from '../auth/service';
import * as contact from '../contact/service';
import * as service from './service';

/**
 * The administrator at the desk needs the administrator's fresh MFA for every call, reads
 * included: the desk shows business e-mails, UTRs, payee details and contact messages, which a
 * stolen admin cookie alone must not reach. A financial manager (the role) is not asked.
 */
async function adminNeedsFreshMfa(request: FastifyRequest): Promise<void> {
  if (request.currentUser?.isAdmin && !request.impersonatedBy) await assertAdminWithFreshMfa(request);
}

/**
 * The financial manager's desk (session cookie; roles financial_manager and admin). The role is
 * read from the user row on every request, so taking it away closes the desk at once.
 */
export async function financialRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireRole('financial_manager', 'admin'));
  app.addHook('onRequest', adminNeedsFreshMfa);
  const ctx = app.ctx;
  const actorOf = (user: CurrentUser, impersonatedBy: string | null) => ({ userId: user.id, label: user.email, impersonatedBy });

  r.get('/api/financial/pending-approvals', { schema: { response: { 200: z.array(DeskPayment) } } }, async () => service.pendingApprovals(ctx));

  r.get('/api/financial/stats', { schema: { response: { 200: DeskStats } } }, async () => service.stats(ctx));

  r.get('/api/financial/recent', { schema: { querystring: RecentQuery, response: { 200: z.array(DeskPayment) } } }, async (request) =>
    service.recentlyProcessed(ctx, request.query.limit),
  );

  r.post(
    '/api/financial/approve-payment/:id',
    { schema: { params: PaymentRequestIdParams, body: ApproveBody, response: { 200: ApprovedPayment } } },
    async (request) => service.approvePayment(ctx, request.params.id, request.body ?? {}, actorOf(request.currentUser!, request.impersonatedBy)),
  );

  r.post(
    '/api/financial/reject-payment/:id',
    { schema: { params: PaymentRequestIdParams, body: RejectBody, response: { 200: DeskPayment } } },
    async (request) => service.rejectPayment(ctx, request.params.id, request.body ?? {}, actorOf(request.currentUser!, request.impersonatedBy)),
  );

  r.get(
    '/api/financial/contact-messages',
    { schema: { querystring: DeskMessagesQuery, response: { 200: DeskMessages } } },
    async (request) => contact.deskList(ctx, request.query.status),
  );

  r.post(
    '/api/financial/escalate-message/:id',
    { schema: { params: PaymentRequestIdParams, body: EscalateBody, response: { 200: DeskMessageAnswer } } },
    async (request) => contact.escalate(ctx, request.params.id, request.body.escalationType, actorOf(request.currentUser!, null)),
  );

  r.post(
    '/api/financial/close-message/:id',
    { schema: { params: PaymentRequestIdParams, body: CloseBody, response: { 200: DeskMessageAnswer } } },
    async (request) => contact.close(ctx, request.params.id, request.body.resolution, actorOf(request.currentUser!, null)),
  );
}
