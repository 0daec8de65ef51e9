import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import {
  ORIGIN,
  STATELESS_SECRET,
  createHook,
  currentCode,
  failedCheck,
  grant,
  hookBusiness,
  logsOf,
  startReceiver,
  verifySigned,
  wrongCode,
  type HookBusiness,
  type Receiver,
  type WebhookEnvelope,
} from '../../../../test/support/webhooks';
import { createSender } from './sender';
import { WebhookWorker } from './worker';

/** Which events are emitted, when, and with what body (DESIGN.md §6), delivered for real. */
describeEachDialect('webhook events', (dialect) => {
  let t: TestApp;
  let worker: WebhookWorker;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true', API_RATE_LIMIT_PER_MINUTE: '10000' });
    worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 2_000, allowPrivate: true }) });
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await t.ctx.db.deleteFrom('webhook').execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A business with one endpoint subscribed to `events`; `received()` delivers and verifies. */
  async function subscribed(amountPaise: number, events: string[]) {
    const biz = await hookBusiness(t.app, t.ctx, amountPaise, `events-${dialect}`);
    const r = await startReceiver(() => 200);
    receivers.push(r);
    const hook = await createHook(t.app, biz.cookie, { url: r.url, events });
    const received = async (): Promise<WebhookEnvelope[]> => {
      while ((await worker.runOnce()) > 0);
      return r.received.map((req) => {
        const envelope = verifySigned(hook.secret, req);
        expect(req.headers['x-sixdigit-event']).toBe(envelope.event);
        return envelope;
      });
    };
    return { biz, hook, r, received };
  }
  const v1 = (biz: HookBusiness, url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: { authorization: `Bearer ${biz.apiKey}` }, payload });
  const ofType = (all: WebhookEnvelope[], event: string) => all.filter((e) => e.event === event);

  /** Every string anywhere in the body, and every key: none may be a code or a secret. */
  function leaves(value: unknown, out: string[] = []): string[] {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach((v) => leaves(v, out));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        out.push(`key:${k}`);
        leaves(v, out);
      }
    }
    return out;
  }

  it('sends verification.success / verification.failed for every billed check, with the documented data and no code or secret', async () => {
    const { biz, hook, r, received } = await subscribed(100_000, ['verification.success', 'verification.failed']);
    const enrol = await v1(biz, 'generate', { user_id: 'alice', purpose: 'login' });
    expect(enrol.statusCode).toBe(201);
    const { secret, backup_codes: backupCodes } = enrol.json() as { secret: string; backup_codes: string[] };

    const code = currentCode(secret);
    const wrong = wrongCode(secret);
    const checks = [
      { payload: { user_id: 'alice', totp_code: code, purpose: 'login' }, status: 'verified', event: 'verification.success' },
      { payload: { user_id: 'alice', totp_code: code, purpose: 'login' }, status: 'replayed', event: 'verification.failed' },
      { payload: { user_id: 'alice', totp_code: wrong, purpose: 'payment' }, status: 'invalid_code', event: 'verification.failed' },
      { payload: { user_id: 'alice', backup_code: backupCodes[0]! }, status: 'verified', event: 'verification.success' },
      { payload: { secret: STATELESS_SECRET, token: wrongCode(), purpose: 'stateless' }, status: 'invalid_code', event: 'verification.failed' },
    ];
    const answers = [];
    for (const check of checks) {
      const res = await v1(biz, 'verify', check.payload);
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe(check.status);
      answers.push(res.json() as { verification_id: string; status: string });
    }
    // Checks that are not billed send nothing.
    expect((await v1(biz, 'verify', { user_id: 'nobody', totp_code: '123456' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: { authorization: 'Bearer sk_live_nope' }, payload: { user_id: 'alice', totp_code: code } })).statusCode).toBe(401);

    const envelopes = await received();
    expect(envelopes).toHaveLength(checks.length);
    for (const [i, check] of checks.entries()) {
      const answer = answers[i]!;
      const e = envelopes.find((x) => x.verification_id === answer.verification_id);
      expect(e).toEqual({
        type: check.event,
        event: check.event,
        livemode: true,
        data: {
          verification_id: answer.verification_id,
          user_id: 'user_id' in check.payload ? 'alice' : null,
          purpose: (check.payload as { purpose?: string }).purpose ?? null,
          status: check.status,
          cost: '0.10',
          response_time_ms: expect.any(Number),
        },
        timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        verification_id: answer.verification_id,
      });
      expect(e!.data.response_time_ms as number).toBeGreaterThanOrEqual(0);
    }
    // Never a code or a secret: not the TOTP code, the backup code, either TOTP secret, the API
    // key or the webhook secret, and no field that could carry one.
    const forbidden = [code, wrong, backupCodes[0]!, secret, STATELESS_SECRET, biz.apiKey, hook.secret];
    for (const req of r.received) {
      const found = leaves(JSON.parse(req.body));
      for (const f of forbidden) expect(found).not.toContain(f);
      for (const key of ['totp_code', 'code', 'token', 'secret', 'backup_code']) expect(found).not.toContain(`key:${key}`);
      for (const f of [secret, STATELESS_SECRET, biz.apiKey, hook.secret, backupCodes[0]!]) expect(req.body).not.toContain(f);
    }
    // The log ties each delivery to its verification.
    const logs = await logsOf(t.app, biz.cookie, hook.id);
    expect(new Set(logs.map((l) => l.verificationId))).toEqual(new Set(answers.map((a) => a.verification_id)));
  });

  it('routes each event only to endpoints subscribed to it', async () => {
    const { biz, received } = await subscribed(100_000, ['verification.success']);
    const r2 = await startReceiver(() => 200);
    receivers.push(r2);
    const failedOnly = await createHook(t.app, biz.cookie, { url: r2.url, events: ['verification.failed'] });
    await failedCheck(t.app, biz.apiKey);
    await failedCheck(t.app, biz.apiKey);
    expect(await received()).toHaveLength(0);
    expect(r2.received.map((req) => verifySigned(failedOnly.secret, req).event)).toEqual(['verification.failed', 'verification.failed']);
  });

  it('sends credit.low once when the balance crosses below ₹100, and again only after a top-up above it', async () => {
    const { biz, received } = await subscribed(10_020, ['credit.low']); // ₹100.20
    const check = async () => expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(200);
    await check(); // 100.10
    await check(); // 100.00: not below yet
    expect(await received()).toHaveLength(0);
    await check(); // 99.90: crossed
    await check(); // 99.80
    let lows = ofType(await received(), 'credit.low');
    expect(lows).toHaveLength(1);
    expect(lows[0]).toEqual({
      type: 'credit.low',
      event: 'credit.low',
      livemode: true,
      data: { balance: '99.90', verifications_left: 999, threshold: '100.00', auto_refill: { enabled: false, pack_id: null, pack_amount: null } },
      timestamp: expect.any(String),
      verification_id: null,
    });

    await grant(t.ctx, biz.businessId, 10); // 99.90: a top-up that stays below
    await check(); // 99.80
    expect(ofType(await received(), 'credit.low')).toHaveLength(1);

    await grant(t.ctx, biz.businessId, 30); // 100.10: above again
    await check(); // 100.00
    await check(); // 99.90: crossed again
    await check(); // 99.80
    lows = ofType(await received(), 'credit.low');
    expect(lows).toHaveLength(2);
    expect(lows[1]!.data).toMatchObject({ balance: '99.90', threshold: '100.00' });
  });

  it('uses the auto-refill threshold for credit.low while auto-refill is on', async () => {
    const { biz, received } = await subscribed(50_010, ['credit.low']); // ₹500.10
    const refill = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/api/business/auto-refill', headers: { cookie: biz.cookie, ...ORIGIN }, payload: body });
    expect((await refill({ enabled: true, thresholdRupees: 500, packId: 'basic' })).statusCode).toBe(200);
    await failedCheck(t.app, biz.apiKey); // 500.00
    await failedCheck(t.app, biz.apiKey); // 499.90: crossed the refill threshold
    const lows = ofType(await received(), 'credit.low');
    expect(lows).toHaveLength(1);
    expect(lows[0]!.data).toEqual({
      balance: '499.90',
      verifications_left: 4999,
      threshold: '500.00',
      auto_refill: { enabled: true, pack_id: 'basic', pack_amount: '5000.00' },
    });

    // While it is on, crossing ₹100 is not the business's line: no second reminder there.
    const second = await subscribed(10_010, ['credit.low']); // ₹100.10
    const refill2 = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/api/business/auto-refill', headers: { cookie: second.biz.cookie, ...ORIGIN }, payload: body });
    expect((await refill2({ enabled: true, thresholdRupees: 500, packId: 'standard' })).statusCode).toBe(200);
    await failedCheck(t.app, second.biz.apiKey); // 100.00
    await failedCheck(t.app, second.biz.apiKey); // 99.90
    expect(await second.received()).toHaveLength(0);

    // Switched off (threshold kept), the reminder is back at ₹100.
    expect((await refill2({ enabled: false, thresholdRupees: 500, packId: 'standard' })).statusCode).toBe(200);
    await grant(t.ctx, second.biz.businessId, 20); // 100.10
    await failedCheck(t.app, second.biz.apiKey); // 100.00
    await failedCheck(t.app, second.biz.apiKey); // 99.90
    const after = ofType(await second.received(), 'credit.low');
    expect(after).toHaveLength(1);
    expect(after[0]!.data).toMatchObject({ balance: '99.90', threshold: '100.00', auto_refill: { enabled: false } });
  });

  it('sends credit.depleted when the balance drops below one verification (₹0.10), again only after a top-up', async () => {
    const { biz, received } = await subscribed(25, ['credit.depleted', 'credit.low']); // ₹0.25
    expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(200); // 0.15
    expect(await received()).toHaveLength(0);
    expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(200); // 0.05: cannot pay for another
    let all = await received();
    expect(all.map((e) => e.event)).toEqual(['credit.depleted']); // never crossed ₹100 from above: no credit.low
    expect(all[0]!.data).toEqual({ balance: '0.05', verifications_left: 0, threshold: '100.00' });
    expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(402);
    expect(await received()).toHaveLength(1);

    await grant(t.ctx, biz.businessId, 5); // 0.10: exactly one more
    expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(200); // 0.00
    all = await received();
    expect(ofType(all, 'credit.depleted').map((e) => e.data.balance)).toEqual(['0.05', '0.00']);
  });
});
