import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { grantCredits } from '../credits/service';
import { createSender } from './sender';
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
});
