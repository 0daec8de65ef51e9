import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { loadCurrentUser } from '../auth/guards';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer carries a full credential of the signed-in person: an API key, a TOTP secret
     * (or its otpauth URI, QR or typing form), backup/recovery codes, a webhook signing secret.
     * Refused while an administrator impersonates them (`refuseSecretsWhileImpersonating`).
     * permissions.matrix.test.ts fails for any route whose response schema has such a field
     * and no flag.
     */
    carriesSecret?: boolean;
  }
}

/**
 * THE check that an impersonating administrator never receives someone's secret: one onRequest
 * hook for the whole app, reading the route's `carriesSecret` flag. An administrator acting as a
 * user helps them; a key, secret or backup code taken away would outlast the 30 minutes and the
 * audit trail (a key works until regenerated; a TOTP secret or backup code, until reset).
 */
export async function refuseSecretsWhileImpersonating(request: FastifyRequest): Promise<void> {
  if (request.routeOptions.config?.carriesSecret !== true) return;
  await loadCurrentUser(request);
  if (request.impersonatedBy) {
    throw new AppError('impersonation_forbidden', 'Keys, secrets and backup codes are not shown while impersonating a user. The user must do this themselves.');
  }
}
