import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Razorpay's HTTP API, for tests only (Razorpay cannot be reached from here).
 * Recurring payments as Razorpay documents them: `POST /v1/customers` (fail_existing),
 * authorisation orders with `customer_id` + `token` (max_amount, expire_at, frequency), the
 * token saved by the authorising payment (`GET /v1/payments/:id` → token_id), later charges as
 * a fresh order + `POST /v1/payments/create/recurring`, `GET /v1/orders/:id/payments`, and
 * `DELETE /v1/customers/:id/tokens/:token_id`.
 * A real HTTP server on 127.0.0.1 that implements what Sixdigit calls — `POST /v1/orders` with
 * HTTP basic auth (key id : key secret), answering like Razorpay's Orders API — plus helpers
 * that play the customer and Razorpay afterwards: a paid order's checkout result signed as
 * Razorpay signs it (HMAC-SHA256 of `order_id|payment_id` under the key secret), and webhook
 * bodies signed as Razorpay signs them (HMAC-SHA256 of the raw body under the webhook secret).
 */

export interface FakeOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  offer_id: null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
  customer_id?: string;
  method?: string;
  token?: { max_amount: number; expire_at: number; frequency: string };
}

export interface FakeCustomer {
  id: string;
  entity: 'customer';
  name: string;
  email: string;
  contact: string | null;
  notes: Record<string, string>;
  created_at: number;
}

export interface FakeToken {
  id: string;
  entity: 'token';
  customer_id: string;
  method: 'card' | 'upi';
  max_amount: number;
  expired_at: number;
  status: 'confirmed' | 'initiated' | 'cancelled';
}

export interface FakePayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: 'INR';
  status: 'created' | 'authorized' | 'captured' | 'failed';
  order_id: string;
  customer_id: string | null;
  token_id: string | null;
  method: 'card' | 'upi';
  recurring: boolean;
  card: { network: string; last4: string } | null;
  vpa: string | null;
  email: string;
  contact: string | null;
  notes: Record<string, string>;
  error_code: string | null;
  error_description: string | null;
  created_at: number;
}

export interface CheckoutResult {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

export interface SignedWebhook {
  body: string;
  signature: string;
  headers: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function razorpayId(prefix: 'order' | 'pay' | 'cust' | 'token'): string {
  let out = '';
  for (const byte of randomBytes(14)) out += ALNUM[byte % ALNUM.length];
  return `${prefix}_${out}`;
}

const sign = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('hex');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export class FakeRazorpay {
  readonly orders = new Map<string, FakeOrder>();
  readonly customers = new Map<string, FakeCustomer>();
  readonly tokens = new Map<string, FakeToken>();
  readonly payments = new Map<string, FakePayment>();
  readonly requests: RecordedRequest[] = [];
  /** Refuses the next recurring charges (4xx with Razorpay's error body), e.g. a cancelled mandate. */
  private recurringRefusals: Array<{ status: number; description: string }> = [];
  /** Delays every answer to `/v1/payments/create/recurring` (a slow or hanging gateway). */
  recurringDelayMs = 0;
  /** Answers the next N order requests with this status (an outage, a 5xx). */
  private failures: Array<{ status: number; body: string }> = [];
  private server: Server | undefined;
  baseUrl = '';

  constructor(
    readonly keyId = 'rzp_test_FakeKey123',
    readonly keySecret = 'fake_key_secret_0123456789',
    readonly webhookSecret = 'fake_webhook_secret_0123456789',
  ) {}

  /** The environment that points Sixdigit at this fake. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      RAZORPAY_KEY_ID: this.keyId,
      RAZORPAY_KEY_SECRET: this.keySecret,
      RAZORPAY_WEBHOOK_SECRET: this.webhookSecret,
      RAZORPAY_API_BASE: this.baseUrl,
      ...extra,
    };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, body }) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  failNext(status: number, times = 1, body = '{"error":{"code":"SERVER_ERROR","description":"The server encountered an error."}}'): void {
    for (let i = 0; i < times; i++) this.failures.push({ status, body });
  }

  refuseNextRecurring(description = 'The token is not active', status = 400, times = 1): void {
    for (let i = 0; i < times; i++) this.recurringRefusals.push({ status, description });
  }

  /** The charges made to saved tokens (POST /v1/payments/create/recurring that succeeded). */
  get recurringCharges(): FakePayment[] {
    return [...this.payments.values()].filter((p) => p.recurring);
  }

  private error(status: number, description: string, code = 'BAD_REQUEST_ERROR') {
    return { status, body: { error: { code, description, source: 'business', step: 'payment_initiation', reason: 'input_validation_failed', metadata: {} } } };
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const path = (req.url ?? '/').split('?')[0]!;
    const raw = await readBody(req);
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      /* recorded as text */
    }
    this.requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });

    const expected = `Basic ${Buffer.from(`${this.keyId}:${this.keySecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return this.error(401, 'Authentication failed');

    if (req.method === 'POST' && path === '/v1/orders') {
      const failure = this.failures.shift();
      if (failure) return { status: failure.status, body: JSON.parse(failure.body) };
      const input = (body ?? {}) as { amount?: unknown; currency?: unknown; receipt?: unknown; notes?: unknown };
      if (typeof input.amount !== 'number' || !Number.isInteger(input.amount) || input.amount < 100) {
        return this.error(400, 'The amount must be atleast INR 1.00');
      }
      if (input.currency !== 'INR') return this.error(400, 'Currency is not supported');
      if (input.receipt !== undefined && (typeof input.receipt !== 'string' || input.receipt.length > 40)) {
        return this.error(400, 'receipt: the length must be no more than 40.');
      }
      const extra = body as { customer_id?: unknown; method?: unknown; token?: { max_amount?: unknown; expire_at?: unknown; frequency?: unknown } };
      if (extra.token !== undefined) {
        // An authorisation order: Razorpay needs the customer and a token block it can honour.
        if (typeof extra.customer_id !== 'string' || !this.customers.has(extra.customer_id)) return this.error(400, 'The id provided does not exist');
        if (extra.method !== 'card' && extra.method !== 'upi' && extra.method !== 'emandate') return this.error(400, 'The method field is invalid.');
        const t = extra.token;
        if (typeof t.max_amount !== 'number' || typeof t.expire_at !== 'number' || t.expire_at * 1000 <= Date.now()) return this.error(400, 'token.max_amount and a future token.expire_at are required.');
        if (t.frequency !== undefined && !['as_presented', 'monthly', 'weekly', 'yearly', 'daily'].includes(t.frequency as string)) return this.error(400, 'The frequency field is invalid.');
      }
      const order: FakeOrder = {
        ...(extra.token !== undefined
          ? {
              customer_id: extra.customer_id as string,
              method: extra.method as string,
              token: { max_amount: extra.token.max_amount as number, expire_at: extra.token.expire_at as number, frequency: (extra.token.frequency as string | undefined) ?? 'as_presented' },
            }
          : {}),
        id: razorpayId('order'),
        entity: 'order',
        amount: input.amount,
        amount_paid: 0,
        amount_due: input.amount,
        currency: 'INR',
        receipt: (input.receipt as string | undefined) ?? null,
        offer_id: null,
        status: 'created',
        attempts: 0,
        notes: (input.notes as Record<string, string> | undefined) ?? {},
        created_at: Math.floor(Date.now() / 1000),
      };
      this.orders.set(order.id, order);
      return { status: 200, body: order };
    }
    if (req.method === 'POST' && path === '/v1/customers') {
      const input = (body ?? {}) as { name?: unknown; email?: unknown; contact?: unknown; fail_existing?: unknown; notes?: unknown };
      if (typeof input.email !== 'string' || !input.email.includes('@')) return this.error(400, 'The email field is invalid.');
      const existing = [...this.customers.values()].find((c) => c.email === input.email && c.name === (input.name ?? ''));
      if (existing) {
        // fail_existing "0": the existing customer is answered; "1" (the default): an error.
        return input.fail_existing === '0' || input.fail_existing === 0 ? { status: 200, body: existing } : this.error(400, 'Customer already exists for the merchant');
      }
      const customer: FakeCustomer = {
        id: razorpayId('cust'),
        entity: 'customer',
        name: typeof input.name === 'string' ? input.name : '',
        email: input.email,
        contact: typeof input.contact === 'string' ? input.contact : null,
        notes: (input.notes as Record<string, string> | undefined) ?? {},
        created_at: Math.floor(Date.now() / 1000),
      };
      this.customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (req.method === 'POST' && path === '/v1/payments/create/recurring') {
      if (this.recurringDelayMs > 0) await new Promise((r) => setTimeout(r, this.recurringDelayMs));
      const failure = this.failures.shift();
      if (failure) return { status: failure.status, body: JSON.parse(failure.body) };
      const refusal = this.recurringRefusals.shift();
      if (refusal) return this.error(refusal.status, refusal.description);
      const input = (body ?? {}) as Record<string, unknown>;
      const order = typeof input.order_id === 'string' ? this.orders.get(input.order_id) : undefined;
      if (!order) return this.error(400, 'The id provided does not exist');
      if (order.status === 'paid') return this.error(400, 'Order has already been paid');
      if ([...this.payments.values()].some((p) => p.order_id === order.id && p.status !== 'failed')) return this.error(400, 'Payment is already in progress for this order');
      const token = typeof input.token === 'string' ? this.tokens.get(input.token) : undefined;
      if (!token || token.customer_id !== input.customer_id) return this.error(400, 'The token id provided does not exist');
      if (token.status !== 'confirmed') return this.error(400, 'The token is not active');
      if (input.recurring !== '1' && input.recurring !== 1 && input.recurring !== true) return this.error(400, 'The recurring field is required.');
      if (input.amount !== order.amount || input.currency !== 'INR') return this.error(400, 'Payment amount is different from the order amount');
      if ((input.amount as number) > token.max_amount) return this.error(400, 'Amount exceeds the maximum amount allowed for the token');
      if (typeof input.email !== 'string') return this.error(400, 'The email field is required.');
      const payment = this.newPayment(order, { customer_id: token.customer_id, token_id: token.id, method: token.method, recurring: true, email: input.email, notes: (input.notes as Record<string, string>) ?? {} });
      order.status = 'attempted';
      order.attempts++;
      return {
        status: 200,
        body: { razorpay_payment_id: payment.id, razorpay_order_id: order.id, razorpay_signature: sign(this.keySecret, `${order.id}|${payment.id}`) },
      };
    }
    const paymentMatch = /^\/v1\/payments\/(pay_[A-Za-z0-9]+)$/.exec(path);
    if (req.method === 'GET' && paymentMatch) {
      const payment = this.payments.get(paymentMatch[1]!);
      return payment ? { status: 200, body: payment } : this.error(400, 'The id provided does not exist');
    }
    const orderPayments = /^\/v1\/orders\/(order_[A-Za-z0-9]+)\/payments$/.exec(path);
    if (req.method === 'GET' && orderPayments) {
      if (!this.orders.has(orderPayments[1]!)) return this.error(400, 'The id provided does not exist');
      const items = [...this.payments.values()].filter((p) => p.order_id === orderPayments[1]);
      return { status: 200, body: { entity: 'collection', count: items.length, items } };
    }
    const tokenMatch = /^\/v1\/customers\/(cust_[A-Za-z0-9]+)\/tokens\/(token_[A-Za-z0-9]+)$/.exec(path);
    if (req.method === 'DELETE' && tokenMatch) {
      const token = this.tokens.get(tokenMatch[2]!);
      if (!token || token.customer_id !== tokenMatch[1]) return this.error(400, 'The id provided does not exist');
      this.tokens.delete(token.id);
      return { status: 200, body: { deleted: true } };
    }
    const orderMatch = /^\/v1\/orders\/(order_[A-Za-z0-9]+)$/.exec(path);
    if (req.method === 'GET' && orderMatch) {
      const order = this.orders.get(orderMatch[1]!);
      return order ? { status: 200, body: order } : this.error(400, 'The id provided does not exist');
    }
    return this.error(404, 'The requested URL was not found on the server.', 'NOT_FOUND');
  }

  private newPayment(order: FakeOrder, p: Partial<FakePayment> & Pick<FakePayment, 'method' | 'recurring'>): FakePayment {
    const payment: FakePayment = {
      id: razorpayId('pay'),
      entity: 'payment',
      amount: order.amount,
      currency: 'INR',
      status: 'created',
      order_id: order.id,
      customer_id: null,
      token_id: null,
      card: p.method === 'card' ? { network: 'Visa', last4: '1111' } : null,
      vpa: p.method === 'upi' ? 'owner@okbank' : null,
      email: 'payer@example.com',
      contact: null,
      notes: order.notes,
      error_code: null,
      error_description: null,
      created_at: Math.floor(Date.now() / 1000),
      ...p,
    };
    this.payments.set(payment.id, payment);
    return payment;
  }

  /**
   * The owner pays an authorisation order in checkout (`customer_id`, `recurring: 1`): the
   * payment is captured and the card or UPI mandate is saved as a token on the customer. A UPI
   * mandate may stay `initiated` until `token.confirmed` (pass `confirmed: false`).
   */
  authorise(orderId: string, options: { confirmed?: boolean } = {}): CheckoutResult & { tokenId: string } {
    const order = this.orders.get(orderId);
    if (!order?.token || !order.customer_id) throw new Error(`fake razorpay: ${orderId} is not an authorisation order`);
    const method = order.method === 'upi' ? 'upi' : 'card';
    const token: FakeToken = {
      id: razorpayId('token'),
      entity: 'token',
      customer_id: order.customer_id,
      method,
      max_amount: order.token.max_amount,
      expired_at: order.token.expire_at,
      status: options.confirmed === false ? 'initiated' : 'confirmed',
    };
    this.tokens.set(token.id, token);
    const payment = this.newPayment(order, { customer_id: order.customer_id, token_id: options.confirmed === false ? null : token.id, method, recurring: false, status: 'captured' });
    Object.assign(order, { status: 'paid', amount_paid: order.amount, amount_due: 0, attempts: order.attempts + 1 });
    return { razorpay_order_id: orderId, razorpay_payment_id: payment.id, razorpay_signature: sign(this.keySecret, `${orderId}|${payment.id}`), tokenId: token.id };
  }

  /** The bank confirms a UPI mandate: the token becomes usable and Razorpay sends `token.confirmed`. */
  confirmToken(tokenId: string): SignedWebhook {
    const token = this.tokens.get(tokenId)!;
    token.status = 'confirmed';
    return this.signed('token.confirmed', { token: { entity: { ...token, recurring_details: { status: 'confirmed', failure_reason: null } } } });
  }

  /** The customer or their bank cancels, pauses or rejects the mandate: Razorpay sends the token event. */
  revokeToken(tokenId: string, event: 'token.cancelled' | 'token.paused' | 'token.rejected' = 'token.cancelled'): SignedWebhook {
    const token = this.tokens.get(tokenId)!;
    token.status = 'cancelled';
    return this.signed(event, { token: { entity: { ...token, recurring_details: { status: event.slice(6), failure_reason: null } } } });
  }

  /** A recurring charge goes through: the payment is captured and Razorpay sends `payment.captured`. */
  capture(paymentId: string): SignedWebhook {
    const payment = this.payments.get(paymentId)!;
    payment.status = 'captured';
    const order = this.orders.get(payment.order_id)!;
    Object.assign(order, { status: 'paid', amount_paid: order.amount, amount_due: 0 });
    return this.signed('payment.captured', { payment: { entity: { ...payment, captured: true } } });
  }

  /** A recurring charge is declined by the bank: Razorpay sends `payment.failed` with the reason. */
  decline(paymentId: string, description = 'Payment failed due to insufficient balance in the account.'): SignedWebhook {
    const payment = this.payments.get(paymentId)!;
    Object.assign(payment, { status: 'failed', error_code: 'BAD_REQUEST_ERROR', error_description: description });
    return this.signed('payment.failed', { payment: { entity: payment } });
  }

  private signed(event: string, payload: Record<string, unknown>): SignedWebhook {
    const body = JSON.stringify({ entity: 'event', account_id: 'acc_FakeAccount0001', event, contains: Object.keys(payload), payload, created_at: Math.floor(Date.now() / 1000) });
    const signature = sign(this.webhookSecret, body);
    return { body, signature, headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': razorpayId('pay').replace('pay_', 'evt_') } };
  }

  /** The customer pays an order: what Razorpay's checkout hands the browser, properly signed. */
  pay(orderId: string, paymentId = razorpayId('pay')): CheckoutResult {
    const order = this.orders.get(orderId);
    if (order) Object.assign(order, { status: 'paid', amount_paid: order.amount, amount_due: 0, attempts: order.attempts + 1 });
    return { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: sign(this.keySecret, `${orderId}|${paymentId}`) };
  }

  /** A checkout signature computed with some other secret (what a forger could make). */
  forge(orderId: string, paymentId = razorpayId('pay'), secret = 'not-the-key-secret'): CheckoutResult {
    return { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: sign(secret, `${orderId}|${paymentId}`) };
  }

  paymentEntity(orderId: string, paymentId: string, overrides: Record<string, unknown> = {}) {
    const order = this.orders.get(orderId);
    return {
      id: paymentId,
      entity: 'payment',
      amount: order?.amount ?? 500_000,
      currency: 'INR',
      status: 'captured',
      order_id: orderId,
      method: 'upi',
      captured: true,
      email: 'payer@example.com',
      contact: '+919999999999',
      notes: order?.notes ?? {},
      created_at: Math.floor(Date.now() / 1000),
      ...overrides,
    };
  }

  /** A webhook body exactly as Razorpay would send it, signed with the webhook secret (or `secret`). */
  webhook(
    event: 'payment.captured' | 'order.paid' | 'payment.failed' | 'payment.authorized',
    orderId: string,
    paymentId: string,
    options: { payment?: Record<string, unknown>; secret?: string } = {},
  ): SignedWebhook {
    const order = this.orders.get(orderId);
    const payload: Record<string, unknown> = { payment: { entity: this.paymentEntity(orderId, paymentId, options.payment) } };
    if (event === 'order.paid') {
      payload.order = { entity: { ...(order ?? { id: orderId }), status: 'paid', amount_paid: order?.amount ?? 0, amount_due: 0 } };
    }
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_FakeAccount0001',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: Math.floor(Date.now() / 1000),
    });
    const signature = sign(options.secret ?? this.webhookSecret, body);
    return {
      body,
      signature,
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': razorpayId('pay').replace('pay_', 'evt_') },
    };
  }
}

export async function startFakeRazorpay(): Promise<FakeRazorpay> {
  return new FakeRazorpay().start();
}
