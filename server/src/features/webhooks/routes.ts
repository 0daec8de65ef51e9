import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CreateWebhookBody,
  CreatedWebhook,
  DeliveryParams,
  ResendResponse,
  TestEventQueued,
  ToggleWebhookBody,
  Webhook,
  WebhookIdParams,
  WebhookLogEntry,
  WebhookLogsQuery,
} from '@common/contract/webhooks';
import { NoContent } from '@common/contract/shared';
import { ModeQuery } from '@common/contract/business';
import { z } from 'zod';
import { refuseWhileImpersonating, requireUser } from '../auth/guards';
import * as service from './service';

/** Webhook management for the business dashboard (session cookie). */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  // Signing secrets and endpoints belong to the owner: an impersonating admin could send events anywhere.
  app.addHook('onRequest', refuseWhileImpersonating('Webhooks are not available while impersonating a user.'));
  const ctx = app.ctx;
  const owner = (request: FastifyRequest) => service.ownerOfUser(ctx, request.currentUser!);

  // ?mode=test: the test endpoints and their deliveries (live by default).
  r.get('/api/webhooks', { schema: { querystring: ModeQuery, response: { 200: z.array(Webhook) } } }, async (request) =>
    (await service.listEndpoints(ctx, await owner(request), request.query.mode === 'live')).map(service.toView),
  );

  r.get('/api/webhooks/logs', { schema: { querystring: WebhookLogsQuery, response: { 200: z.array(WebhookLogEntry) } } }, async (request) =>
    service.listLogs(ctx, await owner(request), request.query.limit, request.query.mode === 'live'),
  );

  r.post(
    '/api/webhooks',
    {
      config: { carriesSecret: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { body: CreateWebhookBody, response: { 201: CreatedWebhook } },
    },
    async (request, reply) => {
      const { webhook, secret } = await service.createEndpoint(ctx, await owner(request), request.body);
      return reply.status(201).send({ ...service.toView(webhook), secret });
    },
  );

  r.delete('/api/webhooks/:id', { schema: { params: WebhookIdParams, response: { 204: NoContent } } }, async (request, reply) => {
    await service.deleteEndpoint(ctx, await owner(request), request.params.id);
    return reply.status(204).send();
  });

  r.patch('/api/webhooks/:id/toggle', { schema: { params: WebhookIdParams, body: ToggleWebhookBody, response: { 200: Webhook } } }, async (request) =>
    service.toView(await service.updateEndpoint(ctx, await owner(request), request.params.id, { isActive: request.body.isActive })),
  );

  // Re-sends one delivery from the log, with its original webhook-id (owner only: see the hooks above).
  r.post(
    '/api/webhooks/logs/:id/resend',
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } }, schema: { params: DeliveryParams, response: { 202: ResendResponse } } },
    async (request, reply) => reply.status(202).send(await service.resendDelivery(ctx, await owner(request), request.params.id)),
  );

  r.post(
    '/api/webhooks/:id/test',
    { config: { rateLimit: { max: 10, timeWindow: '1 minute' } }, schema: { params: WebhookIdParams, response: { 202: TestEventQueued } } },
    async (request, reply) => {
      await service.sendTestEvent(ctx, await owner(request), request.params.id);
      return reply.status(202).send({ queued: true });
    },
  );
}
