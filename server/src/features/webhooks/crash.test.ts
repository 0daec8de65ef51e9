import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { createHook, failedCheck, hookBusiness, logsOf, startReceiver, type Receiver } from '../../../../test/support/webhooks';
import * as repo from './repo';
import { createSender, type WebhookSender } from './sender';
import { LEASE_MS, WebhookWorker } from './worker';

/**
 * Never lost: a worker that dies mid-delivery leaves its rows leased, and a fresh worker takes
 * them once the lease runs out (at least once; the webhook-id stays the same so receivers can
 * drop the repeat). And the outbox commits or vanishes with the verification that caused it.
 */
describeEachDialect('webhook crash safety and the transactional outbox', (dialect) => {
  let t: TestApp;
  let clock: Date;
  const receivers: Receiver[] = [];
  const realSender = createSender({ timeoutMs: 2_000, allowPrivate: true });

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await t.ctx.db.deleteFrom('webhook').execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  const receive = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
  const deliveries = (webhookId: string) =>
    t.ctx.db.selectFrom('webhook_delivery').select(['id', 'status', 'attempt_count', 'locked_until']).where('webhook_id', '=', webhookId).orderBy('id').execute();

  it('a worker killed after sending but before recording: a fresh worker redelivers after the lease, and the log shows it', async () => {
    const biz = await hookBusiness(t.app, t.ctx, 10_000, `crash-${dialect}`);
    const r = await receive(() => 200);
    const hook = await createHook(t.app, biz.cookie, { url: r.url, events: ['verification.failed'] });
    for (let i = 0; i < 3; i++) expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(200);
    const start = new Date(Date.now() + 1);
    clock = start;

    // The doomed worker: its POSTs reach the receiver, then the process "dies" before it records.
    const dying: WebhookSender = async (url, headers, body) => {
      await realSender(url, headers, body);
      return new Promise(() => {});
    };
    // All three at once: room for three in flight to this one endpoint (the default is two).
    void new WebhookWorker(t.ctx, { sender: dying, now: () => clock, perEndpoint: 3 }).runOnce();
    await r.waitFor(3);
    const leased = await deliveries(hook.id);
    expect(leased.map((d) => d.status)).toEqual(['delivering', 'delivering', 'delivering']);
    // Meanwhile the log shows them, not yet answered.
    const during = await logsOf(t.app, biz.cookie, hook.id);
    expect(during.map((l) => [l.responseStatus, l.deliveryStatus])).toEqual(Array(3).fill([null, 'delivering']));

    // Restart: a fresh worker leaves leased rows alone until the lease runs out...
    const fresh = new WebhookWorker(t.ctx, { sender: realSender, now: () => clock });
    clock = new Date(start.getTime() + LEASE_MS - 1);
    expect(await fresh.runOnce()).toBe(0);
    // ...then delivers every one of them.
    clock = new Date(start.getTime() + LEASE_MS + 1);
    expect(await fresh.runOnce()).toBe(3);
    expect(await fresh.runOnce()).toBe(0);

    const ids = r.ids();
    const perId = new Map<string, number>();
    for (const id of ids) perId.set(id, (perId.get(id) ?? 0) + 1);
    expect(perId.size).toBe(3);
    expect([...perId.values()]).toEqual([2, 2, 2]); // at least once: the repeat carries the same id
    expect((await deliveries(hook.id)).map((d) => [d.status, d.attempt_count])).toEqual(Array(3).fill(['succeeded', 1]));
    const after = await logsOf(t.app, biz.cookie, hook.id);
    expect(after.map((l) => [l.responseStatus, l.deliveryStatus])).toEqual(Array(3).fill([200, 'succeeded']));
    expect(new Set(after.map((l) => l.deliveryId))).toEqual(new Set(perId.keys()));
  });

  it('rows claimed by a worker that died before sending are delivered exactly once after the lease', async () => {
    const biz = await hookBusiness(t.app, t.ctx, 10_000, `claim-${dialect}`);
    const r = await receive(() => 204);
    const hook = await createHook(t.app, biz.cookie, { url: r.url, events: ['verification.failed'] });
    for (let i = 0; i < 2; i++) await failedCheck(t.app, biz.apiKey);
    const start = new Date(Date.now() + 1);
    const claimed = await repo.claimDueDeliveries(t.ctx.db, t.ctx.database.dialect, start, new Date(start.getTime() + LEASE_MS), 20);
    expect(claimed).toHaveLength(2);
    // A second claim (another instance) gets nothing while the lease holds.
    expect(await repo.claimDueDeliveries(t.ctx.db, t.ctx.database.dialect, start, new Date(start.getTime() + LEASE_MS), 20)).toHaveLength(0);

    clock = new Date(start.getTime() + LEASE_MS + 1);
    const fresh = new WebhookWorker(t.ctx, { sender: realSender, now: () => clock });
    expect(await fresh.runOnce()).toBe(2);
    expect(r.received).toHaveLength(2);
    expect(new Set(r.ids())).toEqual(new Set(claimed.map((c) => c.id)));
    expect((await logsOf(t.app, biz.cookie, hook.id)).map((l) => l.responseStatus)).toEqual([204, 204]);
  });

  it('a verification whose transaction rolls back after queuing its events leaves no delivery behind', async () => {
    const biz = await hookBusiness(t.app, t.ctx, 10_000, `rollback-${dialect}`);
    await createHook(t.app, biz.cookie, { url: 'http://127.0.0.1:9/never', events: ['verification.failed', 'credit.low'] });
    // Fail the last write of the verification transaction (its idempotency record), which runs
    // after the delivery rows were inserted: the whole transaction must go.
    if (dialect === 'sqlite') {
      await sql`create trigger fail_idem before insert on idempotency_record when new.idempotency_key = 'boom' begin select raise(abort, 'simulated failure'); end`.execute(t.ctx.db);
    } else {
      await sql`create or replace function fail_idem() returns trigger language plpgsql as $$ begin if new.idempotency_key = 'boom' then raise exception 'simulated failure'; end if; return new; end $$`.execute(t.ctx.db);
      await sql`create trigger fail_idem before insert on idempotency_record for each row execute function fail_idem()`.execute(t.ctx.db);
    }
    try {
      const failed = await failedCheck(t.app, biz.apiKey, { 'idempotency-key': 'boom' });
      expect(failed.statusCode).toBe(500);
      const count = async (table: 'webhook_delivery' | 'totp_verification') =>
        Number((await t.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('business_id', '=', biz.businessId).executeTakeFirstOrThrow()).n);
      expect(await count('totp_verification')).toBe(0);
      expect(await count('webhook_delivery')).toBe(0);
      const balance = await t.ctx.db.selectFrom('business').select('balance_paise').where('id', '=', biz.businessId).executeTakeFirstOrThrow();
      expect(Number(balance.balance_paise)).toBe(10_000);

      // Not vacuous: the same check under another key commits its verification and both events.
      expect((await failedCheck(t.app, biz.apiKey, { 'idempotency-key': 'fine' })).statusCode).toBe(200);
      expect(await count('totp_verification')).toBe(1);
      expect(await count('webhook_delivery')).toBe(2); // verification.failed + credit.low (₹100 → ₹99.90)
    } finally {
      await sql`drop trigger fail_idem${sql.raw(dialect === 'postgres' ? ' on idempotency_record' : '')}`.execute(t.ctx.db);
    }
  });

  it('checks refused for lack of credit (402) queue nothing; only the paid one does', async () => {
    const biz = await hookBusiness(t.app, t.ctx, 10, `broke-${dialect}`);
    const hook = await createHook(t.app, biz.cookie, { url: 'http://127.0.0.1:9/never', events: ['verification.failed', 'verification.success', 'credit.depleted'] });
    // Five at once against the price of one: one is charged, four are refused (those that read
    // the balance before the first debit are refused inside the verification transaction).
    const answers = await Promise.all(Array.from({ length: 5 }, () => failedCheck(t.app, biz.apiKey)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 402, 402, 402, 402]);
    const paid = answers.find((a) => a.statusCode === 200)!.json().verification_id as string;
    const rows = await t.ctx.db.selectFrom('webhook_delivery').select(['event', 'verification_id']).where('webhook_id', '=', hook.id).execute();
    expect(rows.map((d) => d.event).sort()).toEqual(['credit.depleted', 'verification.failed']);
    expect(rows.find((d) => d.event === 'verification.failed')!.verification_id).toBe(paid);
    expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(402);
    expect(await t.ctx.db.selectFrom('webhook_delivery').select('id').where('webhook_id', '=', hook.id).execute()).toHaveLength(2);
  });
});
