import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { toWebHeaders } from '../../lib/http';
import { toCurrentUser, type CurrentUser } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    currentUser: CurrentUser | null;
    /** set while an administrator is impersonating this user */
    impersonatedBy: string | null;
    /** the sign-in session's id (admin MFA is verified per session) */
    sessionId: string | null;
  }
}

/** Reads the session cookie (if any) once per request. */
export async function loadCurrentUser(request: FastifyRequest): Promise<CurrentUser | null> {
  if (request.currentUser) return request.currentUser;
  const { auth, config } = request.server.ctx;
  const session = await auth.api.getSession({ headers: toWebHeaders(request.headers) });
  if (!session) return null;
  request.currentUser = toCurrentUser(session.user, config.adminEmail);
  request.impersonatedBy = (session.session as { impersonatedBy?: string | null }).impersonatedBy ?? null;
  request.sessionId = session.session.id;
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
