import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { createBusiness, impersonate } from '../../../../test/support/payments';
import { createHook, logsOf, startReceiver, verifySigned, type Receiver } from '../../../../test/support/webhooks';
import { enqueueEvent } from './events';
import { createSender } from './sender';
import { WebhookWorker } from './worker';

const write = { origin: 'http://localhost:5000', 'sec-fetch-site': 'same-origin' };
const HOUR = 3_600_000;

describeEachDialect('webhook fairness, switching off failing endpoints, resending', (dialect) => {
  let t: TestApp;
  const receivers: Receiver[] = [];
  const workers: WebhookWorker[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  afterEach(async () => {
    // Receivers first: closing one destroys its hanging sockets, so in-flight attempts end.
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    // Each test counts its own deliveries: none left over for the next one's worker.
    await t.ctx.db.deleteFrom('webhook').execute();
  });
  afterAll(async () => t?.close());

  const receive = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
  const queue = (businessId: string, n: number, at = new Date(), tag = 'ev') =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        t.ctx.db.transaction().execute((trx) => enqueueEvent(trx, businessId, 'verification.failed', { verification_id: `ver_${tag}_${i}` }, at, { verificationId: `ver_${tag}_${i}` })),
      ),
    );
  const statuses = async (webhookId: string) =>
    (await t.ctx.db.selectFrom('webhook_delivery').select('status').where('webhook_id', '=', webhookId).execute()).map((d) => d.status).sort();
  const hookRow = (id: string) => t.ctx.db.selectFrom('webhook').select(['is_active', 'disabled_reason', 'disabled_at', 'failing_since']).where('id', '=', id).executeTakeFirstOrThrow();

  it("a hanging endpoint holds at most its two slots: another business's deliveries, queued after it, arrive while it hangs", async () => {
    const slowBiz = await createBusiness(t.app, 'Slow Receiver Co');
    const fastBiz = await createBusiness(t.app, 'Fast Receiver Co');
    const hanging = await receive(() => 'hang');
    const fast = await receive(() => 204);
    const slowHook = await createHook(t.app, slowBiz.cookie, { url: hanging.url, events: ['verification.failed'] });
    const fastHook = await createHook(t.app, fastBiz.cookie, { url: fast.url, events: ['verification.failed'] });

    // The hanging receiver's deliveries are queued first and are the oldest due rows.
    await queue(slowBiz.businessId, 6, new Date(Date.now() - 60_000), 'slow');
    // A 20 s timeout: were the fast deliveries to wait for the slow ones, they would be late by that much.
    const worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 20_000, allowPrivate: true }), pollIntervalMs: 20, concurrency: 4, perEndpoint: 2 });
    workers.push(worker);
    worker.start();
    await hanging.waitFor(2);

    // Queued while the slow ones are in flight: the loop keeps claiming for the free slots.
    await queue(fastBiz.businessId, 10, new Date(), 'fast');
    await fast.waitFor(10, 10_000);
    await expect.poll(() => statuses(fastHook.id), { timeout: 5_000 }).toEqual(Array(10).fill('succeeded'));

    // Meanwhile the hanging endpoint never had more than two requests, and nothing of it finished.
    expect(hanging.received).toHaveLength(2);
    expect(await statuses(slowHook.id)).toEqual([...Array(2).fill('delivering'), ...Array(4).fill('pending')].sort());
    expect(new Set(fast.ids()).size).toBe(10);
  });

  it('switches an endpoint off after 24 h in which every attempt failed, shows why, and the toggle switches it back on', async () => {
    const biz = await createBusiness(t.app, 'Failing Receiver Co');
    const failing = await receive(() => 500);
    const hook = await createHook(t.app, biz.cookie, { url: failing.url, events: ['verification.failed'] });
    const t0 = new Date(Date.now() - 30 * HOUR);
    let clock = t0;
    const worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 5_000, allowPrivate: true }), now: () => clock });

    await queue(biz.businessId, 1, clock, 'd0');
    expect(await worker.runOnce()).toBe(1);
    expect(await hookRow(hook.id)).toMatchObject({ disabled_reason: null });

    clock = new Date(t0.getTime() + 23 * HOUR);
    await queue(biz.businessId, 1, clock, 'd23');
    await worker.runOnce(); // the retry of the first and the new one: both fail
    let listed = (await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: { cookie: biz.cookie } })).json()[0];
    expect(listed).toMatchObject({ isActive: true, disabledReason: null, disabledAt: null });

    clock = new Date(t0.getTime() + 24 * HOUR + 60_000);
    await queue(biz.businessId, 1, clock, 'd24');
    await worker.runOnce();
    listed = (await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: { cookie: biz.cookie } })).json()[0];
    expect(listed.isActive).toBe(false);
    expect(listed.disabledReason).toMatch(/^Every delivery failed for 24 h \(since .* UTC; last: HTTP 500\)\.$/);
    expect(listed.disabledAt).toBe(clock.toISOString());

    // Switched off: its retries are cancelled, new events are not queued for it, nothing more is sent.
    expect(await statuses(hook.id)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    const before = failing.received.length;
    await queue(biz.businessId, 1, clock, 'd24b');
    clock = new Date(clock.getTime() + HOUR);
    await worker.runOnce();
    expect(failing.received).toHaveLength(before);
    expect(await statuses(hook.id)).not.toContain('pending');

    const on = await t.app.inject({ method: 'PATCH', url: `/api/webhooks/${hook.id}/toggle`, headers: { cookie: biz.cookie, ...write }, payload: { isActive: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ isActive: true, disabledReason: null, disabledAt: null });
    expect(await hookRow(hook.id)).toMatchObject({ disabled_reason: null, disabled_at: null, failing_since: null });
  });

  it('a success within the day starts the count again', async () => {
    const biz = await createBusiness(t.app, 'Flaky Receiver Co');
    const flaky = await receive((n) => (n === 2 ? 204 : 500));
    const hook = await createHook(t.app, biz.cookie, { url: flaky.url, events: ['verification.failed'] });
    const t0 = new Date(Date.now() - 30 * HOUR);
    let clock = t0;
    // One attempt per event here: 410-free failures retry, so send each event at its own time.
    const worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 5_000, allowPrivate: true }), now: () => clock });
    await queue(biz.businessId, 1, clock, 'f0');
    await worker.runOnce(); // fails
    clock = new Date(t0.getTime() + 12 * HOUR);
    await worker.runOnce(); // its retry succeeds
    clock = new Date(t0.getTime() + 25 * HOUR);
    await queue(biz.businessId, 1, clock, 'f25');
    await worker.runOnce(); // fails again: 25 h after the first failure, but not 24 h of failures
    expect(flaky.received).toHaveLength(3);
    expect(await hookRow(hook.id)).toMatchObject({ disabled_reason: null, failing_since: expect.anything() });
    const listed = (await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: { cookie: biz.cookie } })).json()[0];
    expect(listed.isActive).toBe(true);
  });

  it('resends a delivery from the log: a new attempt with the same webhook-id, owner only, never while impersonating', async () => {
    const biz = await createBusiness(t.app, 'Resend Co');
    const stranger = await createBusiness(t.app, 'Stranger Co');
    const r = await receive(() => 204);
    const hook = await createHook(t.app, biz.cookie, { url: r.url, events: ['verification.failed'] });
    const worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 5_000, allowPrivate: true }) });
    await queue(biz.businessId, 1, new Date(), 'rs');
    expect(await worker.runOnce()).toBe(1);
    const [first] = await logsOf(t.app, biz.cookie, hook.id);
    const resend = (cookie: string | undefined, id = first!.deliveryId) =>
      t.app.inject({ method: 'POST', url: `/api/webhooks/logs/${id}/resend`, headers: { ...(cookie ? { cookie } : {}), ...write } });

    expect((await resend(undefined)).statusCode).toBe(401);
    const foreign = await resend(stranger.cookie);
    expect(foreign.statusCode).toBe(404);
    expect((await resend(biz.cookie, 'msg_none')).json().error.code).toBe('not_found');

    const queued = await resend(biz.cookie);
    expect(queued.statusCode).toBe(202);
    expect(queued.json()).toEqual({ queued: true, deliveryId: first!.deliveryId, webhookId: hook.id });
    // Queued already: a second click does not queue it twice.
    expect((await resend(biz.cookie)).statusCode).toBe(409);

    expect(await worker.runOnce()).toBe(1);
    expect(r.ids()).toEqual([first!.deliveryId, first!.deliveryId]);
    expect(verifySigned(hook.secret, r.received[1]!).verification_id).toBe('ver_rs_0');
    const log = await logsOf(t.app, biz.cookie, hook.id);
    expect(log.map((l) => [l.deliveryId, l.attemptNumber, l.responseStatus])).toEqual([
      [first!.deliveryId, 2, 204],
      [first!.deliveryId, 1, 204],
    ]);

    // A switched-off endpoint is not sent to.
    await t.app.inject({ method: 'PATCH', url: `/api/webhooks/${hook.id}/toggle`, headers: { cookie: biz.cookie, ...write }, payload: { isActive: false } });
    expect((await resend(biz.cookie)).statusCode).toBe(409);
    await t.app.inject({ method: 'PATCH', url: `/api/webhooks/${hook.id}/toggle`, headers: { cookie: biz.cookie, ...write }, payload: { isActive: true } });

    // An administrator acting as the owner may not send the owner's events anywhere.
    await impersonate(t.ctx, biz.email);
    const refused = await resend(biz.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('impersonation_forbidden');
    expect(await statuses(hook.id)).toEqual(['succeeded']);
  });
});
