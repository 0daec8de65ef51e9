import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminDashboard,
  AdminPayments,
  AuditFiltersQuery,
  AuditPage,
  AuditPageQuery,
  RoleChangeBody,
  RoleChanged,
  Roles,
  type AuditFilters,
} from '@common/contract/admin';
import { ApproveBody, ApprovedPayment, DeskPayment, PaymentRequestIdParams, RejectBody } from '@common/contract/financial';
import { csvField } from '../../lib/csv';
import type { AuditFilter } from '../audit/repo';
import * as financial from '../financial/service';
import { requireAdmin } from './guard';
import * as service from './service';

const DAY_MS = 86_400_000;

/** Days are UTC and both ends are included (`to` covers its whole day). */
function toFilter(q: AuditFilters): AuditFilter {
  return {
    ...(q.actor ? { actor: q.actor } : {}),
    ...(q.action ? { action: q.action } : {}),
    ...(q.target ? { target: q.target } : {}),
    ...(q.from ? { from: new Date(`${q.from}T00:00:00.000Z`) } : {}),
    ...(q.to ? { to: new Date(Date.parse(`${q.to}T00:00:00.000Z`) + DAY_MS) } : {}),
  };
}

/** The administrator's tools (SPEC "Admin dashboard", "Admin payments", "Role management"); every route behind the one guard. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  app.addHook('onRequest', requireAdmin);
  const actor = (request: { currentUser: { id: string; email: string } | null }) => ({ userId: request.currentUser!.id, label: request.currentUser!.email });

  r.get('/api/admin/dashboard', { schema: { response: { 200: AdminDashboard } } }, async (_request, reply) => reply.header('cache-control', 'no-store').send(await service.dashboard(app)));

  r.get('/api/admin/payments', { schema: { response: { 200: AdminPayments } } }, async () => service.payments(ctx));

  r.post('/api/admin/payments/:id/approve', { schema: { params: PaymentRequestIdParams, body: ApproveBody, response: { 200: ApprovedPayment } } }, async (request) =>
    financial.approvePayment(ctx, request.params.id, request.body ?? {}, { ...actor(request), impersonatedBy: null }),
  );

  r.post('/api/admin/payments/:id/reject', { schema: { params: PaymentRequestIdParams, body: RejectBody, response: { 200: DeskPayment } } }, async (request) =>
    financial.rejectPayment(ctx, request.params.id, request.body ?? {}, { ...actor(request), impersonatedBy: null }),
  );

  r.get('/api/admin/roles', { schema: { response: { 200: Roles } } }, async () => service.roles(ctx));

  r.post('/api/admin/assign-financial-manager', { schema: { body: RoleChangeBody, response: { 200: RoleChanged } } }, async (request) =>
    service.assignFinancialManager(ctx, request.body.userEmail, actor(request)),
  );

  r.post('/api/admin/remove-financial-manager', { schema: { body: RoleChangeBody, response: { 200: RoleChanged } } }, async (request) =>
    service.removeFinancialManager(ctx, request.body.userEmail, actor(request)),
  );

  r.get(
    '/api/admin/audit',
    { schema: { querystring: AuditPageQuery, response: { 200: AuditPage } } },
    async (request) => service.audit(ctx, { ...toFilter(request.query), page: request.query.page, pageSize: request.query.pageSize }),
  );

  r.get('/api/admin/audit.csv', { schema: { querystring: AuditFiltersQuery } }, async (request, reply) => {
    const entries = await service.auditAll(ctx, toFilter(request.query));
    const header = ['id', 'created_at', 'actor', 'actor_user_id', 'action', 'subject_type', 'subject_id', 'details'];
    const lines = [header.join(','), ...entries.map((e) => [e.id, e.createdAt, e.actorLabel, e.actorUserId, e.action, e.subjectType, e.subjectId, JSON.stringify(e.details)].map(csvField).join(','))];
    return reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="sixdigit-audit-${new Date().toISOString().slice(0, 10)}.csv"`)
      .send(`${lines.join('\r\n')}\r\n`);
  });
}
