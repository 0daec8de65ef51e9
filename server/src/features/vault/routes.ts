import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoContent } from '@common/contract/shared';
import { CreateVaultBody, DeleteEntryQuery, EntryParams, PutEntryBody, PutKeysBody, VaultEntry, VaultHeader, VaultQuery, VaultState } from '@common/contract/vault';
import { requireUser } from '../auth/guards';
import { perUser, refuseWhileImpersonating } from '../authenticator/guard';
import * as service from './service';

/**
 * /api/user/vault*: the person's own encrypted authenticator vault (session cookie). Refused
 * while impersonating: an administrator acting as someone never even gets the ciphertext.
 */
export async function vaultRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  app.addHook('onRequest', refuseWhileImpersonating);
  const ctx = app.ctx;

  r.get('/api/user/vault', { schema: { querystring: VaultQuery, response: { 200: VaultState } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.getState(ctx, request.currentUser!, request.query.since)),
  );

  r.post(
    '/api/user/vault',
    { config: { rateLimit: perUser(10, '1 minute') }, bodyLimit: 24 * 1024 * 1024, schema: { body: CreateVaultBody, response: { 201: VaultState } } },
    async (request, reply) => reply.status(201).header('cache-control', 'no-store').send(await service.createVault(ctx, request.currentUser!, request.body)),
  );

  r.delete('/api/user/vault', { config: { rateLimit: perUser(5, '1 minute') }, schema: { response: { 204: NoContent } } }, async (request, reply) => {
    await service.deleteVault(ctx, request.currentUser!);
    return reply.status(204).send();
  });

  r.put(
    '/api/user/vault/entries/:id',
    { config: { rateLimit: perUser(300, '1 minute') }, bodyLimit: 64 * 1024, schema: { params: EntryParams, body: PutEntryBody, response: { 200: VaultEntry } } },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await service.putEntry(ctx, request.currentUser!, request.params.id, request.body)),
  );

  r.delete(
    '/api/user/vault/entries/:id',
    { config: { rateLimit: perUser(300, '1 minute') }, schema: { params: EntryParams, querystring: DeleteEntryQuery, response: { 200: VaultEntry } } },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await service.deleteEntry(ctx, request.currentUser!, request.params.id, request.query.baseVersion)),
  );

  r.put(
    '/api/user/vault/keys',
    { config: { rateLimit: perUser(20, '1 minute') }, schema: { body: PutKeysBody, response: { 200: VaultHeader } } },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await service.putKeys(ctx, request.currentUser!, request.body)),
  );
}
