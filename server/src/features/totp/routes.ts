import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GeneratedCode, SetupTotpBody, TotpSetupResult, TotpStatus } from '@common/contract/totp';
import { requireUser } from '../auth/guards';
import { perUser, refuseWhileImpersonating } from '../authenticator/guard';
import * as service from './service';

/** The signed-in person's own account TOTP (/totp, SPEC.md §2 and §7). */
export async function accountTotpRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  const ctx = app.ctx;

  r.get('/api/user/totp-status', { schema: { response: { 200: TotpStatus } } }, async (request) => service.status(ctx, request.currentUser!));

  r.post(
    '/api/user/setup-totp',
    {
      onRequest: [refuseWhileImpersonating],
      config: { carriesSecret: true, rateLimit: perUser(10, '15 minutes') },
      schema: { body: SetupTotpBody, response: { 201: TotpSetupResult } },
    },
    async (request, reply) =>
      reply.status(201).header('cache-control', 'no-store').send(await service.setup(ctx, request.currentUser!, { reset: request.body?.reset === true })),
  );

  // Polled every 30 s by the page (SPEC.md §7), plus its Refresh button.
  r.get('/api/user/generate-totp', { onRequest: [refuseWhileImpersonating], config: { rateLimit: perUser(60, '1 minute') }, schema: { response: { 200: GeneratedCode } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.currentCode(ctx, request.currentUser!)),
  );
}
