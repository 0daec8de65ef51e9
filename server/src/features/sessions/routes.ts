import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoContent } from '@common/contract/shared';
import { SessionIdParams, SessionsRevoked, UserSessions } from '@common/contract/sessions';
import { refuseWhileImpersonating, requireUser } from '../auth/guards';
import { perUser } from '../authenticator/guard';
import { IMPERSONATION_REFUSED } from '../auth/second-factor';
import * as service from './service';

/** "Signed-in devices" on the security page (issue 19): see and end one's own sessions. */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  app.addHook('onRequest', refuseWhileImpersonating(IMPERSONATION_REFUSED));
  const ctx = app.ctx;

  r.get('/api/user/sessions', { schema: { response: { 200: UserSessions } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.list(ctx, request.currentUser!, request.sessionId!)),
  );

  r.delete('/api/user/sessions/:id', { config: { rateLimit: perUser(30, '1 minute') }, schema: { params: SessionIdParams, response: { 204: NoContent } } }, async (request, reply) => {
    await service.revoke(ctx, request.currentUser!, request.sessionId!, request.params.id);
    return reply.status(204).send();
  });

  r.post('/api/user/sessions/revoke-others', { config: { rateLimit: perUser(10, '1 minute') }, schema: { response: { 200: SessionsRevoked } } }, async (request) =>
    service.revokeOthers(ctx, request.currentUser!, request.sessionId!),
  );
}
