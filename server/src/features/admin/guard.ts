import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { loadCurrentUser } from '../auth/guards';
import type { CurrentUser } from '../auth/service';
import { verifiedUntil } from './mfa-service';

/**
 * The administrator's identity, without MFA: the one account whose e-mail is ADMIN_EMAIL, acting
 * as itself (an administrator impersonating someone is that someone until they exit).
 */
export async function requireAdminIdentity(request: FastifyRequest): Promise<CurrentUser> {
  const user = await loadCurrentUser(request);
  if (!user) throw new AppError('unauthorized', 'Sign in to continue.');
  if (request.impersonatedBy) throw new AppError('impersonation_forbidden', 'Admin tools are not available while impersonating a user. Exit the impersonation first.');
  if (!user.isAdmin) throw new AppError('forbidden', 'Only the system administrator can do this.');
  return user;
}

/**
 * THE guard for every admin power: the administrator, with MFA verified in this session within
 * the last 30 minutes. Used as an onRequest hook by /api/admin/* and called inside any other
 * route when the caller acting there is the administrator (financial desk decisions, grants).
 */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  await assertAdminWithFreshMfa(request);
}

export async function assertAdminWithFreshMfa(request: FastifyRequest, now = new Date()): Promise<CurrentUser> {
  const user = await requireAdminIdentity(request);
  const until = request.sessionId ? await verifiedUntil(request.server.ctx, user, request.sessionId, now) : null;
  if (!until) throw new AppError('mfa_required', 'Verify your authenticator code to use the admin tools (valid for 30 minutes).');
  return user;
}
