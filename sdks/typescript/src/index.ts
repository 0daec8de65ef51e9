export { Sixdigit, VERSION, type SixdigitOptions } from './client.js';
export {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InsufficientCreditError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  SixdigitError,
  type ErrorDetail,
} from './errors.js';
export { backoffMs, retryAfterMs, DEFAULT_RETRY_POLICY, type RequestOptions, type RetryPolicy } from './http.js';
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from './webhooks.js';
export type * from './types.js';
export type * from './webhook-endpoints.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
export { Sixdigit as default } from './client.js';
