/**
 * The one error type services throw, and the one envelope every error leaves the server in:
 * `{ "error": { "code", "message", "request_id", "doc_url", "details"? } }`.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  invalid_text: 400,
  invalid_signature: 400,
  invalid_code: 400,
  replayed: 400,
  passkey_rejected: 400,
  unauthorized: 401,
  second_factor_required: 401,
  insufficient_credits: 402,
  forbidden: 403,
  forbidden_origin: 403,
  mfa_required: 403,
  enrolment_code_required: 403,
  enrolment_code_invalid: 403,
  /** what an administrator acting as someone may not do (secrets, payments, admin tools, the user's notices) */
  impersonation_forbidden: 403,
  reauthentication_required: 403,
  suspended: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** the administrator already has an impersonation running (one at a time) */
  impersonation_active: 409,
  version_conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  unprocessable: 422,
  qr_not_found: 422,
  too_many_attempts: 429,
  rate_limited: 429,
  internal_error: 500,
  not_configured: 501,
  bad_gateway: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** on validation_failed: the refused fields, like a schema's 400 lists them */
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** One field a 400 refused, and why (from zod's issues): `path` is dotted, '' for the whole body. */
export interface ErrorDetail {
  path: string;
  message: string;
}

export interface ErrorEnvelope {
  error: { code: string; message: string; request_id: string; doc_url: string; details?: ErrorDetail[] };
}

/** Where the docs describe an error code: `/docs#error-<code>` (an anchor the docs page renders). */
export function errorDocUrl(code: string, docsBase = ''): string {
  return `${docsBase}/docs#error-${code}`;
}

/**
 * `docsBase` is PUBLIC_URL (absolute links in what clients log); without it the link is
 * relative to the host that answered.
 */
export function envelope(code: string, message: string, requestId: string, extra: { docsBase?: string; details?: ErrorDetail[] } = {}): ErrorEnvelope {
  const error: ErrorEnvelope['error'] = { code, message, request_id: requestId, doc_url: errorDocUrl(code, extra.docsBase) };
  if (extra.details) error.details = extra.details;
  return { error };
}
