import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import {
  ORIGIN,
  createHook,
  failedCheck,
  hookBusiness,
  logsOf,
  startReceiver as startScriptedReceiver,
  verifySigned,
  type HookBusiness,
  type Receiver,
} from '../../../../test/support/webhooks';
import { grantCredits } from '../credits/service';
import { createSender, type WebhookSender } from './sender';
import { RETRY_DELAYS_MS, WebhookWorker } from './worker';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP receiver on loopback whose answers the test scripts. */
async function startReceiver(answer: (n: number) => number) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answer(received.length);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describeEachDialect('webhook delivery', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let apiKey: string;
  let clock: Date;
  let worker: WebhookWorker;
  const origin = { origin: 'http://localhost:5000' };

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true', API_RATE_LIMIT_PER_MINUTE: '10000' });
    cookie = await signIn(t.app, `hooks-${dialect}@example.com`, 'Hook Owner');
    const created = await t.app.inject({ method: 'POST', url: '/api/business/create', headers: { cookie, ...origin }, payload: { companyName: 'Hooks Ltd' } });
    apiKey = created.json().apiKey;
    await grantCredits(t.ctx.db, { businessIdOrEmail: created.json().id, amountPaise: 10_005, reason: 'test' }, { userId: null, label: 'test' });
    clock = new Date();
    worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 2_000, allowPrivate: true }), now: () => clock });
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  it('signs deliveries per Standard Webhooks, retries after 1 s and 5 s, and logs every attempt', async () => {
    const receiver = await startReceiver((n) => (n <= 4 ? 500 : 204));
    try {
      const create = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: { cookie, ...origin },
        payload: { url: receiver.url, events: ['verification.failed', 'credit.low'] },
      });
      expect(create.statusCode).toBe(201);
      const { secret, id } = create.json();
      expect(secret).toMatch(/^whsec_/);

      // A failed check (wrong stateless token) that also crosses below ₹100: two events.
      const verify = await t.app.inject({
        method: 'POST',
        url: '/api/v1/verify',
        headers: { authorization: `Bearer ${apiKey}` },
        payload: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', token: '000000' },
      });
      expect(verify.json().status).toMatch(/invalid_code|expired/);

      clock = new Date();
      expect(await worker.runOnce()).toBe(2);
      expect(receiver.received).toHaveLength(2);
      // Each delivery fails twice, then succeeds: attempts at 0 s, +1 s and +1 s +5 s.
      clock = new Date(clock.getTime() + RETRY_DELAYS_MS[0]! - 10);
      expect(await worker.runOnce()).toBe(0);
      clock = new Date(clock.getTime() + 10);
      expect(await worker.runOnce()).toBe(2);
      clock = new Date(clock.getTime() + RETRY_DELAYS_MS[1]! - 10);
      expect(await worker.runOnce()).toBe(0);
      clock = new Date(clock.getTime() + 10);
      expect(await worker.runOnce()).toBe(2);
      clock = new Date(clock.getTime() + 60_000);
      expect(await worker.runOnce()).toBe(0);
      expect(receiver.received).toHaveLength(6);
      // The message id is stable across retries, so receivers can drop duplicates.
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(2);

      const verifier = new Webhook(secret);
      const events = receiver.received.map((r) =>
        verifier.verify(r.body, {
          'webhook-id': r.headers['webhook-id'] as string,
          'webhook-timestamp': r.headers['webhook-timestamp'] as string,
          'webhook-signature': r.headers['webhook-signature'] as string,
        }) as { event: string; data: Record<string, unknown> },
      );
      expect(new Set(events.map((e) => e.event))).toEqual(new Set(['verification.failed', 'credit.low']));
      expect(JSON.stringify(events)).not.toContain('000000');
      expect(receiver.received.every((r) => r.headers['x-sixdigit-event'])).toBe(true);

      const logs = (await t.app.inject({ method: 'GET', url: '/api/webhooks/logs', headers: { cookie } })).json();
      const mine = logs.filter((l: { webhookId: string }) => l.webhookId === id);
      expect(mine.map((l: { responseStatus: number }) => l.responseStatus).sort()).toEqual([204, 204, 500, 500, 500, 500]);
      expect(mine.map((l: { retryCount: number }) => l.retryCount).sort()).toEqual([0, 0, 1, 1, 2, 2]);
    } finally {
      await receiver.close();
    }
  });

  // --- one scripted receiver per test, a fresh business, and a clock only the test moves ----

  const receivers: Receiver[] = [];
  const workers: WebhookWorker[] = [];
  let owner: HookBusiness;
  const receive = async (...args: Parameters<typeof startScriptedReceiver>) => {
    const r = await startScriptedReceiver(...args);
    receivers.push(r);
    return r;
  };
  const workerWith = (sender: WebhookSender = createSender({ timeoutMs: 2_000, allowPrivate: true })) => {
    const w = new WebhookWorker(t.ctx, { sender, now: () => clock });
    workers.push(w);
    return w;
  };
  /** Moves the clock to `ms` after `start` and runs one pass. */
  const at = async (w: WebhookWorker, start: Date, ms: number) => {
    clock = new Date(start.getTime() + ms);
    return w.runOnce();
  };
  const testEvent = async (webhookId: string, cookie = owner.cookie) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/webhooks/${webhookId}/test`, headers: { cookie, ...ORIGIN } });
    expect(res.statusCode).toBe(202);
  };
  const deliveryRows = (webhookId: string) =>
    t.ctx.db.selectFrom('webhook_delivery').select(['id', 'status', 'attempt_count', 'event']).where('webhook_id', '=', webhookId).execute();

  const freshBusiness = async () => {
    owner = await hookBusiness(t.app, t.ctx, 50_000, `delivery-${dialect}`);
  };
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    // Nothing of one test is left due for the next one's worker.
    await t.ctx.db.deleteFrom('webhook').execute();
  });

  it('a receiver that fails twice then succeeds gets 3 attempts: at once, +1 s, +5 s more', async () => {
    await freshBusiness();
    const r = await receive((n) => (n <= 2 ? 500 : 200));
    const hook = await createHook(t.app, owner.cookie, { url: r.url, events: ['credit.low'] });
    await testEvent(hook.id);
    const w = workerWith();
    const start = new Date(Date.now() + 1);

    expect(await at(w, start, 0)).toBe(1);
    expect(await at(w, start, 999)).toBe(0);
    expect(await at(w, start, 1_000)).toBe(1);
    expect(await at(w, start, 1_000 + 4_999)).toBe(0);
    expect(await at(w, start, 6_000)).toBe(1);
    expect(await at(w, start, 6_000 + 3_600_000)).toBe(0);
    expect(r.received).toHaveLength(3);

    // Each attempt signed (checked by the standardwebhooks library), at its own time, one id.
    const envelopes = r.received.map((req) => verifySigned(hook.secret, req));
    expect(envelopes.every((e) => e.event === 'test.ping')).toBe(true);
    expect(new Set(r.ids()).size).toBe(1);
    const stamps = r.received.map((req) => Number(req.headers['webhook-timestamp']));
    expect([stamps[1]! - stamps[0]!, stamps[2]! - stamps[1]!]).toEqual([1, 5]);

    const logs = await logsOf(t.app, owner.cookie, hook.id);
    expect(logs.map((l) => [l.responseStatus, l.retryCount, l.attemptNumber, l.deliveryStatus])).toEqual([
      [200, 2, 3, 'succeeded'],
      [500, 1, 2, 'succeeded'],
      [500, 0, 1, 'succeeded'],
    ]);
    const times = logs.map((l) => Date.parse(l.createdAt)).reverse();
    expect([times[1]! - times[0]!, times[2]! - times[1]!]).toEqual([RETRY_DELAYS_MS[0], RETRY_DELAYS_MS[1]]);
    expect(logs.every((l) => typeof l.responseTime === 'number' && l.responseTime >= 0 && l.error === null)).toBe(true);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: { cookie: owner.cookie } })).json();
    expect(listed.find((x: { id: string }) => x.id === hook.id).lastTriggered).toBe(new Date(start.getTime() + 6_000).toISOString());
  });

  it('gives up after 3 retries (at +1 s, +5 s, +30 s): 4 attempts, then exhausted', async () => {
    await freshBusiness();
    const r = await receive(() => 503);
    const hook = await createHook(t.app, owner.cookie, { url: r.url, events: ['credit.low'] });
    await testEvent(hook.id);
    const w = workerWith();
    const start = new Date(Date.now() + 1);
    expect(await at(w, start, 0)).toBe(1);
    expect(await at(w, start, 1_000)).toBe(1);
    expect(await at(w, start, 6_000)).toBe(1);
    expect(await at(w, start, 36_000 - 1)).toBe(0);
    expect(await at(w, start, 36_000)).toBe(1);
    expect(await at(w, start, 36_000 + 3_600_000)).toBe(0);
    expect(r.received).toHaveLength(4);
    const logs = await logsOf(t.app, owner.cookie, hook.id);
    expect(logs.map((l) => l.retryCount)).toEqual([3, 2, 1, 0]);
    expect(logs.every((l) => l.responseStatus === 503 && l.deliveryStatus === 'exhausted')).toBe(true);
    expect(await deliveryRows(hook.id)).toEqual([expect.objectContaining({ status: 'exhausted', attempt_count: 4 })]);
  });

  it('cuts a receiver that hangs at the deadline and records a timeout, then retries', async () => {
    await freshBusiness();
    const r = await receive((n) => (n === 1 ? 'hang' : 204));
    const hook = await createHook(t.app, owner.cookie, { url: r.url, events: ['credit.low'] });
    await testEvent(hook.id);
    const w = workerWith(createSender({ timeoutMs: 300, allowPrivate: true }));
    const start = new Date(Date.now() + 1);
    const began = performance.now();
    expect(await at(w, start, 0)).toBe(1);
    const wall = performance.now() - began;
    expect(wall).toBeLessThan(1_000);
    let [attempt] = await logsOf(t.app, owner.cookie, hook.id);
    expect(attempt).toMatchObject({ responseStatus: null, error: 'timed out after 300 ms', retryCount: 0, deliveryStatus: 'pending' });
    expect(attempt!.responseTime).toBeGreaterThanOrEqual(299);
    expect(attempt!.responseTime).toBeLessThan(450);

    expect(await at(w, start, 1_000)).toBe(1);
    [attempt] = await logsOf(t.app, owner.cookie, hook.id);
    expect(attempt).toMatchObject({ responseStatus: 204, error: null, retryCount: 1, deliveryStatus: 'succeeded' });
  });

  it('follows no redirect: a 302 is recorded as 302, is not a success, and its target is never called', async () => {
    await freshBusiness();
    const target = await receive(() => 200);
    const r = await receive(() => ({ status: 302, headers: { location: target.url } }));
    const hook = await createHook(t.app, owner.cookie, { url: r.url, events: ['credit.low'] });
    await testEvent(hook.id);
    const w = workerWith();
    const start = new Date(Date.now() + 1);
    for (const ms of [0, 1_000, 6_000, 36_000]) expect(await at(w, start, ms)).toBe(1);
    expect(r.received).toHaveLength(4);
    expect(target.received).toHaveLength(0);
    const logs = await logsOf(t.app, owner.cookie, hook.id);
    expect(logs.map((l) => l.responseStatus)).toEqual([302, 302, 302, 302]);
    expect(logs[0]!.deliveryStatus).toBe('exhausted');
  });

  it('disables the endpoint when it answers 410 Gone, without retrying', async () => {
    await freshBusiness();
    const r = await receive(() => 410);
    const hook = await createHook(t.app, owner.cookie, { url: r.url, events: ['verification.failed'] });
    expect((await failedCheck(t.app, owner.apiKey)).statusCode).toBe(200);
    const w = workerWith();
    const start = new Date(Date.now() + 1);
    expect(await at(w, start, 0)).toBe(1);
    expect(await at(w, start, 3_600_000)).toBe(0);
    expect(r.received).toHaveLength(1);
    const [attempt] = await logsOf(t.app, owner.cookie, hook.id);
    expect(attempt).toMatchObject({ responseStatus: 410, deliveryStatus: 'exhausted', event: 'verification.failed' });
    const listed = (await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: { cookie: owner.cookie } })).json();
    expect(listed.find((x: { id: string }) => x.id === hook.id)).toMatchObject({ isActive: false, disabledReason: 'The endpoint answered 410 Gone.' });
    // A disabled endpoint gets no new events.
    expect((await failedCheck(t.app, owner.apiKey)).statusCode).toBe(200);
    expect(await deliveryRows(hook.id)).toHaveLength(1);
  });

  it("cancels an inactive webhook's pending deliveries (new and retries) instead of sending them", async () => {
    await freshBusiness();
    const r = await receive(() => 500);
    const hook = await createHook(t.app, owner.cookie, { url: r.url, events: ['verification.failed'] });
    await testEvent(hook.id);
    const w = workerWith();
    const start = new Date(Date.now() + 1);
    expect(await at(w, start, 0)).toBe(1); // first attempt fails: a retry is pending
    await failedCheck(t.app, owner.apiKey); // and a new event is queued
    expect((await deliveryRows(hook.id)).map((d) => d.status).sort()).toEqual(['pending', 'pending']);

    const off = await t.app.inject({ method: 'PATCH', url: `/api/webhooks/${hook.id}/toggle`, headers: { cookie: owner.cookie, ...ORIGIN }, payload: { isActive: false } });
    expect(off.statusCode).toBe(200);
    await at(w, start, 10_000);
    expect(r.received).toHaveLength(1);
    expect((await deliveryRows(hook.id)).map((d) => d.status)).toEqual(['cancelled', 'cancelled']);
    // Switching it back on does not resurrect them.
    await t.app.inject({ method: 'PATCH', url: `/api/webhooks/${hook.id}/toggle`, headers: { cookie: owner.cookie, ...ORIGIN }, payload: { isActive: true } });
    expect(await at(w, start, 100_000)).toBe(0);
    expect(r.received).toHaveLength(1);
    expect((await logsOf(t.app, owner.cookie, hook.id)).filter((l) => l.responseStatus === null)).toHaveLength(0);
  });

  it('a worker with private targets refused records the refusal as an attempt (connect-time guard)', async () => {
    await freshBusiness();
    const r = await receive(() => 200);
    // Saved while private targets were allowed (or a name that re-resolved since): refused when called.
    const literal = await createHook(t.app, owner.cookie, { url: r.url, events: ['credit.low'] });
    const named = await createHook(t.app, owner.cookie, { url: r.url.replace('127.0.0.1', 'localhost'), events: ['credit.low'] });
    await testEvent(literal.id);
    await testEvent(named.id);
    const w = workerWith(createSender({ timeoutMs: 1_000, allowPrivate: false }));
    const start = new Date(Date.now() + 1);
    expect(await at(w, start, 0)).toBe(2);
    expect(r.received).toHaveLength(0);
    const [a] = await logsOf(t.app, owner.cookie, literal.id);
    const [b] = await logsOf(t.app, owner.cookie, named.id);
    expect(a).toMatchObject({ responseStatus: null, error: 'refused: private address', deliveryStatus: 'pending' });
    expect(b).toMatchObject({ responseStatus: null, error: 'refused: localhost resolves to a private address', deliveryStatus: 'pending' });
  });

  it("signs with the business's own secret; a tampered body or another secret does not verify", async () => {
    await freshBusiness();
    const r = await receive(() => 200);
    const secret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
    const hook = await createHook(t.app, owner.cookie, { url: r.url, events: ['credit.low'], secret });
    await testEvent(hook.id);
    await at(workerWith(), new Date(Date.now() + 1), 0);
    const [req] = r.received;
    expect(verifySigned(secret, req!)).toMatchObject({ event: 'test.ping', data: { webhook_id: hook.id } });
    expect(req!.headers['x-sixdigit-event']).toBe('test.ping');
    expect(() => verifySigned(secret, { ...req!, body: req!.body.replace('test event', 'test evenT') })).toThrow();
    expect(() => verifySigned(`whsec_${Buffer.alloc(32, 4).toString('base64')}`, req!)).toThrow();
  });
});
