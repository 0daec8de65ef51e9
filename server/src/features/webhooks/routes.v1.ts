import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorEnvelope, IdempotencyHeaders } from '../verify/schemas';
import {
  CreateEndpointBody,
  CreatedEndpoint,
  DeliveryList,
  EndpointList,
  EndpointObject,
  EndpointParams,
  ListDeliveriesQuery,
  ListEndpointsQuery,
  TestEventQueued,
  UpdateEndpointBody,
} from './schemas.v1';
import * as service from './service';

const notFound = ErrorEnvelope.describe('No webhook endpoint with that id for your business (not_found)');

/**
 * Webhook endpoints over the public API, registered inside the v1 plugin (verify/routes.v1.ts) so
 * the key check, per-key rate limit and API headers apply, on /api/v1 and the /v1 alias alike.
 * The rules are the dashboard's (service.ts); another business's id is 404 like a missing one.
 */
export async function webhookEndpointRoutesV1(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  // The one place a request's key becomes the owner the service works for.
  const owner = (request: FastifyRequest) => service.ownerOfApiKey(request.business!, request.livemode);
  const common = { tags: ['webhook endpoints'], security: [{ apiKey: [] }] };

  r.get(
    '/webhook_endpoints',
    {
      schema: {
        ...common,
        summary: 'List your webhook endpoints, newest first',
        querystring: ListEndpointsQuery,
        response: { 200: EndpointList, 404: ErrorEnvelope.describe('starting_after names no endpoint of yours (not_found)') },
      },
    },
    async (request) => {
      const page = await service.listEndpointsPage(ctx, owner(request), request.query);
      return { data: page.rows.map(service.endpointObject), has_more: page.hasMore };
    },
  );

  r.post(
    '/webhook_endpoints',
    {
      schema: {
        ...common,
        summary: 'Add a webhook endpoint; the answer holds its signing secret, shown once',
        headers: IdempotencyHeaders,
        body: CreateEndpointBody,
        response: {
          201: CreatedEndpoint,
          409: ErrorEnvelope.describe('Already at the limit of endpoints per business, or Idempotency-Key reused with another body (conflict)'),
        },
      },
    },
    async (request, reply) => {
      const result = await service.createEndpointForApi(ctx, owner(request), request.body, request.headers['idempotency-key']);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      // Always 201: only a created endpoint's answer is ever stored for replay.
      return reply.status(201).send(result.body as z.infer<typeof CreatedEndpoint>);
    },
  );

  r.get(
    '/webhook_endpoints/:id',
    { schema: { ...common, summary: 'Look up one webhook endpoint (never its secret)', params: EndpointParams, response: { 200: EndpointObject, 404: notFound } } },
    async (request) => service.endpointObject(await service.getEndpoint(ctx, owner(request), request.params.id)),
  );

  r.patch(
    '/webhook_endpoints/:id',
    {
      schema: {
        ...common,
        summary: 'Change the address, events or description, or pause and resume it',
        params: EndpointParams,
        body: UpdateEndpointBody,
        response: { 200: EndpointObject, 404: notFound },
      },
    },
    async (request) => {
      const { url, events, description, is_active } = request.body;
      return service.endpointObject(await service.updateEndpoint(ctx, owner(request), request.params.id, { url, events, description, isActive: is_active }));
    },
  );

  r.delete(
    '/webhook_endpoints/:id',
    {
      schema: {
        ...common,
        summary: 'Remove a webhook endpoint, its queued deliveries and its delivery log',
        params: EndpointParams,
        response: { 204: z.null().describe('Deleted'), 404: notFound },
      },
    },
    async (request, reply) => {
      await service.deleteEndpoint(ctx, owner(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/webhook_endpoints/:id/test',
    {
      schema: {
        ...common,
        summary: 'Send a signed test.ping event to the endpoint',
        headers: IdempotencyHeaders,
        params: EndpointParams,
        response: { 202: TestEventQueued, 404: notFound, 409: ErrorEnvelope.describe('The endpoint is switched off, or Idempotency-Key reused with another request (conflict)') },
      },
    },
    async (request, reply) => {
      const result = await service.sendTestEventForApi(ctx, owner(request), request.params.id, request.headers['idempotency-key']);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      // Always 202: only a queued ping's answer is ever stored for replay.
      return reply.status(202).send(result.body as z.infer<typeof TestEventQueued>);
    },
  );

  r.get(
    '/webhook_endpoints/:id/deliveries',
    {
      schema: {
        ...common,
        summary: 'The endpoint’s delivery log, newest first, each delivery with its attempts',
        params: EndpointParams,
        querystring: ListDeliveriesQuery,
        response: { 200: DeliveryList, 404: ErrorEnvelope.describe('No such endpoint of yours, or starting_after names no delivery of it (not_found)') },
      },
    },
    async (request) => {
      const page = await service.listEndpointDeliveries(ctx, owner(request), request.params.id, request.query);
      return { data: page.rows.map(service.deliveryObject), has_more: page.hasMore };
    },
  );
}
