import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MfaConfirmBody, MfaConfirmed, MfaSetup, MfaSetupBody, MfaStatus, MfaVerified, MfaVerifyBody } from '@common/contract/admin';
import { requireAdminIdentity } from './guard';
import * as service from './mfa-service';

/**
 * The administrator's authenticator-app MFA (SPEC "Admin security setup"). These four routes need
 * the administrator's identity but not a fresh MFA (they are how it becomes fresh). Per-address
 * limits stop floods; the 5-failures-per-15-minutes rule is counted in the database.
 */
export async function adminMfaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const limit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  // Identity before the body is read: a stranger learns nothing from validation errors.
  app.addHook('onRequest', async (request) => {
    await requireAdminIdentity(request);
  });

  r.get('/api/admin/mfa/status', { config: limit, schema: { response: { 200: MfaStatus } } }, async (request, reply) => {
    const user = request.currentUser!;
    return reply.header('cache-control', 'no-store').send(await service.status(ctx, user, request.sessionId!));
  });

  // Needs the operator's one-time enrolment code as well: the cookie alone does not enrol an authenticator.
  r.post('/api/admin/mfa/setup', { config: { ...limit, carriesSecret: true }, schema: { body: MfaSetupBody, response: { 200: MfaSetup } } }, async (request, reply) => {
    const user = request.currentUser!;
    return reply.header('cache-control', 'no-store').send(await service.setup(ctx, user, request.body?.enrolmentCode));
  });

  r.post('/api/admin/mfa/confirm', { config: { ...limit, carriesSecret: true }, schema: { body: MfaConfirmBody, response: { 200: MfaConfirmed } } }, async (request, reply) => {
    const user = request.currentUser!;
    return reply.header('cache-control', 'no-store').send(await service.confirm(ctx, user, request.sessionId!, request.body.totpCode));
  });

  r.post(
    '/api/admin/mfa/verify',
    { config: limit, schema: { body: MfaVerifyBody, response: { 200: MfaVerified } } },
    async (request, reply) => {
      const user = request.currentUser!;
      return reply.header('cache-control', 'no-store').send(await service.verify(ctx, user, request.sessionId!, request.body));
    },
  );
}
