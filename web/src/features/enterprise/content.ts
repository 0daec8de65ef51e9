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
    features: ['Everything in Developer', 'Auto-refill before you run low'],
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
] as const;

/** Rate-limit headers on every answer (IETF RateLimit draft, as the server sends them). */
export const RATE_LIMIT_HEADERS = [
  { name: 'ratelimit-limit', meaning: 'requests allowed per minute for this key' },
  { name: 'ratelimit-remaining', meaning: 'requests left in the current minute' },
  { name: 'ratelimit-reset', meaning: 'seconds until the minute resets' },
  { name: 'retry-after', meaning: 'on a 429: seconds to wait before retrying' },
] as const;
