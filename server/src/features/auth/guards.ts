import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { toWebHeaders } from '../../lib/http';
import { touchSession } from '../sessions/repo';
import { toCurrentUser, type CurrentUser } from './service';

/** How stale a session's "last seen" may get before a request moves it (one write per few minutes). */
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    currentUser: CurrentUser | null;
    /** set while an administrator is impersonating this user */
    impersonatedBy: string | null;
    /** the sign-in session's id (admin MFA is verified per session) */
    sessionId: string | null;
    /** the session is half signed in (issue 19); only SECOND_STEP_ROUTES ever see it true */
    secondFactorPending: boolean;
  }
}

/**
 * The only routes a half-signed-in session may reach: the second step itself (a code, a backup
 * code, a passkey) and sign-out. Everything else answers 401 second_factor_required, enforced
 * here because every cookie route reads its user through loadCurrentUser.
 */
export const SECOND_STEP_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/auth/second-factor',
  'POST /api/auth/passkey/options',
  'POST /api/auth/passkey/verify',
  'GET /api/logout',
]);

const routeKey = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url ?? ''}`;

/** Reads the session cookie (if any) once per request. */
export async function loadCurrentUser(request: FastifyRequest): Promise<CurrentUser | null> {
  if (request.currentUser) return request.currentUser;
  const { auth, config } = request.server.ctx;
  const session = await auth.api.getSession({ headers: toWebHeaders(request.headers) });
  if (!session) return null;
  const { impersonatedBy = null, secondFactorPending } = session.session as { impersonatedBy?: string | null; secondFactorPending?: boolean | number | null };
  const pending = Boolean(secondFactorPending) && !impersonatedBy;
  if (pending && !SECOND_STEP_ROUTES.has(routeKey(request))) {
    throw new AppError('second_factor_required', 'Enter the code from your authenticator app to finish signing in.');
  }
  request.currentUser = toCurrentUser(session.user, config.adminEmail);
  request.impersonatedBy = impersonatedBy;
  request.sessionId = session.session.id;
  request.secondFactorPending = pending;
  const now = new Date();
  if (now.getTime() - new Date(session.session.updatedAt).getTime() > LAST_SEEN_RESOLUTION_MS) await touchSession(request.server.ctx.db, session.session.id, now);
  return request.currentUser;
}

/** onRequest hook: a signed-in user, else 401 in the one envelope. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  const user = await loadCurrentUser(request);
  if (!user) throw new AppError('unauthorized', 'Sign in to continue.');
}

export function requireRole(...roles: CurrentUser['role'][]) {
  return async (request: FastifyRequest): Promise<void> => {
    const user = await loadCurrentUser(request);
    if (!user) throw new AppError('unauthorized', 'Sign in to continue.');
    if (!roles.includes(user.role)) throw new AppError('forbidden', "You don't have permission to access this area.");
  };
}

/** onRequest hook factory: refuses while an administrator is acting as this user. */
export function refuseWhileImpersonating(message: string) {
  return async (request: FastifyRequest): Promise<void> => {
    await loadCurrentUser(request);
    if (request.impersonatedBy) throw new AppError('impersonation_forbidden', message);
  };
}
