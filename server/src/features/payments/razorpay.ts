import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RazorpayConfig } from '../../config';
import { AppError } from '../../lib/errors';

/**
 * Razorpay's HTTP API as far as Sixdigit uses it: create an order (Orders API, basic auth with
 * the key id and secret) and check the two HMAC-SHA256 signatures Razorpay produces —
 * `order_id|payment_id` under the key secret (checkout) and the raw body under the webhook secret.
 */

const ORDER_TIMEOUT_MS = 10_000;

export function hmacHex(secret: string, data: string | Buffer): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

/** Constant-time comparison of a received hex signature with the one we compute. */
export function signatureMatches(expectedHex: string, received: string | undefined): boolean {
  if (typeof received !== 'string') return false;
  const a = Buffer.from(expectedHex, 'utf8');
  const b = Buffer.from(received.trim().toLowerCase(), 'utf8');
  // Lengths are public (64 hex characters); only equal-length buffers go to timingSafeEqual.
  return a.length === b.length && timingSafeEqual(a, b);
}

export function checkoutSignatureValid(keySecret: string, orderId: string, paymentId: string, signature: string): boolean {
  return signatureMatches(hmacHex(keySecret, `${orderId}|${paymentId}`), signature);
}

export function webhookSignatureValid(webhookSecret: string, rawBody: Buffer, signature: string | undefined): boolean {
  return signatureMatches(hmacHex(webhookSecret, rawBody), signature);
}

export interface RazorpayOrderEntity {
  id: string;
  amount: number;
  currency: string;
  receipt: string | null;
  status: string;
}

const orderFailed = () => new AppError('bad_gateway', 'Order Creation Failed: Failed to create payment order. Please try again.');

/** POST /v1/orders. Any failure (network, timeout, non-2xx, unexpected body) is a 502 for our caller. */
export async function createRazorpayOrder(
  config: RazorpayConfig,
  input: { amountPaise: number; receipt: string; notes: Record<string, string> },
  log?: { warn(obj: unknown, msg: string): void },
): Promise<RazorpayOrderEntity> {
  let response: Response;
  try {
    response = await fetch(`${config.apiBase}/v1/orders`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString('base64')}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ amount: input.amountPaise, currency: 'INR', receipt: input.receipt, notes: input.notes }),
      redirect: 'error',
      signal: AbortSignal.timeout(ORDER_TIMEOUT_MS),
    });
  } catch (err) {
    log?.warn({ err: (err as Error).message }, 'razorpay: order request failed');
    throw orderFailed();
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    // Razorpay's error body names the problem; it holds no secret of ours.
    log?.warn({ status: response.status, body: text.slice(0, 500) }, 'razorpay: order refused');
    throw orderFailed();
  }
  let body: Partial<RazorpayOrderEntity>;
  try {
    body = JSON.parse(text) as Partial<RazorpayOrderEntity>;
  } catch {
    throw orderFailed();
  }
  if (
    typeof body.id !== 'string' ||
    !/^order_[A-Za-z0-9]{1,50}$/.test(body.id) ||
    body.amount !== input.amountPaise ||
    body.currency !== 'INR'
  ) {
    log?.warn({ body: text.slice(0, 500) }, 'razorpay: unexpected order body');
    throw orderFailed();
  }
  return { id: body.id, amount: body.amount, currency: body.currency, receipt: body.receipt ?? null, status: String(body.status ?? 'created') };
}
