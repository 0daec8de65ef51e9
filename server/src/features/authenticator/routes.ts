import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuthenticatorAccount } from '@common/contract/authenticator';
import { z } from 'zod';
import { requireUser } from '../auth/guards';
import { accountTotpRoutes } from '../totp/routes';
import { vaultRoutes } from '../vault/routes';
import { refuseWhileImpersonating } from './guard';
import * as service from './service';

/** Every /api/user/* call of the account TOTP and the personal authenticator (session cookie). */
export async function userTotpRoutes(app: FastifyInstance): Promise<void> {
  await app.register(accountTotpRoutes);
  await app.register(legacyAuthenticatorRoutes);
  await app.register(vaultRoutes);
}

/**
 * What is left of the server-side authenticator: one read, so that a person who still has
 * accounts stored the old way can move them into their vault (the browser reads them once,
 * encrypts them, and POST /api/user/vault deletes them in the transaction that stores the vault).
 * Nothing adds to this table any more; there is no server-side QR reading or code generation for
 * the authenticator (DESIGN.md: the vault the server cannot read).
 */
async function legacyAuthenticatorRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  const ctx = app.ctx;

  r.get('/api/user/totp-accounts', { onRequest: [refuseWhileImpersonating], config: { carriesSecret: true }, schema: { response: { 200: z.array(AuthenticatorAccount) } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.listAccounts(ctx, request.currentUser!)),
  );
}
