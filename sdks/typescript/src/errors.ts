/**
 * Every error the API answers is one envelope `{ error: { code, message, request_id, doc_url,
 * details? } }`; the SDK throws it as a `SixdigitError` subclass chosen by HTTP status, so callers
 * can `catch (e) { if (e instanceof RateLimitError) … }` or branch on `e.code`.
 */

export interface ErrorDetail {
  /** Dotted field path ('' for the whole body). */
  path: string;
  message: string;
}

export interface SixdigitErrorInit {
  message: string;
  code: string;
  status: number | null;
  request_id?: string | null;
  doc_url?: string | null;
  details?: ErrorDetail[] | null;
  headers?: Headers | null;
  cause?: unknown;
}

export class SixdigitError extends Error {
  /** The API's error code, e.g. `validation_failed`; `connection_error` when no answer arrived. */
  readonly code: string;
  /** HTTP status, or null when no answer arrived (network error, timeout). */
  readonly status: number | null;
  /** The request's id (the X-Request-Id header); quote it to support. */
  readonly request_id: string | null;
  /** This code's entry in the docs. */
  readonly doc_url: string | null;
  /** On validation_failed: one entry per refused field. */
  readonly details: ErrorDetail[] | null;
  /** The answer's headers (e.g. RateLimit-*), when there was an answer. */
  readonly headers: Headers | null;

  constructor(init: SixdigitErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.request_id = init.request_id ?? null;
    this.doc_url = init.doc_url ?? null;
    this.details = init.details ?? null;
    this.headers = init.headers ?? null;
  }
}

/** 400, 413, 414, 415: the request itself is wrong (validation_failed, invalid_json, …). Do not retry. */
export class InvalidRequestError extends SixdigitError {}
/** 401: the API key is missing, wrong or revoked. */
export class AuthenticationError extends SixdigitError {}
/** 402: the balance does not cover the check (insufficient_credit). */
export class InsufficientCreditError extends SixdigitError {}
/** 403: API access is suspended (suspended). */
export class PermissionDeniedError extends SixdigitError {}
/** 404: no such user, verification or endpoint. */
export class NotFoundError extends SixdigitError {}
/** 409: a conflict, e.g. the user is already enrolled or an Idempotency-Key was reused with another body. */
export class ConflictError extends SixdigitError {}
/** 429: rate_limited or too_many_attempts, after the SDK's retries ran out. */
export class RateLimitError extends SixdigitError {
  /** Seconds the server asked to wait (Retry-After), when it said. */
  get retry_after(): number | null {
    const value = this.headers?.get('retry-after');
    return value == null || value === '' || Number.isNaN(Number(value)) ? null : Number(value);
  }
}
/** 5xx after the SDK's retries ran out. */
export class ServerError extends SixdigitError {}
/** No answer arrived (DNS, refused connection, reset, timeout) after the SDK's retries ran out. */
export class ConnectionError extends SixdigitError {}

const BY_STATUS: Record<number, typeof SixdigitError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  402: InsufficientCreditError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: InvalidRequestError,
  414: InvalidRequestError,
  415: InvalidRequestError,
  422: InvalidRequestError,
  429: RateLimitError,
};

/** The typed error for an error answer (its body already parsed, or null when it was not JSON). */
export function errorFromResponse(status: number, headers: Headers, body: unknown): SixdigitError {
  const envelope = (body as { error?: Partial<Record<string, unknown>> } | null)?.error;
  const ErrorClass = BY_STATUS[status] ?? (status >= 500 ? ServerError : SixdigitError);
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return new ErrorClass({
    status,
    headers,
    code: text(envelope?.code) ?? `http_${status}`,
    message: text(envelope?.message) ?? `HTTP ${status} without an error envelope`,
    request_id: text(envelope?.request_id) ?? headers.get('x-request-id'),
    doc_url: text(envelope?.doc_url),
    details: Array.isArray(envelope?.details) ? (envelope.details as ErrorDetail[]) : null,
  });
}
