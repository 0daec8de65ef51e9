import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ContactStatusAnswer, ContactStatusQuery, MyMessages, SendContactBody, SentContact } from '@common/contract/contact';
import { loadCurrentUser, requireUser } from '../auth/guards';
import * as service from './service';

const byAddress = (max: number, timeWindow: string) => ({ max, timeWindow, keyGenerator: (request: FastifyRequest) => `contact:${request.ip}` });

/** The contact desk for senders (SPEC "Contact"); the desk's side lives in features/financial. */
export async function contactRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.post(
    '/api/contact',
    {
      config: { rateLimit: byAddress(5, '10 minutes') },
      schema: { body: SendContactBody, response: { 201: SentContact } },
    },
    async (request, reply) => {
      const user = await loadCurrentUser(request);
      return reply.status(201).send(await service.submit(ctx, user, request.body));
    },
  );

  r.get('/api/contact/mine', { onRequest: [requireUser], schema: { response: { 200: MyMessages } } }, async (request) => service.mine(ctx, request.currentUser!));

  r.get(
    '/api/contact/status',
    {
      config: { rateLimit: byAddress(20, '10 minutes') },
      schema: { querystring: ContactStatusQuery, response: { 200: ContactStatusAnswer } },
    },
    async (request) => service.status(ctx, request.query.reference, request.query.email),
  );
}
