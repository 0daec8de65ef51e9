import type { RazorpayConfig } from '../../config';

/**
 * Razorpay's Recurring Payments API as auto-refill uses it (cards and UPI Autopay, S2S):
 * a customer (`POST /v1/customers`), an authorisation order carrying `customer_id` and a
 * `token` block (`POST /v1/orders`), the token read from the authorising payment
 * (`GET /v1/payments/:id` → `token_id`), and each later charge as a fresh order plus
 * `POST /v1/payments/create/recurring`. Basic auth with the key id and secret, as every call.
 */

const TIMEOUT_MS = 15_000;

/** A refused call: `transient` when retrying may help (network, timeout, 5xx, 429). */
export class RazorpayCallError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly transient: boolean,
    /** Razorpay's own `error.description`, safe to show the owner */
    readonly description: string | null,
  ) {
    super(message);
  }
}

async function call<T>(config: RazorpayConfig, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${config.apiBase}${path}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString('base64')}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new RazorpayCallError(`razorpay ${method} ${path}: ${(err as Error).message}`, null, true, null);
  }
  const text = await response.text().catch(() => '');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const description = (json as { error?: { description?: unknown } } | undefined)?.error?.description;
    throw new RazorpayCallError(
      `razorpay ${method} ${path}: HTTP ${response.status}`,
      response.status,
      response.status >= 500 || response.status === 429,
      typeof description === 'string' ? description.slice(0, 400) : null,
    );
  }
  if (json === undefined || json === null || typeof json !== 'object') {
    throw new RazorpayCallError(`razorpay ${method} ${path}: not a JSON object`, response.status, true, null);
  }
  return json as T;
}

const ID = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9]{1,50}$`);

function expectId(value: unknown, prefix: string, what: string): string {
  if (typeof value !== 'string' || !ID(prefix).test(value)) throw new RazorpayCallError(`razorpay: unexpected ${what} id`, null, false, null);
  return value;
}

/** `fail_existing: "0"`: the same name/e-mail/contact answers the existing customer, so a retry cannot make two. */
export async function createCustomer(config: RazorpayConfig, input: { name: string; email: string; notes: Record<string, string> }): Promise<string> {
  const body = await call<{ id?: unknown }>(config, 'POST', '/v1/customers', { name: input.name.slice(0, 50), email: input.email, fail_existing: '0', notes: input.notes });
  return expectId(body.id, 'cust', 'customer');
}

/** The authorisation order: its payment (made in Razorpay's checkout with `recurring: 1`) saves the token. */
export async function createAuthorisationOrder(
  config: RazorpayConfig,
  input: { amountPaise: number; customerId: string; method: 'card' | 'upi'; maxAmountPaise: number; expireAt: Date; receipt: string; notes: Record<string, string> },
): Promise<string> {
  const body = await call<{ id?: unknown; amount?: unknown }>(config, 'POST', '/v1/orders', {
    amount: input.amountPaise,
    currency: 'INR',
    customer_id: input.customerId,
    method: input.method,
    payment_capture: true,
    receipt: input.receipt,
    notes: input.notes,
    token: { max_amount: input.maxAmountPaise, expire_at: Math.floor(input.expireAt.getTime() / 1000), frequency: 'as_presented' },
  });
  if (body.amount !== input.amountPaise) throw new RazorpayCallError('razorpay: the order amount differs', null, false, null);
  return expectId(body.id, 'order', 'order');
}

/** A plain order for one later charge ("create a new order every time you charge"). */
export async function createChargeOrder(config: RazorpayConfig, input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<string> {
  const body = await call<{ id?: unknown; amount?: unknown }>(config, 'POST', '/v1/orders', {
    amount: input.amountPaise,
    currency: 'INR',
    payment_capture: true,
    receipt: input.receipt,
    notes: input.notes,
  });
  if (body.amount !== input.amountPaise) throw new RazorpayCallError('razorpay: the order amount differs', null, false, null);
  return expectId(body.id, 'order', 'order');
}

export interface PaymentFacts {
  id: string;
  orderId: string | null;
  status: string;
  tokenId: string | null;
  method: string | null;
  label: string | null;
  errorDescription: string | null;
}

interface PaymentEntity {
  id?: unknown;
  order_id?: unknown;
  status?: unknown;
  token_id?: unknown;
  method?: unknown;
  vpa?: unknown;
  card?: { network?: unknown; last4?: unknown } | null;
  error_description?: unknown;
}

function toFacts(p: PaymentEntity): PaymentFacts {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const card = p.card && str(p.card.last4) ? `${str(p.card.network) ?? 'Card'} •••• ${str(p.card.last4)}` : null;
  return {
    id: expectId(p.id, 'pay', 'payment'),
    orderId: str(p.order_id),
    status: str(p.status) ?? 'unknown',
    tokenId: str(p.token_id),
    method: str(p.method),
    label: (card ?? str(p.vpa))?.slice(0, 120) ?? null,
    errorDescription: str(p.error_description)?.slice(0, 400) ?? null,
  };
}

export async function fetchPayment(config: RazorpayConfig, paymentId: string): Promise<PaymentFacts> {
  return toFacts(await call<PaymentEntity>(config, 'GET', `/v1/payments/${encodeURIComponent(paymentId)}`));
}

/** The payments made against an order: how a worker that died mid-charge learns whether it charged. */
export async function fetchOrderPayments(config: RazorpayConfig, orderId: string): Promise<PaymentFacts[]> {
  const body = await call<{ items?: unknown }>(config, 'GET', `/v1/orders/${encodeURIComponent(orderId)}/payments`);
  return Array.isArray(body.items) ? (body.items as PaymentEntity[]).map(toFacts) : [];
}

/** Charges the saved token for an order; the answer names the payment, its capture arrives by webhook. */
export async function createRecurringPayment(
  config: RazorpayConfig,
  input: { email: string; contact: string | null; amountPaise: number; orderId: string; customerId: string; tokenId: string; description: string; notes: Record<string, string> },
): Promise<string> {
  const body = await call<{ razorpay_payment_id?: unknown }>(config, 'POST', '/v1/payments/create/recurring', {
    email: input.email,
    ...(input.contact ? { contact: input.contact } : {}),
    amount: input.amountPaise,
    currency: 'INR',
    order_id: input.orderId,
    customer_id: input.customerId,
    token: input.tokenId,
    recurring: '1',
    description: input.description,
    notes: input.notes,
  });
  return expectId(body.razorpay_payment_id, 'pay', 'payment');
}

/** Deletes the saved token (the owner removed the mandate): nothing can be charged to it any more. */
export async function deleteToken(config: RazorpayConfig, customerId: string, tokenId: string): Promise<void> {
  await call(config, 'DELETE', `/v1/customers/${encodeURIComponent(customerId)}/tokens/${encodeURIComponent(tokenId)}`);
}
