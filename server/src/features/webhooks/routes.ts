import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refuseWhileImpersonating, requireUser } from '../auth/guards';
import { DeliveryParams, ResendResponse } from './schemas';
import * as service from './service';

const webhookId = z.object({ id: z.string().min(1).max(40) });

/** Webhook management for the business dashboard (session cookie). */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  // Signing secrets and endpoints belong to the owner: an impersonating admin could send events anywhere.
  app.addHook('onRequest', refuseWhileImpersonating('Webhooks are not available while impersonating a user.'));
  const ctx = app.ctx;

  r.get('/api/webhooks', async (request) => service.listWebhooks(ctx, request.currentUser!));

  r.get('/api/webhooks/logs', { schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).optional() }) } }, async (request) =>
    service.listLogs(ctx, request.currentUser!, request.query.limit),
  );

  r.post(
    '/api/webhooks',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        // Missing url/events fall through to the service, which answers SPEC §5's message.
        body: z.object({
          url: z.string().max(2048).default(''),
          events: z.array(z.string().max(40)).max(10).default([]),
          secret: z.string().max(200).optional(),
        }),
      },
    },
    async (request, reply) => reply.status(201).send(await service.createWebhook(ctx, request.currentUser!, request.body)),
  );

  r.delete('/api/webhooks/:id', { schema: { params: webhookId } }, async (request, reply) => {
    await service.deleteWebhook(ctx, request.currentUser!, request.params.id);
    return reply.status(204).send();
  });

  r.patch('/api/webhooks/:id/toggle', { schema: { params: webhookId, body: z.object({ isActive: z.boolean() }) } }, async (request) =>
    service.toggleWebhook(ctx, request.currentUser!, request.params.id, request.body.isActive),
  );

  // Re-sends one delivery from the log, with its original webhook-id (owner only: see the hooks above).
  r.post(
    '/api/webhooks/logs/:id/resend',
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } }, schema: { params: DeliveryParams, response: { 202: ResendResponse } } },
    async (request, reply) => reply.status(202).send(await service.resendDelivery(ctx, request.currentUser!, request.params.id)),
  );

  r.post(
    '/api/webhooks/:id/test',
    { config: { rateLimit: { max: 10, timeWindow: '1 minute' } }, schema: { params: webhookId } },
    async (request, reply) => reply.status(202).send(await service.sendTestEvent(ctx, request.currentUser!, request.params.id)),
  );
}
