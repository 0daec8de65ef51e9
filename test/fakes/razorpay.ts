import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Razorpay's HTTP API, for tests only (Razorpay cannot be reached from here).
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
function razorpayId(prefix: 'order' | 'pay'): string {
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
  readonly requests: RecordedRequest[] = [];
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
      const order: FakeOrder = {
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
    const orderMatch = /^\/v1\/orders\/(order_[A-Za-z0-9]+)$/.exec(path);
    if (req.method === 'GET' && orderMatch) {
      const order = this.orders.get(orderMatch[1]!);
      return order ? { status: 200, body: order } : this.error(400, 'The id provided does not exist');
    }
    return this.error(404, 'The requested URL was not found on the server.', 'NOT_FOUND');
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
