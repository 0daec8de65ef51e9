import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks (standardwebhooks.com): secret `whsec_<base64 key>`. */
export const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/** The key bytes of a `whsec_…` secret, or null when it is not one (at least 16 bytes). */
export function secretKey(secret: string): Buffer | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return null;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= 16 && key.length <= 64 ? key : null;
}

/** Headers for one attempt: the id stays the same across retries so receivers can dedupe. */
export function signedHeaders(secret: string, messageId: string, body: string, event: string, now: Date): Record<string, string> {
  const key = secretKey(secret);
  if (!key) throw new Error('invalid webhook secret');
  const timestamp = Math.floor(now.getTime() / 1000).toString();
  const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
    'x-sixdigit-event': event,
  };
}
