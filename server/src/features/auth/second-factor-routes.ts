import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoContent } from '@common/contract/shared';
import { SecondFactorBody } from '@common/contract/second-factor';
import { AppError } from '../../lib/errors';
import { completeSignIn } from '../totp/service';
import { loadCurrentUser } from './guards';
import { IMPERSONATION_REFUSED } from './second-factor';

/**
 * POST /api/auth/second-factor: the second step of a sign-in (issue 19), one of the routes a
 * half-signed-in session may reach (guards.ts SECOND_STEP_ROUTES). Wrong codes are limited per
 * account in the database (5 in 15 minutes); the per-address limit here only slows one client.
 */
export async function secondFactorRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/auth/second-factor',
    {
      // Before the body is read: who asks, then whether there is a second step to take.
      onRequest: async (request) => {
        if (!(await loadCurrentUser(request))) throw new AppError('unauthorized', 'Sign in first.');
        if (request.impersonatedBy) throw new AppError('impersonation_forbidden', IMPERSONATION_REFUSED);
        if (!request.secondFactorPending) throw new AppError('conflict', 'This session is already signed in.');
      },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { body: SecondFactorBody, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await completeSignIn(app.ctx, request.currentUser!, request.sessionId!, request.body);
      return reply.status(204).header('cache-control', 'no-store').send();
    },
  );
}
