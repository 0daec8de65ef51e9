import type { WebhookLogEntry } from '@common/contract/webhooks';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { TOTP } from 'otpauth';
import { Webhook } from 'standardwebhooks';
import type { AppContext } from '../../server/src/context';
import { grantCredits } from '../../server/src/features/credits/service';
import { signIn } from './db';

/** Webhook test helpers: real HTTP receivers on loopback, signature checks by `standardwebhooks`. */

/** What a browser sends with a write from our own page. */
export const ORIGIN = { origin: 'http://localhost:5000', 'sec-fetch-site': 'same-origin' };

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
  at: number;
}

/**
 * What the receiver does with the n-th request (1-based): answer with a status (and headers),
 * or `hang` (never answer; the socket is destroyed when the receiver closes).
 */
export type Answer = number | { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  origin: string;
  received: Received[];
  /** The webhook-id header of every request, in arrival order. */
  ids(): string[];
  /** Resolves when at least `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (n: number, request: Received) => Answer = () => 204, path = '/hooks'): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const respond = (res: ServerResponse, a: Answer) => {
    if (a === 'hang') return;
    const { status, headers } = typeof a === 'number' ? { status: a, headers: {} } : a;
    res.writeHead(status, headers);
    res.end('ok');
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const record: Received = { headers: req.headers, body, path: req.url ?? '', at: performance.now() };
      received.push(record);
      for (const w of waiters.splice(0)) {
        if (received.length >= w.n) w.resolve();
        else waiters.push(w);
      }
      respond(res, answer(received.length, record));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${path}`,
    origin,
    received,
    ids: () => received.map((r) => r.headers['webhook-id'] as string),
    waitFor: (n, timeoutMs = 5_000) =>
      received.length >= n
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${n} requests`)), timeoutMs);
            waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
          }),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

export interface WebhookEnvelope {
  /** Standard Webhooks' name for the event; `event` carries the same value */
  type: string;
  event: string;
  livemode: boolean;
  data: Record<string, unknown>;
  timestamp: string;
  verification_id: string | null;
}

/** Verifies one received request with the `standardwebhooks` library; throws when it does not verify. */
export function verifySigned(secret: string, r: Received): WebhookEnvelope {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id'] as string,
    'webhook-timestamp': r.headers['webhook-timestamp'] as string,
    'webhook-signature': r.headers['webhook-signature'] as string,
  }) as WebhookEnvelope;
}

export interface HookBusiness {
  cookie: string;
  apiKey: string;
  businessId: string;
}

let seq = 0;

/** Signs a new owner in, creates their business and (optionally) grants credit. */
export async function hookBusiness(app: FastifyInstance, ctx: AppContext, amountPaise = 0, label = 'hooks'): Promise<HookBusiness> {
  seq += 1;
  const cookie = await signIn(app, `${label}-${Date.now().toString(36)}-${seq}@example.com`, 'Hook Owner');
  const res = await app.inject({ method: 'POST', url: '/api/business/create', headers: { cookie, ...ORIGIN }, payload: { companyName: `Hooks ${seq}` } });
  if (res.statusCode !== 201) throw new Error(`business create failed: ${res.statusCode} ${res.body}`);
  const businessId = res.json().id as string;
  if (amountPaise > 0) await grant(ctx, businessId, amountPaise);
  return { cookie, apiKey: res.json().apiKey, businessId };
}

export async function grant(ctx: AppContext, businessId: string, amountPaise: number): Promise<void> {
  await grantCredits(ctx.db, { businessIdOrEmail: businessId, amountPaise, reason: 'webhook test' }, { userId: null, label: 'test' });
}

/** POST /api/webhooks; throws unless 201. Returns the created webhook (with its one-time secret). */
export async function createHook(
  app: FastifyInstance,
  cookie: string,
  payload: { url: string; events: string[]; secret?: string; livemode?: boolean },
): Promise<{ id: string; secret: string; url: string; events: string[]; isActive: boolean; livemode: boolean }> {
  const res = await app.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie, ...ORIGIN }, payload });
  if (res.statusCode !== 201) throw new Error(`webhook create failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export type LogEntry = WebhookLogEntry;

export async function logsOf(app: FastifyInstance, cookie: string, webhookId?: string, mode: 'live' | 'test' = 'live'): Promise<LogEntry[]> {
  const res = await app.inject({ method: 'GET', url: `/api/webhooks/logs?mode=${mode}`, headers: { cookie } });
  if (res.statusCode !== 200) throw new Error(`logs failed: ${res.statusCode} ${res.body}`);
  const rows = res.json() as LogEntry[];
  return webhookId ? rows.filter((r) => r.webhookId === webhookId) : rows;
}

/** A stateless check with a well-formed but wrong code: billed, status invalid_code or expired. */
export const STATELESS_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** A six-digit code that is none of the secret's codes within ±3 steps of now. */
export function wrongCode(secret = STATELESS_SECRET): string {
  const totp = new TOTP({ secret });
  const near = new Set([-3, -2, -1, 0, 1, 2, 3].map((k) => totp.generate({ timestamp: Date.now() + k * 30_000 })));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

export function currentCode(secret: string): string {
  return new TOTP({ secret }).generate();
}

export async function failedCheck(app: FastifyInstance, apiKey: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { authorization: `Bearer ${apiKey}`, ...headers },
    payload: { secret: STATELESS_SECRET, token: wrongCode() },
  });
}
