import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DisableTotpBody,
  GeneratedCode,
  NewBackupCodes,
  SetupTotpBody,
  TotpChanged,
  TotpCheckResult,
  TotpCodeBody,
  TotpProofBody,
  TotpSetupResult,
  TotpStatus,
} from '@common/contract/totp';
import { refuseWhileImpersonating as refuseImpersonation, requireUser } from '../auth/guards';
import { IMPERSONATION_REFUSED } from '../auth/second-factor';
import { perUser, refuseWhileImpersonating } from '../authenticator/guard';
import * as service from './service';

/** The signed-in person's own account TOTP (/totp, SPEC.md §2 and §7; a second factor since issue 19). */
export async function accountTotpRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  const ctx = app.ctx;
  // Guessing is limited per account in the database (service.ts); these per-user limits only
  // keep one session from hammering the routes.
  // Issue 19: an administrator acting as the person never sees or changes their second factor.
  const notImpersonating = refuseImpersonation(IMPERSONATION_REFUSED);
  const proofRoute = { onRequest: [notImpersonating], config: { rateLimit: perUser(10, '1 minute') } };

  r.get('/api/user/totp-status', { onRequest: [notImpersonating], schema: { response: { 200: TotpStatus } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.status(ctx, request.currentUser!)),
  );

  r.post(
    '/api/user/setup-totp',
    {
      onRequest: [refuseWhileImpersonating],
      config: { carriesSecret: true, rateLimit: perUser(10, '15 minutes') },
      schema: { body: SetupTotpBody, response: { 201: TotpSetupResult } },
    },
    async (request, reply) => reply.status(201).header('cache-control', 'no-store').send(await service.setup(ctx, request.currentUser!)),
  );

  r.post('/api/user/confirm-totp', { ...proofRoute, schema: { body: TotpCodeBody, response: { 200: TotpChanged } } }, async (request) =>
    service.confirm(ctx, request.currentUser!, request.sessionId!, request.body.code),
  );

  r.post('/api/user/check-totp', { ...proofRoute, schema: { body: TotpCodeBody, response: { 200: TotpCheckResult } } }, async (request) =>
    service.check(ctx, request.currentUser!, request.body.code),
  );

  r.post('/api/user/totp-backup-codes', { ...proofRoute, config: { ...proofRoute.config, carriesSecret: true }, schema: { body: TotpProofBody, response: { 200: NewBackupCodes } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.regenerateBackupCodes(ctx, request.currentUser!, request.sessionId!, request.body)),
  );

  r.post('/api/user/disable-totp', { ...proofRoute, schema: { body: DisableTotpBody, response: { 200: TotpChanged } } }, async (request) => {
    const body = request.body;
    const proof = body && ('code' in body || 'backupCode' in body) ? (body as service.Proof) : null;
    return service.disable(ctx, request.currentUser!, request.sessionId!, proof);
  });

  // Only while the setup is pending (compare with the phone); polled by the page then.
  r.get('/api/user/generate-totp', { onRequest: [refuseWhileImpersonating], config: { rateLimit: perUser(60, '1 minute') }, schema: { response: { 200: GeneratedCode } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.currentCode(ctx, request.currentUser!)),
  );
}
