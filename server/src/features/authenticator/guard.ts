import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';

/**
 * onRequest hook (after `requireUser`): an administrator impersonating someone acts as them,
 * but never sees or changes their authenticator secrets or account TOTP.
 */
export async function refuseWhileImpersonating(request: FastifyRequest): Promise<void> {
  if (request.impersonatedBy) {
    throw new AppError('impersonation_forbidden', "Authenticator secrets are not available while impersonating a user.");
  }
}

/** Rate limits count per signed-in user (several people may share one address). */
export function perUser(max: number, timeWindow: string) {
  return { max, timeWindow, keyGenerator: (request: FastifyRequest) => `user:${request.currentUser?.id ?? request.ip}` };
}
