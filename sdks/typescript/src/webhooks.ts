import { Webhook, WebhookVerificationError as LibraryError } from 'standardwebhooks';
import type { WebhookEvent } from './types.js';

/**
 * Checks a webhook delivery the Standard Webhooks way (with the `standardwebhooks` library):
 * the HMAC-SHA256 of `webhook-id.webhook-timestamp.body` under your `whsec_…` secret must match
 * one of the `v1,…` signatures, and the timestamp must be within 5 minutes of now (replays).
 */

export class WebhookVerificationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookVerificationError';
  }
}

/** A Fetch `Headers`, or a plain object such as Node's `req.headers` (any case; arrays allowed). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const NAMES = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function pick(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof (headers as Headers).get === 'function') {
    for (const name of NAMES) out[name] = (headers as Headers).get(name) ?? '';
    return out;
  }
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(' ') : v]));
  for (const name of NAMES) out[name] = lower.get(name) ?? '';
  return out;
}

/**
 * Verifies and parses one delivery. `body` must be the raw request body exactly as received
 * (a string or bytes — not re-serialised JSON). Throws `WebhookVerificationError` when it does not verify.
 */
export function verifyWebhook(body: string | Uint8Array | ArrayBuffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const picked = pick(headers);
  for (const name of NAMES) if (picked[name] === '') throw new WebhookVerificationError(`Missing ${name} header`);
  try {
    return new Webhook(secret).verify(text, picked) as WebhookEvent;
  } catch (err) {
    if (err instanceof LibraryError) throw new WebhookVerificationError(err.message, { cause: err });
    // A malformed secret or body: still "this delivery is not ours".
    throw new WebhookVerificationError(`Webhook did not verify: ${(err as Error).message}`, { cause: err });
  }
}
