import type { CallInput, RequestOptions } from './http.js';
import { paginate } from './paginate.js';
import type { Answer, Query, RequestBody } from './types.js';

export type WebhookEndpoint = Answer<'getWebhookEndpoint', 200>;
/** The answer to create: the endpoint and its `whsec_…` signing secret, shown this once. */
export type CreatedWebhookEndpoint = Answer<'createWebhookEndpoint', 201>;
export type CreateWebhookEndpointRequest = RequestBody<'createWebhookEndpoint'>;
/** Only the fields you send change; `is_active: false` pauses deliveries, `description: null` clears it. */
export type UpdateWebhookEndpointRequest = RequestBody<'updateWebhookEndpoint'>;
export type WebhookEndpointList = Answer<'listWebhookEndpoints', 200>;
export type ListWebhookEndpointsParams = Query<'listWebhookEndpoints'>;
export type WebhookTestQueued = Answer<'testWebhookEndpoint', 202>;
export type WebhookDelivery = Answer<'listWebhookEndpointDeliveries', 200>['data'][number];
export type WebhookDeliveryList = Answer<'listWebhookEndpointDeliveries', 200>;
export type ListWebhookDeliveriesParams = Query<'listWebhookEndpointDeliveries'>;
export type WebhookEventType = CreateWebhookEndpointRequest['events'][number];

type Send = <T>(input: CallInput) => Promise<T>;

const path = (id: string, rest = '') => {
  if (typeof id !== 'string' || id === '') throw new TypeError('A webhook endpoint id must be a non-empty string');
  return `/webhook_endpoints/${encodeURIComponent(id)}${rest}`;
};

/** `/webhook_endpoints`: where Sixdigit sends signed events (the dashboard's list, over the API). */
export class WebhookEndpoints {
  readonly #send: Send;

  constructor(send: Send) {
    this.#send = send;
  }

  /** Creates an endpoint; keep the returned `secret` (shown once) to verify its deliveries. */
  create(body: CreateWebhookEndpointRequest, options?: RequestOptions): Promise<CreatedWebhookEndpoint> {
    return this.#send({ method: 'POST', path: '/webhook_endpoints', body, options });
  }

  /** One page, newest first: `{ data, has_more }`. */
  listPage(params: ListWebhookEndpointsParams = {}, options?: RequestOptions): Promise<WebhookEndpointList> {
    return this.#send({ method: 'GET', path: '/webhook_endpoints', query: params, options });
  }

  /** Every endpoint, newest first, fetching pages as you iterate. */
  list(params: ListWebhookEndpointsParams = {}, options?: RequestOptions): AsyncIterableIterator<WebhookEndpoint> {
    return paginate((query) => this.listPage(query, options), { limit: 100, ...params }, (e) => e.id);
  }

  get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.#send({ method: 'GET', path: path(id), options });
  }

  update(id: string, body: UpdateWebhookEndpointRequest, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.#send({ method: 'PATCH', path: path(id), body, options });
  }

  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.#send<null>({ method: 'DELETE', path: path(id), options });
  }

  /** Queues a signed `test.ping` event to the endpoint (a `ConflictError` when it is switched off). */
  test(id: string, options?: RequestOptions): Promise<WebhookTestQueued> {
    return this.#send({ method: 'POST', path: path(id, '/test'), options });
  }

  /** One page of the endpoint's delivery log, newest first. */
  deliveriesPage(id: string, params: ListWebhookDeliveriesParams = {}, options?: RequestOptions): Promise<WebhookDeliveryList> {
    return this.#send({ method: 'GET', path: path(id, '/deliveries'), query: params, options });
  }

  /** Every delivery to the endpoint (its attempts included), newest first. */
  deliveries(id: string, params: ListWebhookDeliveriesParams = {}, options?: RequestOptions): AsyncIterableIterator<WebhookDelivery> {
    return paginate((query) => this.deliveriesPage(id, query, options), { limit: 100, ...params }, (d) => d.id);
  }
}
