import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { toWebHeaders } from '../../lib/http';
import { toCurrentUser, type CurrentUser } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    currentUser: CurrentUser | null;
    /** set while an administrator is impersonating this user */
    impersonatedBy: string | null;
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
