import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadCurrentUser, requireUser } from '../auth/guards';
import { storableText } from '../verify/schemas';
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
      schema: {
        body: z.object({
          email: z.email('email: enter a valid e-mail address.').max(320).optional(),
          category: z.enum(['general', 'technical', 'payment', 'refund']).default('general'),
          subject: storableText().trim().min(1, 'Missing information - Please fill in subject and message').max(200),
          message: storableText().trim().min(1, 'Missing information - Please fill in subject and message').max(5000),
        }),
      },
    },
    async (request, reply) => {
      const user = await loadCurrentUser(request);
      return reply.status(201).send(await service.submit(ctx, user, request.body));
    },
  );

  r.get('/api/contact/mine', { onRequest: [requireUser] }, async (request) => service.mine(ctx, request.currentUser!));

  r.get(
    '/api/contact/status',
    {
      config: { rateLimit: byAddress(20, '10 minutes') },
      schema: { querystring: z.object({ reference: z.string().trim().min(1).max(20), email: z.string().trim().min(3).max(320) }) },
    },
    async (request) => service.status(ctx, request.query.reference, request.query.email),
  );
}
