import type { FastifyInstance } from 'fastify';
import { paiseToDecimalString } from '@common/pricing';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { searchAuditEntries, type AuditFilter } from '../audit/repo';
import { lastBeat, pingDatabase } from '../health/repo';
import * as contactRepo from '../contact/repo';
import { deskView as contactDeskView } from '../contact/service';
import * as financial from '../financial/service';
import { setUserRole, type Actor } from '../users/service';
import * as usersRepo from '../users/repo';
import { WORKER_HEARTBEAT_PREFIX } from '../webhooks/worker';
import * as repo from './repo';

/** A worker that has not beaten for this long is shown as down. */
const WORKER_STALE_MS = 60_000;

async function timed<T>(work: () => Promise<T>): Promise<{ ok: boolean; latencyMs: number | null }> {
  const started = performance.now();
  try {
    await work();
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch {
    return { ok: false, latencyMs: null };
  }
}

const auditView = (e: Awaited<ReturnType<typeof searchAuditEntries>>['entries'][number]) => ({
  id: e.id,
  actorLabel: e.actorLabel,
  actorUserId: e.actorUserId,
  action: e.action,
  subjectType: e.subjectType,
  subjectId: e.subjectId,
  details: e.details,
  createdAt: e.createdAt.toISOString(),
  impersonatedBy: e.action === 'impersonation.write' ? e.actorUserId : null,
});

/** The admin dashboard: every figure read from the database (or measured) now. */
export async function dashboard(app: FastifyInstance, now = new Date()) {
  const ctx = app.ctx;
  const [totals, overview, pending, outbox, beatAt, database, redis, activity, escalated] = await Promise.all([
    repo.dashboardTotals(ctx.db, financial.startOfIstDay(now)),
    repo.paymentOverview(ctx.db),
    financial.pendingApprovals(ctx),
    repo.outboxStats(ctx.db, now),
    lastBeat(ctx.db, WORKER_HEARTBEAT_PREFIX),
    timed(() => pingDatabase(ctx.db)),
    app.redis ? timed(() => app.redis!.ping()) : Promise.resolve(null),
    searchAuditEntries(ctx.db, {}, { offset: 0, limit: 10 }),
    contactRepo.listByStatus(ctx.db, 'escalated', 50),
  ]);
  const forAdmin = escalated.filter((m) => m.escalatedTo === 'admin');
  return {
    totals: {
      users: totals.users,
      activeApiKeys: totals.activeApiKeys,
      verificationsToday: totals.verificationsToday,
      revenueToday: paiseToDecimalString(totals.revenueTodayPaise),
    },
    pendingApprovals: { count: overview.pending, amount: paiseToDecimalString(overview.pendingPaise), items: pending.slice(0, 5) },
    service: {
      database,
      redis: redis ? { configured: true, ...redis } : { configured: false, ok: null, latencyMs: null },
      webhooks: { outboxDepth: outbox.depth, oldestDueAgeSeconds: outbox.oldestDueAt ? Math.max(0, Math.round((now.getTime() - outbox.oldestDueAt.getTime()) / 1000)) : null },
      worker: {
        enabled: ctx.config.webhookWorker,
        lastHeartbeatAt: beatAt?.toISOString() ?? null,
        ok: beatAt !== null && now.getTime() - beatAt.getTime() < WORKER_STALE_MS,
      },
    },
    recentActivity: activity.entries.map(auditView),
    // Refunds and messages a financial manager sent up: the admin's queue (answered on the desk).
    escalatedMessages: { count: forAdmin.length, items: forAdmin.slice(0, 5).map(contactDeskView) },
  };
}

export async function payments(ctx: AppContext) {
  const [overview, pending, recent] = await Promise.all([repo.paymentOverview(ctx.db), financial.pendingApprovals(ctx), financial.recentlyProcessed(ctx, 5)]);
  return {
    counts: { pending: overview.pending, approved: overview.approved, rejected: overview.rejected },
    pendingAmount: paiseToDecimalString(overview.pendingPaise),
    avgProcessingSeconds: overview.avgProcessingSeconds,
    pending,
    recent,
  };
}

export async function roles(ctx: AppContext) {
  return { admin: { email: ctx.config.adminEmail }, financialManagers: await repo.listFinancialManagers(ctx.db) };
}

export async function assignFinancialManager(ctx: AppContext, email: string, actor: Actor) {
  const user = await setUserRole(ctx.db, ctx.config.adminEmail, { email, role: 'financial_manager' }, actor);
  return { user: { id: user.id, email: user.email, role: user.role } };
}

export async function removeFinancialManager(ctx: AppContext, email: string, actor: Actor) {
  const existing = await usersRepo.findUserByEmail(ctx.db, email.trim().toLowerCase());
  if (!existing) throw new AppError('not_found', `No user with e-mail ${email.trim().toLowerCase()}. They must sign in once first.`);
  if (existing.role !== 'financial_manager') throw new AppError('conflict', `${existing.email} is not a Financial Manager.`);
  const user = await setUserRole(ctx.db, ctx.config.adminEmail, { email, role: 'user' }, actor);
  return { user: { id: user.id, email: user.email, role: user.role } };
}

export interface AuditQuery extends AuditFilter {
  page: number;
  pageSize: number;
}

export async function audit(ctx: AppContext, query: AuditQuery) {
  const { page, pageSize, ...filter } = query;
  const result = await searchAuditEntries(ctx.db, filter, { offset: (page - 1) * pageSize, limit: pageSize });
  return { entries: result.entries.map(auditView), total: result.total, page, pageSize };
}

/** Every matching entry (up to 50,000) for the CSV export and `audit:list`. */
export async function auditAll(ctx: AppContext, filter: AuditFilter) {
  return (await searchAuditEntries(ctx.db, filter, { offset: 0, limit: 50_000 })).entries.map(auditView);
}
