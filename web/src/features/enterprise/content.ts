import type { EnterprisePlanId } from '@common/pricing';

/** Copy for the enterprise pages. Figures are never typed here: they come from @common/pricing. */

export const ENTERPRISE_FEATURES = [
  {
    icon: 'shield',
    title: 'Standard TOTP, no carrier',
    body: 'RFC 6238 codes from the authenticator your users already have. Nothing to intercept, SIM-swap or lose in a delivery queue.',
  },
  {
    icon: 'repeat',
    title: 'Replay and brute-force protection',
    body: 'Each code is accepted once, and repeated failures for a user are throttled with Retry-After — without locking them out for good.',
  },
  {
    icon: 'lock',
    title: 'Secrets encrypted at rest',
    body: 'Enrolment secrets are sealed with AES-256-GCM; API keys and backup codes are stored only as hashes.',
  },
  {
    icon: 'webhook',
    title: 'Signed webhooks',
    body: 'Verification and low-credit events delivered with Standard Webhooks signatures, retried, and logged attempt by attempt.',
  },
  {
    icon: 'key',
    title: 'Idempotent by design',
    body: 'Send an Idempotency-Key and a retried request returns the stored answer — never charged twice.',
  },
  {
    icon: 'chart',
    title: 'Prepaid, per verification',
    body: 'No monthly minimum and no per-seat fees. Every check is recorded, so the usage you see is the bill you pay.',
  },
] as const;

export type FeatureIcon = (typeof ENTERPRISE_FEATURES)[number]['icon'];

/** What each plan offers beyond its price (prices, volumes and uptime come from the catalogue). */
export const ENTERPRISE_PLAN_COPY: Record<EnterprisePlanId, { tagline: string; features: string[]; cta: string; ctaPath: string }> = {
  developer: {
    tagline: 'Build and launch your integration.',
    features: ['Full verification API', 'Signed webhooks', 'Usage dashboard and CSV export'],
    cta: 'Start building',
    ctaPath: '/api/login',
  },
  business: {
    tagline: 'Production traffic at a lower rate.',
    features: ['Everything in Developer', 'Auto-refill before you run low: a saved card or UPI mandate is charged, or a ready-to-pay top-up is e-mailed'],
    cta: 'Get started',
    ctaPath: '/api/login',
  },
  enterprise: {
    tagline: 'Volume pricing and a raised rate limit.',
    features: ['Everything in Business', 'Custom volume pricing', 'Invoiced bank transfer'],
    cta: 'Contact sales',
    ctaPath: '/contact',
  },
};

/** The webhook events the server sends (checked against the server's list by a test). */
export const WEBHOOK_EVENTS_DOC = [
  { event: 'verification.success', when: 'a billed check accepted the code' },
  { event: 'verification.failed', when: 'a billed check refused the code (invalid_code, expired, replayed)' },
  { event: 'credit.low', when: 'the balance fell below the low-balance threshold' },
  { event: 'credit.depleted', when: 'the balance no longer covers one verification' },
  { event: 'test.ping', when: 'sent on request to one endpoint (POST /webhook_endpoints/{id}/test, or Send test in the dashboard); never subscribed to' },
] as const;

/** Rate-limit headers on every answer to a valid key, errors included (IETF RateLimit draft, as the server sends them). */
export const RATE_LIMIT_HEADERS = [
  { name: 'ratelimit-limit', meaning: 'requests allowed per minute for this key' },
  { name: 'ratelimit-remaining', meaning: 'requests left in the current minute' },
  { name: 'ratelimit-reset', meaning: 'seconds until the minute resets' },
  { name: 'retry-after', meaning: 'on a 429: seconds to wait before retrying' },
] as const;

/**
 * Every error code the server can send, each with its own anchor (`#error-<code>`): the
 * envelope's `doc_url` points here. Checked against the server's list by a test.
 */
export const ERROR_CODES_DOC = [
  { code: 'bad_request', status: 400, meaning: 'The request could not be read (for example a badly encoded URL).' },
  { code: 'validation_failed', status: 400, meaning: 'A field is missing, has the wrong type or is out of range, or a webhook URL points at a private or local address; error.details lists each one as { path, message }.' },
  { code: 'invalid_json', status: 400, meaning: 'The body is empty or not valid JSON while the content type says JSON.' },
  { code: 'invalid_text', status: 400, meaning: 'A text field holds a lone surrogate or another character that is not well-formed Unicode.' },
  { code: 'invalid_signature', status: 400, meaning: 'A signed callback did not verify (dashboard payments).' },
  { code: 'invalid_code', status: 400, meaning: 'A sign-in or enrolment code was wrong (dashboard).' },
  { code: 'replayed', status: 400, meaning: 'A sign-in code was already used (dashboard).' },
  { code: 'passkey_rejected', status: 400, meaning: 'A passkey answer did not verify (dashboard).' },
  { code: 'unauthorized', status: 401, meaning: 'No API key, or one that is not valid or was revoked; the answer carries WWW-Authenticate.' },
  { code: 'second_factor_required', status: 401, meaning: 'The dashboard sign-in needs its second step.' },
  { code: 'insufficient_credits', status: 402, meaning: 'The balance does not cover one verification; nothing was recorded or charged. Add credits.' },
  { code: 'forbidden', status: 403, meaning: 'The caller may not do this.' },
  { code: 'forbidden_origin', status: 403, meaning: 'A dashboard request did not come from the dashboard (cross-site protection).' },
  { code: 'mfa_required', status: 403, meaning: 'An administrator must confirm their second factor first.' },
  { code: 'enrolment_code_required', status: 403, meaning: 'Administrator enrolment needs the enrolment code.' },
  { code: 'enrolment_code_invalid', status: 403, meaning: 'The administrator enrolment code was wrong.' },
  { code: 'impersonation_forbidden', status: 403, meaning: 'Not available while support acts on your account.' },
  { code: 'reauthentication_required', status: 403, meaning: 'Sign in again to do this.' },
  { code: 'suspended', status: 403, meaning: 'API access for this account is suspended; contact support.' },
  { code: 'not_found', status: 404, meaning: 'No such path, or no such record for your business (another business’s id answers the same).' },
  { code: 'method_not_allowed', status: 405, meaning: 'The path exists but not with this method; the Allow header lists the ones it takes.' },
  { code: 'conflict', status: 409, meaning: 'The user is already enrolled (send rotate: true), an Idempotency-Key was reused with another body, your business already has 10 webhook endpoints, or a test event was sent to a paused endpoint.' },
  { code: 'impersonation_active', status: 409, meaning: 'An administrator already has an impersonation running.' },
  { code: 'version_conflict', status: 409, meaning: 'The authenticator vault changed on another device since this change was based on it; the app fetches the newer version and retries.' },
  { code: 'payload_too_large', status: 413, meaning: 'The body is larger than the endpoint accepts (64 KiB).' },
  { code: 'uri_too_long', status: 414, meaning: 'A part of the URL is too long.' },
  { code: 'unsupported_media_type', status: 415, meaning: 'Send the body as application/json.' },
  { code: 'unprocessable', status: 422, meaning: 'The request is well-formed but cannot be carried out.' },
  { code: 'qr_not_found', status: 422, meaning: 'No QR code could be read from the image (dashboard).' },
  { code: 'too_many_attempts', status: 429, meaning: 'Five wrong codes for this user in 15 minutes; wait for Retry-After.' },
  { code: 'rate_limited', status: 429, meaning: 'Over the per-key rate limit (or too many invalid keys from one address); wait for Retry-After.' },
  { code: 'internal_error', status: 500, meaning: 'Something failed on our side; quote request_id to support.' },
  { code: 'not_configured', status: 501, meaning: 'This feature is not set up on this server.' },
  { code: 'bad_gateway', status: 502, meaning: 'A provider we depend on failed; retry later.' },
  { code: 'service_unavailable', status: 503, meaning: 'The service cannot reach its database; retry later.' },
] as const;
