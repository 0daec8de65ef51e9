import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  backoffMs,
  ConnectionError,
  DEFAULT_RETRY_POLICY,
  InvalidRequestError,
  RateLimitError,
  retryAfterMs,
  ServerError,
  Sixdigit,
  SixdigitError,
  WebhookVerificationError,
} from '../src/index.js';

/**
 * The SDK's HTTP rules against a local server that misbehaves on purpose: which failures are
 * retried, how long it waits, and that every attempt of one call carries the same Idempotency-Key.
 */

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

type Script = (n: number, seen: Seen) => { status: number; headers?: Record<string, string>; body?: unknown } | 'drop';

let script: Script = () => ({ status: 200, body: {} });
const seen: Seen[] = [];
const sockets = new Set<Socket>();
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const record = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: performance.now() };
    seen.push(record);
    const answer = script(seen.length, record);
    if (answer === 'drop') return req.socket.destroy(); // no answer at all: a reset connection
    res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': `req-${seen.length}`, ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
});
server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
let base = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});
afterEach(() => {
  seen.length = 0;
  script = () => ({ status: 200, body: {} });
});

const fast = (extra: Partial<ConstructorParameters<typeof Sixdigit>[0]> = {}) =>
  new Sixdigit({ apiKey: 'sk_test_unit', baseUrl: base, retry: { initialDelayMs: 10, maxDelayMs: 40 }, ...extra });
const envelope = (code: string, status: number) => ({ error: { code, message: `${code} happened`, request_id: `req-${status}`, doc_url: `https://example.test/docs#error-${code}` } });
const verified = { verified: true, status: 'verified', verification_id: 'ver_1', request_id: 'r', timestamp: '2026-01-01T00:00:00.000Z', cost: '0.10', balance: '1.00' };

describe('retries', () => {
  it('retries a 503 and a dropped connection, sending one generated Idempotency-Key on every attempt of the POST', async () => {
    script = (n) => (n === 1 ? { status: 503, body: envelope('unavailable', 503) } : n === 2 ? 'drop' : { status: 200, body: verified });
    const result = await fast().verify({ user_id: 'u1', totp_code: '123456' });
    expect(result).toEqual(verified);
    expect(seen).toHaveLength(3);
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(seen.every((s) => s.body === JSON.stringify({ user_id: 'u1', totp_code: '123456' }))).toBe(true);
    expect(seen[0]!.headers.authorization).toBe('Bearer sk_test_unit');
  });

  it('uses a new key for each call, and the caller’s own key when given', async () => {
    script = () => ({ status: 201, body: { user_id: 'u' } });
    const sd = fast();
    await sd.generate({ user_id: 'u' });
    await sd.generate({ user_id: 'u' });
    await sd.generate({ user_id: 'u' }, { idempotencyKey: 'order-42' });
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('order-42');
  });

  it('sends no Idempotency-Key on a GET, and retries a GET on 500', async () => {
    script = (n) => (n === 1 ? { status: 500, body: envelope('internal', 500) } : { status: 200, body: { business_id: 'b' } });
    expect(await fast().profile()).toEqual({ business_id: 'b' });
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual([undefined, undefined]);
  });

  it('waits what Retry-After says on a 429 (not the short backoff) and then succeeds', async () => {
    script = (n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' }, body: envelope('rate_limited', 429) } : { status: 200, body: verified });
    await fast().verify({ secret: 'JBSWY3DPEHPK3PXP', token: '123456' });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs: throws RateLimitError with retry_after at once', async () => {
    script = () => ({ status: 429, headers: { 'retry-after': '120' }, body: envelope('rate_limited', 429) });
    const error = await fast().profile().catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'rate_limited', status: 429, request_id: 'req-429', retry_after: 120 });
  });

  it('gives up after maxRetries with a ServerError carrying the last envelope', async () => {
    script = () => ({ status: 502, body: envelope('bad_gateway', 502) });
    const error = await fast({ maxRetries: 2 }).profile().catch((e: unknown) => e);
    expect(seen).toHaveLength(3);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toBeInstanceOf(SixdigitError);
    expect(error).toMatchObject({ code: 'bad_gateway', status: 502, doc_url: 'https://example.test/docs#error-bad_gateway' });
  });

  it('never retries a 4xx other than 429, and types the error with its details', async () => {
    script = () => ({
      status: 400,
      body: { error: { ...envelope('validation_failed', 400).error, details: [{ path: 'user_id', message: 'Required' }] } },
    });
    const error = await fast().generate({ user_id: '' }).catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ code: 'validation_failed', status: 400, request_id: 'req-400', details: [{ path: 'user_id', message: 'Required' }] });
    script = () => ({ status: 401, body: envelope('unauthorized', 401) });
    await expect(fast().profile()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('a refused connection becomes a ConnectionError (status null) after the retries', async () => {
    const sd = new Sixdigit({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1', maxRetries: 1, retry: { initialDelayMs: 5 } });
    const error = await sd.profile().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'connection_error', status: null });
  });

  it('a timed-out attempt is retried; the last one is a ConnectionError with code timeout', async () => {
    script = () => 'drop';
    let n = 0;
    const hang: typeof fetch = (input, init) => {
      n += 1;
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    };
    const sd = new Sixdigit({ apiKey: 'k', baseUrl: base, fetch: hang, timeoutMs: 30, maxRetries: 1, retry: { initialDelayMs: 5 } });
    await expect(sd.profile()).rejects.toMatchObject({ name: 'ConnectionError', code: 'timeout', status: null });
    expect(n).toBe(2);
  });

  it('the caller’s AbortSignal stops the call, including a wait between retries', async () => {
    script = () => ({ status: 503, body: envelope('unavailable', 503) });
    const controller = new AbortController();
    const sd = new Sixdigit({ apiKey: 'k', baseUrl: base, retry: { initialDelayMs: 5_000, maxDelayMs: 5_000 } });
    setTimeout(() => controller.abort(new Error('stop')), 100);
    const started = performance.now();
    await expect(sd.profile({ signal: controller.signal })).rejects.toThrow('stop');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(seen).toHaveLength(1);
  });
});

describe('backoff and Retry-After parsing', () => {
  it('doubles from initialDelayMs, capped at maxDelayMs, jittered within [half, full]', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, initialDelayMs: 500, maxDelayMs: 8_000 };
    expect([1, 2, 3, 4, 5, 6].map((r) => backoffMs(r, policy, () => 1))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect([1, 2, 3].map((r) => backoffMs(r, policy, () => 0))).toEqual([250, 500, 1000]);
  });

  it('reads delay-seconds and HTTP dates', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs(new Date(10_000 + 5_000).toUTCString(), 10_000)).toBe(5_000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});

describe('pagination', () => {
  it('listVerifications walks every page with starting_after, keeping the filters', async () => {
    const pages: Record<string, { data: Array<{ verification_id: string }>; has_more: boolean }> = {
      '': { data: [{ verification_id: 'v3' }, { verification_id: 'v2' }], has_more: true },
      v2: { data: [{ verification_id: 'v1' }], has_more: false },
    };
    script = (_n, s) => ({ status: 200, body: pages[new URL(s.url, base).searchParams.get('starting_after') ?? '']! });
    const ids: string[] = [];
    for await (const v of fast().listVerifications({ user_id: 'u 1', status: 'verified', limit: 2 })) ids.push(v.verification_id);
    expect(ids).toEqual(['v3', 'v2', 'v1']);
    expect(seen.map((s) => s.url)).toEqual(['/api/v1/verifications?limit=2&user_id=u+1&status=verified', '/api/v1/verifications?limit=2&user_id=u+1&status=verified&starting_after=v2']);
  });

  it('webhook endpoints: PATCH carries the changed fields only, deliveries walk their own pages', async () => {
    script = (_n, s) =>
      s.method === 'PATCH'
        ? { status: 200, body: { id: 'wh_1', is_active: false } }
        : { status: 200, body: new URL(s.url, base).searchParams.get('starting_after') ? { data: [{ id: 'msg_1' }], has_more: false } : { data: [{ id: 'msg_2' }], has_more: true } };
    const sd = fast();
    await sd.webhookEndpoints.update('wh_1', { is_active: false });
    const ids: string[] = [];
    for await (const d of sd.webhookEndpoints.deliveries('wh_1', { limit: 1 })) ids.push(d.id);
    expect(ids).toEqual(['msg_2', 'msg_1']);
    expect(seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual([
      'PATCH /api/v1/webhook_endpoints/wh_1 {"is_active":false}',
      'GET /api/v1/webhook_endpoints/wh_1/deliveries?limit=1 ',
      'GET /api/v1/webhook_endpoints/wh_1/deliveries?limit=1&starting_after=msg_2 ',
    ]);
    expect(seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('ids in paths are escaped', async () => {
    script = () => ({ status: 200, body: {} });
    await fast().getUser('a/b c');
    expect(seen[0]!.url).toBe('/api/v1/users/a%2Fb%20c');
  });
});

describe('Sixdigit.webhooks.verify', () => {
  // The Standard Webhooks reference vector.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = JSON.stringify({ type: 'verification.success', data: { user_id: 'u' } });

  it('accepts a delivery signed with the endpoint secret, from Headers or a Node headers object', () => {
    const id = 'msg_1';
    const now = new Date();
    const signature = new Webhook(secret).sign(id, now, body);
    const headers = { 'Webhook-Id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': `v1,bogus ${signature}` };
    expect(Sixdigit.webhooks.verify(body, headers, secret)).toMatchObject({ type: 'verification.success' });
    expect(Sixdigit.webhooks.verify(new TextEncoder().encode(body), new Headers(headers), secret)).toMatchObject({ type: 'verification.success' });
  });

  it('refuses a changed body, a wrong secret, an old timestamp and missing headers', () => {
    const now = new Date();
    const sign = (at: Date) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('msg_1', at, body) });
    expect(() => Sixdigit.webhooks.verify(body.replace('u', 'v'), sign(now), secret)).toThrow(WebhookVerificationError);
    expect(() => Sixdigit.webhooks.verify(body, sign(now), `whsec_${btoa('x'.repeat(32))}`)).toThrow(WebhookVerificationError);
    expect(() => Sixdigit.webhooks.verify(body, sign(new Date(now.getTime() - 10 * 60_000)), secret)).toThrow(WebhookVerificationError);
    expect(() => Sixdigit.webhooks.verify(body, { 'webhook-id': 'msg_1' }, secret)).toThrow(/Missing webhook-timestamp/);
  });
});

describe('construction', () => {
  it('needs a key and a base URL; an origin gets /api/v1', () => {
    expect(() => new Sixdigit({ apiKey: '', baseUrl: base })).toThrow(/apiKey/);
    expect(() => new Sixdigit({ apiKey: 'k', baseUrl: '' })).toThrow(/baseUrl/);
    expect(new Sixdigit({ apiKey: 'k', baseUrl: 'https://h.example/' }).baseUrl).toBe('https://h.example/api/v1');
    expect(new Sixdigit({ apiKey: 'k', baseUrl: 'https://h.example/v1' }).baseUrl).toBe('https://h.example/v1');
  });
});
