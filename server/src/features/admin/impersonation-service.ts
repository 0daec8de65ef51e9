import type { ImpersonationView } from '@common/contract/admin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/errors';
import { forwardSetCookies, toWebHeaders } from '../../lib/http';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import { queueMail } from '../mail/outbox';
import type { ImpersonationApi } from '../auth/auth';
import type { CurrentUser } from '../auth/service';
import * as usersRepo from '../users/repo';
import * as repo from './impersonation-repo';

/** An impersonation ends by itself after 30 minutes (the library's session is made to expire then). */
export const IMPERSONATION_MINUTES = 30;
const NOTICE_KIND = 'impersonation';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const view = (i: repo.Impersonation): ImpersonationView => ({
  id: i.id,
  adminEmail: i.adminEmail,
  userId: i.targetUserId,
  userEmail: i.targetEmail,
  reason: i.reason,
  startedAt: i.startedAt.toISOString(),
  expiresAt: i.expiresAt.toISOString(),
});

/** The impersonation this request runs under, if any (for the banner in GET /api/auth/user). */
export async function currentImpersonation(ctx: AppContext, request: FastifyRequest): Promise<ImpersonationView | null> {
  if (!request.impersonatedBy || !request.sessionId) return null;
  const found = await repo.findBySession(ctx.db, request.sessionId);
  return found ? view(found) : null;
}

/**
 * Starts acting as `userId`: better-auth's impersonation (called here, server-side, never over
 * HTTP) swaps the session cookie for a 30-minute session of the user that records the admin
 * beside it, and keeps the admin's own session aside for the way back.
 */
export async function start(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, admin: CurrentUser, input: { userId: string; reason: string }, now = new Date()) {
  const target = await usersRepo.findUserById(ctx.db, input.userId);
  if (!target) throw new AppError('not_found', 'No user with that id.');
  if (target.email === ctx.config.adminEmail) throw new AppError('conflict', 'The administrator cannot impersonate their own account.');
  const { headers, response } = await (ctx.auth.api as unknown as ImpersonationApi).impersonateUser({
    body: { userId: target.id },
    headers: toWebHeaders(request.headers),
    returnHeaders: true,
  });
  const expiresAt = new Date(response.session.expiresAt);
  const impersonation: Omit<repo.Impersonation, 'endedAt'> = {
    id: newId('imp'),
    adminUserId: admin.id,
    adminEmail: admin.email,
    targetUserId: target.id,
    targetEmail: target.email,
    sessionId: response.session.id,
    reason: input.reason,
    startedAt: now,
    expiresAt,
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.closeStale(trx, admin.id, now);
      // The unique index on the administrator's open impersonation refuses a second one here,
      // even when two admin sessions start at the same moment.
      await repo.insertImpersonation(trx, impersonation);
      // The person is told afterwards: the notice appears when the impersonation ends.
      await repo.insertNotice(trx, {
        id: newId('ntc'),
        userId: target.id,
        kind: NOTICE_KIND,
        subjectId: impersonation.id,
        message: `The administrator (${admin.email}) signed in as you on ${now.toISOString()} to help with your account. Reason: ${input.reason}`,
        details: { adminEmail: admin.email, reason: input.reason, startedAt: now.toISOString(), expiresAt: expiresAt.toISOString() },
        visibleFrom: expiresAt,
        now,
      });
      await insertAuditEntry(
        trx,
        { actorUserId: admin.id, actorLabel: admin.email, action: 'impersonation.started', subjectType: 'user', subjectId: target.id, details: { impersonationId: impersonation.id, email: target.email, reason: input.reason, expiresAt: expiresAt.toISOString() } },
        now,
      );
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Refused: the session made for it must not act, and its cookies are never sent.
    await repo.deleteSession(ctx.db, impersonation.sessionId);
    const running = await repo.findLive(ctx.db, admin.id, now);
    const what = running ? ` (as ${running.targetEmail} since ${running.startedAt.toISOString()}, until ${running.expiresAt.toISOString()})` : '';
    throw new AppError('impersonation_active', `An impersonation is already running${what}. Exit it first, or wait until it expires: only one may run at a time.`);
  }
  forwardSetCookies(headers, reply);
  return { impersonation: view({ ...impersonation, endedAt: null }) };
}

/** What /admin/impersonation shows: the impersonation acting now, if any (from any admin session). */
export async function live(ctx: AppContext, admin: CurrentUser, now = new Date()) {
  const found = await repo.findLive(ctx.db, admin.id, now);
  return { live: found ? view(found) : null };
}

/**
 * Records that the impersonation running in `sessionId` is over: the row closed, the
 * `impersonation.ended` audit entry, and the user's notice shown now. Once, however it ends
 * (/stop, sign-out), even when two of them race.
 */
async function recordEnd(ctx: AppContext, sessionId: string, now: Date): Promise<void> {
  const found = await repo.findBySession(ctx.db, sessionId);
  if (!found) return;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.markEnded(trx, found.id, now))) return;
    await repo.showNoticeNow(trx, NOTICE_KIND, found.id, now);
    const details = { impersonationId: found.id, email: found.targetEmail, minutes: Math.round((now.getTime() - found.startedAt.getTime()) / 60000) };
    await insertAuditEntry(trx, { actorUserId: found.adminUserId, actorLabel: found.adminEmail, action: 'impersonation.ended', subjectType: 'user', subjectId: found.targetUserId, details }, now);
    // The notice also by e-mail: a security notice, always sent, so the person learns of it without signing in.
    await queueMail(trx, {
      to: { userId: found.targetUserId },
      template: 'impersonated',
      data: { adminEmail: found.adminEmail, reason: found.reason || null, startedAt: found.startedAt.toISOString(), endedAt: now.toISOString() },
      now,
    });
  });
}

/** The library's swap back to the administrator's own session, and the end recorded: /stop and sign-out both end an impersonation here. */
async function end(ctx: AppContext, request: FastifyRequest, now: Date): Promise<Headers> {
  if (!request.impersonatedBy || !request.sessionId) throw new AppError('conflict', 'You are not impersonating anyone.');
  const { headers } = await (ctx.auth.api as unknown as ImpersonationApi).stopImpersonating({ headers: toWebHeaders(request.headers), returnHeaders: true });
  await recordEnd(ctx, request.sessionId, now);
  return headers;
}

/** Back to the administrator's own session; the user's notice becomes visible. */
export async function stop(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, now = new Date()) {
  forwardSetCookies(await end(ctx, request, now), reply);
  return { ok: true as const };
}

/**
 * Sign-out while impersonating: ends the impersonation exactly as /stop does, then answers the
 * request's headers as the administrator's own session, which the caller signs out next (the
 * person at this browser is leaving: neither session may outlive the click).
 */
export async function endForSignOut(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, now = new Date()): Promise<Headers> {
  let swapped: Headers;
  try {
    swapped = await end(ctx, request, now);
  } catch (err) {
    // The administrator's own session is already gone (expired, reset): still end the
    // impersonation, and sign out the session acting as the user.
    request.log.warn({ err }, 'sign-out during an impersonation: no administrator session to return to');
    if (request.sessionId) await recordEnd(ctx, request.sessionId, now);
    return toWebHeaders(request.headers);
  }
  forwardSetCookies(swapped, reply);
  const jar = new Map(
    (request.headers.cookie ?? '')
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  );
  for (const setCookie of swapped.getSetCookie()) {
    const [pair = '', ...attributes] = setCookie.split(';');
    const name = pair.slice(0, pair.indexOf('='));
    const value = pair.slice(pair.indexOf('=') + 1);
    if (value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) jar.delete(name);
    else jar.set(name, value);
  }
  const headers = toWebHeaders(request.headers);
  headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
  return headers;
}

/**
 * onResponse hook: every write made while impersonating is in the audit log, with the
 * administrator as the actor and the user as the subject (refused writes are not writes).
 */
export async function auditImpersonatedWrite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!request.impersonatedBy || SAFE_METHODS.has(request.method) || reply.statusCode >= 400 || !request.currentUser) return;
  const route = request.routeOptions.url ?? request.url.split('?')[0];
  if (route === '/api/admin/impersonation/stop') return;
  await insertAuditEntry(request.server.ctx.db, {
    actorUserId: request.impersonatedBy,
    actorLabel: `impersonating ${request.currentUser.email}`,
    action: 'impersonation.write',
    subjectType: 'user',
    subjectId: request.currentUser.id,
    details: { method: request.method, route, status: reply.statusCode },
  });
}

export async function notices(ctx: AppContext, user: CurrentUser, now = new Date()) {
  const rows = await repo.listVisibleNotices(ctx.db, user.id, now);
  return {
    notices: rows.map((n) => ({
      id: n.id,
      kind: n.kind,
      message: n.message,
      adminEmail: typeof n.details.adminEmail === 'string' ? n.details.adminEmail : null,
      reason: typeof n.details.reason === 'string' ? n.details.reason : null,
      startedAt: typeof n.details.startedAt === 'string' ? n.details.startedAt : null,
      endedAt: n.visibleFrom.toISOString(),
      createdAt: n.createdAt.toISOString(),
      readAt: n.readAt?.toISOString() ?? null,
    })),
  };
}

export async function markNoticeRead(ctx: AppContext, user: CurrentUser, id: string, now = new Date()) {
  if (!(await repo.markNoticeRead(ctx.db, user.id, id, now))) throw new AppError('not_found', 'No such notice.');
  return { ok: true as const };
}
