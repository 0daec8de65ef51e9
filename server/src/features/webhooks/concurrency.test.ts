import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/support/db';
import { createHook, hookBusiness, startReceiver, type Receiver } from '../../../../test/support/webhooks';
import { createContext, type AppContext } from '../../context';
import { openDatabase } from '../../db';
import { enqueueEvent } from './events';
import { createSender } from './sender';
import { WebhookWorker } from './worker';

const EVENTS = 200;

/**
 * Two server instances on one PostgreSQL (two pools, two workers) deliver every event exactly
 * once: claiming uses FOR UPDATE SKIP LOCKED. SQLite is one process by design, so this is
 * PostgreSQL only.
 */
describe.skipIf(!inject('postgresAvailable'))('two webhook workers on one PostgreSQL [postgres]', () => {
  let t: TestApp;
  let second: AppContext;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await createTestApp('postgres', { WEBHOOK_ALLOW_PRIVATE: 'true' });
    second = createContext(t.ctx.config, openDatabase(t.ctx.config.database));
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await second?.database.close();
    await t?.close();
  });

  it(`deliver ${EVENTS} events to 2 endpoints (${EVENTS * 2} deliveries) exactly once under load`, async () => {
    const biz = await hookBusiness(t.app, t.ctx, 0, 'concurrency');
    // Receivers answer after a few ms, so claims and deliveries of the two workers overlap.
    const slow = () => new Promise<void>((r) => setTimeout(r, Math.random() * 5));
    const a = await startReceiver(() => 200);
    const b = await startReceiver(() => 204);
    receivers.push(a, b);
    await createHook(t.app, biz.cookie, { url: a.url, events: ['verification.success'] });
    await createHook(t.app, biz.cookie, { url: b.url, events: ['verification.success'] });

    const sender = createSender({ timeoutMs: 5_000, allowPrivate: true });
    const delayed: typeof sender = async (...args) => {
      await slow();
      return sender(...args);
    };
    const workers = [new WebhookWorker(t.ctx, { sender: delayed, batchSize: 20 }), new WebhookWorker(second, { sender: delayed, batchSize: 20 })];
    const delivered = [0, 0];

    // The producer queues events (in their own transactions, like verifications do) while both
    // workers are already claiming.
    let produced = false;
    const producer = (async () => {
      for (let i = 0; i < EVENTS; i += 10) {
        await Promise.all(
          Array.from({ length: 10 }, (_, k) =>
            t.ctx.db.transaction().execute((trx) =>
              enqueueEvent(trx, biz.businessId, 'verification.success', { verification_id: `ver_load_${i + k}` }, new Date(), { verificationId: `ver_load_${i + k}` }),
            ),
          ),
        );
      }
      produced = true;
    })();
    const outstanding = async () =>
      Number(
        (
          await t.ctx.db
            .selectFrom('webhook_delivery')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('business_id', '=', biz.businessId)
            .where('status', '!=', 'succeeded')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const deadline = Date.now() + 20_000;
    const loop = async (i: number) => {
      for (;;) {
        const n = await workers[i]!.runOnce();
        delivered[i]! += n;
        if (n === 0) {
          if (produced && (await outstanding()) === 0) return;
          if (Date.now() > deadline) throw new Error('deliveries did not finish in time');
          await new Promise((r) => setTimeout(r, 5));
        }
      }
    };
    const started = performance.now();
    await Promise.all([producer, loop(0), loop(1)]);
    const elapsed = performance.now() - started;

    const received = [...a.received, ...b.received];
    const perId = new Map<string, number>();
    for (const r of received) perId.set(r.headers['webhook-id'] as string, (perId.get(r.headers['webhook-id'] as string) ?? 0) + 1);
    const duplicates = [...perId.values()].filter((n) => n > 1).length;
    const attempts = await t.ctx.db
      .selectFrom('webhook_attempt')
      .innerJoin('webhook_delivery', 'webhook_delivery.id', 'webhook_attempt.delivery_id')
      .select(['webhook_attempt.delivery_id', 'webhook_attempt.status_code'])
      .where('webhook_delivery.business_id', '=', biz.businessId)
      .execute();
    console.info(
      `[exactly-once] events=${EVENTS} deliveries=${EVENTS * 2} received=${received.length} distinct=${perId.size} duplicates=${duplicates} ` +
        `attempts=${attempts.length} worker1=${delivered[0]} worker2=${delivered[1]} in ${Math.round(elapsed)} ms`,
    );

    expect(a.received).toHaveLength(EVENTS);
    expect(b.received).toHaveLength(EVENTS);
    expect(perId.size).toBe(EVENTS * 2);
    expect(duplicates).toBe(0);
    expect(attempts).toHaveLength(EVENTS * 2);
    expect(new Set(attempts.map((x) => x.delivery_id)).size).toBe(EVENTS * 2);
    // Both instances really took part.
    expect(delivered[0]).toBeGreaterThan(0);
    expect(delivered[1]).toBeGreaterThan(0);
    expect(delivered[0]! + delivered[1]!).toBe(EVENTS * 2);
    // Every verification reached each endpoint once.
    const verificationIds = new Set(a.received.map((r) => JSON.parse(r.body).verification_id));
    expect(verificationIds.size).toBe(EVENTS);
  });
});
