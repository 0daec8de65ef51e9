import type { CallInput, RequestOptions } from './http.js';

/** The events an endpoint can subscribe to. */
export type WebhookEventType = 'verification.success' | 'verification.failed' | 'credit.low' | 'credit.depleted';

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  [field: string]: unknown;
}

/** The answer to create: the endpoint and its `whsec_…` signing secret, shown this once. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  secret: string;
}

export interface CreateWebhookEndpointRequest {
  url: string;
  events: WebhookEventType[];
  description?: string;
}

export type UpdateWebhookEndpointRequest = Partial<CreateWebhookEndpointRequest> & Record<string, unknown>;

type Send = <T>(input: CallInput) => Promise<T>;

/** `/webhook_endpoints`: where Sixdigit sends signed events. */
export class WebhookEndpoints {
  readonly #send: Send;

  constructor(send: Send) {
    this.#send = send;
  }

  /** Creates an endpoint; keep the returned `secret` (shown once) to verify deliveries. */
  create(body: CreateWebhookEndpointRequest, options?: RequestOptions): Promise<CreatedWebhookEndpoint> {
    return this.#send({ method: 'POST', path: '/webhook_endpoints', body, options });
  }

  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    const answer = await this.#send<{ data: WebhookEndpoint[] } | WebhookEndpoint[]>({ method: 'GET', path: '/webhook_endpoints', options });
    return Array.isArray(answer) ? answer : answer.data;
  }

  get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.#send({ method: 'GET', path: `/webhook_endpoints/${encodeURIComponent(id)}`, options });
  }

  update(id: string, body: UpdateWebhookEndpointRequest, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.#send({ method: 'PATCH', path: `/webhook_endpoints/${encodeURIComponent(id)}`, body, options });
  }

  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.#send<null>({ method: 'DELETE', path: `/webhook_endpoints/${encodeURIComponent(id)}`, options });
  }

  /** Sends a signed `test.ping` event to the endpoint now. */
  test(id: string, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#send({ method: 'POST', path: `/webhook_endpoints/${encodeURIComponent(id)}/test`, options });
  }
}
