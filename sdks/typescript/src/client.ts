import { call, DEFAULT_RETRY_POLICY, type CallInput, type RequestOptions, type RetryPolicy, type Transport } from './http.js';
import type {
  Enrolment,
  EnrolRequest,
  KeyTest,
  ListUsersParams,
  ListVerificationsParams,
  Profile,
  User,
  UserList,
  Verification,
  VerificationList,
  VerifyRequest,
  VerifyResult,
} from './types.js';
import { paginate } from './paginate.js';
import { verifyWebhook } from './webhooks.js';
import { WebhookEndpoints } from './webhook-endpoints.js';

export const VERSION = '0.1.0';

export interface SixdigitOptions {
  /** `sk_live_…` or `sk_test_…` from the dashboard's API configuration card. */
  apiKey: string;
  /** Your Sixdigit address: `https://host` or `https://host/api/v1`. */
  baseUrl: string;
  /** Per attempt, in ms (default 30000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** Fine-tune the backoff (ms). */
  retry?: Partial<RetryPolicy>;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/** `https://host` → `https://host/api/v1`; a base that already names a path is kept. */
function apiBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? '/api/v1' : path}`;
}

function segment(value: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError('An id must be a non-empty string');
  return encodeURIComponent(value);
}

export class Sixdigit {
  /** Webhook signature checks (no client needed): `Sixdigit.webhooks.verify(body, headers, secret)`. */
  static readonly webhooks = Object.freeze({ verify: verifyWebhook });

  /** Manage where Sixdigit sends events: create (the secret is shown once), list, get, update, delete, test. */
  readonly webhookEndpoints: WebhookEndpoints;
  readonly #transport: Transport;

  constructor(options: SixdigitOptions) {
    if (!options || typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw new TypeError('Sixdigit: apiKey is required');
    if (typeof options.baseUrl !== 'string' || options.baseUrl === '') throw new TypeError('Sixdigit: baseUrl is required, e.g. "https://your-host"');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('Sixdigit: no global fetch; pass options.fetch');
    this.#transport = {
      baseUrl: apiBase(options.baseUrl),
      apiKey: options.apiKey.trim(),
      fetch: fetchImpl.bind(globalThis),
      timeoutMs: options.timeoutMs ?? 30_000,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) },
      userAgent: `sixdigit-node/${VERSION}`,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      random: Math.random,
    };
    this.webhookEndpoints = new WebhookEndpoints((input) => this.request(input));
  }

  /** The API base every call goes to, e.g. `https://host/api/v1`. */
  get baseUrl(): string {
    return this.#transport.baseUrl;
  }

  /** @internal One call with the SDK's retry rules; public methods below are typed wrappers. */
  async request<T>(input: CallInput): Promise<T> {
    return (await call<T>(this.#transport, input)).body;
  }

  /** Enrols a user (or, with `rotate: true`, replaces their secret). The secret and backup codes are shown once. */
  generate(body: EnrolRequest, options?: RequestOptions): Promise<Enrolment> {
    return this.request({ method: 'POST', path: '/generate', body, options });
  }

  /**
   * Checks a code: `{ user_id, totp_code }` (or `backup_code`) for an enrolled user, or
   * `{ secret, token }` when you keep the secret. A wrong code is an answer (`verified: false`,
   * `status` says why), not an error.
   */
  verify(body: VerifyRequest, options?: RequestOptions): Promise<VerifyResult> {
    return this.request({ method: 'POST', path: '/verify', body, options });
  }

  /** Your business: balance, rate limit, key prefix. */
  profile(options?: RequestOptions): Promise<Profile> {
    return this.request({ method: 'GET', path: '/profile', options });
  }

  /** Checks the key works (free). */
  testApiKey(options?: RequestOptions): Promise<KeyTest> {
    return this.request({ method: 'POST', path: '/test', options });
  }

  /** Forgets an enrolled user and their secret. */
  async deleteUser(userId: string, options?: RequestOptions): Promise<void> {
    await this.request<null>({ method: 'DELETE', path: `/users/${segment(userId)}`, options });
  }

  getUser(userId: string, options?: RequestOptions): Promise<User> {
    return this.request({ method: 'GET', path: `/users/${segment(userId)}`, options });
  }

  getVerification(verificationId: string, options?: RequestOptions): Promise<Verification> {
    return this.request({ method: 'GET', path: `/verifications/${segment(verificationId)}`, options });
  }

  /** One page of checks, newest first: `{ data, has_more }`; pass the last id as `starting_after` for the next. */
  listVerificationsPage(params: ListVerificationsParams = {}, options?: RequestOptions): Promise<VerificationList> {
    return this.request({ method: 'GET', path: '/verifications', query: params, options });
  }

  /** Every check matching `params`, newest first, fetching pages of `limit` (default 100) as you iterate. */
  listVerifications(params: ListVerificationsParams = {}, options?: RequestOptions): AsyncIterableIterator<Verification> {
    return paginate((query) => this.listVerificationsPage(query, options), { limit: 100, ...params }, (v) => v.verification_id);
  }

  /** One page of enrolled users, newest first: `{ data, has_more }`. */
  listUsersPage(params: ListUsersParams = {}, options?: RequestOptions): Promise<UserList> {
    return this.request({ method: 'GET', path: '/users', query: params, options });
  }

  /** Every enrolled user, fetching pages of `limit` (default 100) as you iterate. */
  listUsers(params: ListUsersParams = {}, options?: RequestOptions): AsyncIterableIterator<UserList['data'][number]> {
    return paginate((query) => this.listUsersPage(query, options), { limit: 100, ...params }, (u) => u.user_id);
  }
}
