import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { bearer, createBusiness, expectError, fund, totpCode, unique, wrongCode, type TestBusiness } from '../../../../test/support/verify-api';
import { ORIGIN, createHook, logsOf, startReceiver, verifySigned, type Receiver } from '../../../../test/support/webhooks';
import { sha256Hex } from '../../lib/crypto';
import { ledgerTotals } from '../credits/repo';
import { createSender } from '../webhooks/sender';
import { WebhookWorker } from '../webhooks/worker';

type Json = Record<string, any>;

/**
 * Test mode (issue 21 item 1): a second key per business, sk_test_…, whose calls do everything
 * live calls do but cost nothing, need no balance and see only test data — and the reverse.
 */
describeEachDialect('public API v1: test mode', (dialect) => {
  let t: TestApp;
  let acme: TestBusiness;

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true', TEST_KEY_RATE_LIMIT_PER_MIN: '100' });
    acme = await createBusiness(t.app, 'Test Mode Acme');
  });
  afterAll(async () => t?.close());

  const call = (key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...bearer(key), ...headers }, ...(payload ? { payload } : {}) });

  async function enrol(key: string, userId = unique('user')) {
    const res = await call(key, 'POST', '/api/v1/generate', { user_id: userId });
    expect(res.statusCode, res.body).toBe(201);
    return { userId, ...(res.json() as { secret: string; backup_codes: string[]; livemode: boolean }) };
  }

  describe('keys', () => {
    it('creation hands out a live and a test key, each shown once, stored only as hashes', async () => {
      expect(acme.apiKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
      expect(acme.testApiKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
      const rows = await t.ctx.db.selectFrom('api_key').selectAll().where('business_id', '=', acme.businessId).execute();
      expect(rows.map((r) => [r.prefix, Boolean(r.livemode)]).sort()).toEqual([
        [acme.apiKey.slice(0, 12), true],
        [acme.testApiKey.slice(0, 12), false],
      ].sort());
      expect(rows.map((r) => r.key_hash).sort()).toEqual([sha256Hex(acme.apiKey), sha256Hex(acme.testApiKey)].sort());
      const profile = await t.app.inject({ method: 'GET', url: '/api/business/profile', headers: { cookie: acme.cookie } });
      expect(profile.json()).toMatchObject({ apiKeyPrefix: acme.apiKey.slice(0, 12), testApiKeyPrefix: acme.testApiKey.slice(0, 12), testRateLimitPerMinute: 100 });
      expect(profile.body).not.toContain(acme.testApiKey);
      expect(profile.body).not.toContain(acme.apiKey);
    });

    it('POST /test and GET /profile say which mode the key is in', async () => {
      expect((await call(acme.testApiKey, 'POST', '/api/v1/test')).json()).toEqual({ ok: true, business_id: acme.businessId, livemode: false });
      expect((await call(acme.apiKey, 'POST', '/api/v1/test')).json()).toEqual({ ok: true, business_id: acme.businessId, livemode: true });
      const testProfile = (await call(acme.testApiKey, 'GET', '/api/v1/profile')).json();
      expect(testProfile).toMatchObject({ livemode: false, rate_limit: { requests_per_minute: 100 } });
      expect((await call(acme.apiKey, 'GET', '/api/v1/profile')).json()).toMatchObject({ livemode: true, rate_limit: { requests_per_minute: t.ctx.config.apiRateLimitPerMinute } });
    });

    it('regenerating one mode’s key leaves the other working; the old key of that mode stops at once', async () => {
      const biz = await createBusiness(t.app, 'Regen Co');
      const regen = (mode?: string) =>
        t.app.inject({ method: 'POST', url: `/api/business/api-key/regenerate${mode ? `?mode=${mode}` : ''}`, headers: { cookie: biz.cookie, ...ORIGIN } });
      const test = await regen('test');
      expect(test.statusCode, test.body).toBe(200);
      expect(test.json()).toEqual({ apiKey: expect.stringMatching(/^sk_test_[0-9A-Za-z]{32}$/), prefix: test.json().apiKey.slice(0, 12), mode: 'test' });
      expectError(await call(biz.testApiKey, 'POST', '/api/v1/test'), 401, 'unauthorized');
      expect((await call(test.json().apiKey, 'POST', '/api/v1/test')).json().livemode).toBe(false);
      expect((await call(biz.apiKey, 'POST', '/api/v1/test')).statusCode).toBe(200);

      const live = await regen();
      expect(live.json()).toMatchObject({ apiKey: expect.stringMatching(/^sk_live_/), mode: 'live' });
      expectError(await call(biz.apiKey, 'POST', '/api/v1/test'), 401, 'unauthorized');
      expect((await call(test.json().apiKey, 'POST', '/api/v1/test')).statusCode).toBe(200);
      expect((await call(live.json().apiKey, 'POST', '/api/v1/test')).json().livemode).toBe(true);
      expectError(await t.app.inject({ method: 'POST', url: '/api/business/api-key/regenerate?mode=sandbox', headers: { cookie: biz.cookie, ...ORIGIN } }), 400, 'validation_failed');
    });

    it('a business from before test mode has no test key until it makes one', async () => {
      const biz = await createBusiness(t.app, 'Old Co');
      await t.ctx.db.deleteFrom('api_key').where('business_id', '=', biz.businessId).where('livemode', '=', false).execute();
      const before = await t.app.inject({ method: 'GET', url: '/api/business/profile', headers: { cookie: biz.cookie } });
      expect(before.json()).toMatchObject({ testApiKeyPrefix: null, testApiKeyCreatedAt: null });
      const made = await t.app.inject({ method: 'POST', url: '/api/business/api-key/regenerate?mode=test', headers: { cookie: biz.cookie, ...ORIGIN } });
      expect((await call(made.json().apiKey, 'POST', '/api/v1/test')).json()).toMatchObject({ livemode: false });
    });
  });

  describe('free, and apart from live', () => {
    it('a business with no balance enrols and verifies in test mode for free; live is refused 402', async () => {
      const broke = await createBusiness(t.app, 'Broke Co');
      const user = await enrol(broke.testApiKey);
      expect(user.livemode).toBe(false);
      const ok = await call(broke.testApiKey, 'POST', '/api/v1/verify', { user_id: user.userId, totp_code: totpCode(user.secret) });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ verified: true, status: 'verified', cost: '0.00', balance: '0.00', livemode: false });
      const stateless = await call(broke.testApiKey, 'POST', '/api/v1/verify', { secret: user.secret, token: wrongCode(user.secret) });
      expect(stateless.json()).toMatchObject({ verified: false, cost: '0.00', livemode: false });
      const backup = await call(broke.testApiKey, 'POST', '/api/v1/verify', { user_id: user.userId, backup_code: user.backup_codes[0] });
      expect(backup.json()).toMatchObject({ verified: true, backup_codes_left: 9, cost: '0.00', livemode: false });
      expectError(await call(broke.apiKey, 'POST', '/api/v1/verify', { secret: user.secret, token: totpCode(user.secret) }), 402, 'insufficient_credits');
      expect(await ledgerTotals(t.ctx.db, broke.businessId)).toEqual({ balancePaise: 0, creditedPaise: 0, spentPaise: 0 });
    });

    it('mixed traffic: the live ledger is exact, test checks cost 0 and never move the balance', async () => {
      const biz = await createBusiness(t.app, 'Mixed Co');
      await fund(t.ctx, biz.businessId, 1_000);
      const live = await enrol(biz.apiKey);
      const test = await enrol(biz.testApiKey);
      // Arriving together, so they share group commits.
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 2 === 0
            ? call(biz.apiKey, 'POST', '/api/v1/verify', { secret: live.secret, token: wrongCode(live.secret) })
            : call(biz.testApiKey, 'POST', '/api/v1/verify', { secret: test.secret, token: wrongCode(test.secret) }),
        ),
      );
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      expect(answers.filter((a) => a.json().livemode).map((a) => a.json().cost)).toEqual(Array(6).fill('0.10'));
      expect(answers.filter((a) => !a.json().livemode).map((a) => a.json().cost)).toEqual(Array(6).fill('0.00'));
      const totals = await ledgerTotals(t.ctx.db, biz.businessId);
      expect(totals).toEqual({ balancePaise: 1_000 - 60, creditedPaise: 1_000, spentPaise: 60 });
      const all = await t.ctx.db.selectFrom('totp_verification').select(['cost_paise', 'livemode']).where('business_id', '=', biz.businessId).execute();
      expect(all.filter((r) => !r.livemode).every((r) => Number(r.cost_paise) === 0)).toBe(true);
      expect(all.filter((r) => r.livemode).reduce((s, r) => s + Number(r.cost_paise), 0)).toBe(60);
      // The dashboard: live figures by default, test ones when asked.
      const dash = (mode: string) => t.app.inject({ method: 'GET', url: `/api/business/dashboard?mode=${mode}`, headers: { cookie: biz.cookie } });
      const liveDash = (await dash('live')).json();
      const testDash = (await dash('test')).json();
      expect(liveDash.mode).toBe('live');
      expect(liveDash.stats.today.totalRequests).toBe(6);
      expect(liveDash.stats.month.totalCost).toBe('0.60');
      expect(testDash.mode).toBe('test');
      expect(testDash.stats.today.totalRequests).toBe(6);
      expect(testDash.stats.month.totalCost).toBe('0.00');
      expect(testDash.recentVerifications.every((v: Json) => v.cost === '0.00')).toBe(true);
      const day = new Date().toISOString().slice(0, 10);
      const csv = await t.app.inject({ method: 'GET', url: `/api/business/usage.csv?from=${day}&to=${day}&mode=test`, headers: { cookie: biz.cookie } });
      expect(csv.headers['content-disposition']).toContain('sixdigit-test-usage-');
      const lines = csv.body.trim().split('\r\n').slice(1);
      expect(lines).toHaveLength(6);
      for (const line of lines) expect(line.split(',').slice(-3, -2).concat(line.split(',').slice(-1))).toEqual(['"0.00"', '"false"']);
      const liveCsv = await t.app.inject({ method: 'GET', url: `/api/business/usage.csv?from=${day}&to=${day}`, headers: { cookie: biz.cookie } });
      expect(liveCsv.body.trim().split('\r\n').slice(1).every((l) => l.endsWith(',"true"'))).toBe(true);
    });

    it('a test key cannot see, verify or delete a live user, and the reverse; one user_id lives in both modes', async () => {
      const biz = await createBusiness(t.app, 'Apart Co');
      await fund(t.ctx, biz.businessId, 1_000);
      const liveOnly = await enrol(biz.apiKey);
      const testOnly = await enrol(biz.testApiKey);
      for (const [key, other] of [
        [biz.testApiKey, liveOnly],
        [biz.apiKey, testOnly],
      ] as const) {
        expectError(await call(key, 'POST', '/api/v1/verify', { user_id: other.userId, totp_code: totpCode(other.secret) }), 404, 'not_found');
        expectError(await call(key, 'GET', `/api/v1/users/${other.userId}`), 404, 'not_found');
        expectError(await call(key, 'DELETE', `/api/v1/users/${other.userId}`), 404, 'not_found');
        const users = (await call(key, 'GET', '/api/v1/users?limit=100')).json();
        expect(users.data.map((u: Json) => u.user_id)).not.toContain(other.userId);
      }
      // The other mode's user is untouched by the refused delete.
      expect((await call(biz.apiKey, 'GET', `/api/v1/users/${liveOnly.userId}`)).json()).toMatchObject({ user_id: liveOnly.userId, livemode: true });
      expect((await call(biz.testApiKey, 'GET', `/api/v1/users/${testOnly.userId}`)).json()).toMatchObject({ user_id: testOnly.userId, livemode: false });

      // The same user_id enrolled in both modes: two secrets, two histories.
      const shared = unique('shared');
      const inLive = await enrol(biz.apiKey, shared);
      const inTest = await enrol(biz.testApiKey, shared);
      expect(inTest.secret).not.toBe(inLive.secret);
      expect((await call(biz.testApiKey, 'POST', '/api/v1/verify', { user_id: shared, totp_code: totpCode(inLive.secret) })).json().verified).toBe(false);
      const testCode = totpCode(inTest.secret); // sent again below as a replay, even across a 30-s boundary
      const testCheck = (await call(biz.testApiKey, 'POST', '/api/v1/verify', { user_id: shared, totp_code: testCode })).json();
      expect(testCheck).toMatchObject({ verified: true, livemode: false });
      // Replay protection is per mode: the live enrolment's step has not moved.
      const liveCheck = (await call(biz.apiKey, 'POST', '/api/v1/verify', { user_id: shared, totp_code: totpCode(inLive.secret) })).json();
      expect(liveCheck).toMatchObject({ verified: true, livemode: true, cost: '0.10' });
      expect((await call(biz.testApiKey, 'POST', '/api/v1/verify', { user_id: shared, totp_code: testCode })).json().status).toBe('replayed');

      // Lookups list only their mode, and each record says so.
      expectError(await call(biz.apiKey, 'GET', `/api/v1/verifications/${testCheck.verification_id}`), 404, 'not_found');
      expectError(await call(biz.testApiKey, 'GET', `/api/v1/verifications/${liveCheck.verification_id}`), 404, 'not_found');
      expect((await call(biz.testApiKey, 'GET', `/api/v1/verifications/${testCheck.verification_id}`)).json()).toMatchObject({ livemode: false, cost: '0.00' });
      const testList = (await call(biz.testApiKey, 'GET', `/api/v1/verifications?user_id=${shared}`)).json();
      const liveList = (await call(biz.apiKey, 'GET', `/api/v1/verifications?user_id=${shared}`)).json();
      expect(testList.data.map((v: Json) => v.livemode)).toEqual([false, false, false]);
      expect(liveList.data).toEqual([expect.objectContaining({ verification_id: liveCheck.verification_id, livemode: true })]);
      expectError(await call(biz.apiKey, 'GET', `/api/v1/verifications?starting_after=${testCheck.verification_id}`), 404, 'not_found');
      expect((await call(biz.testApiKey, 'GET', `/api/v1/users/${shared}`)).json().last_verified_at).toBe(testCheck.timestamp);

      // Deleting in test mode leaves the live enrolment.
      expect((await call(biz.testApiKey, 'DELETE', `/api/v1/users/${shared}`)).statusCode).toBe(204);
      expect((await call(biz.apiKey, 'GET', `/api/v1/users/${shared}`)).statusCode).toBe(200);
      expectError(await call(biz.testApiKey, 'GET', `/api/v1/users/${shared}`), 404, 'not_found');
    });

    it('throttling counts each mode’s failures apart', async () => {
      const biz = await createBusiness(t.app, 'Throttle Co');
      await fund(t.ctx, biz.businessId, 1_000);
      const shared = unique('throttled');
      const inLive = await enrol(biz.apiKey, shared);
      const inTest = await enrol(biz.testApiKey, shared);
      for (let i = 0; i < 5; i++) {
        expect((await call(biz.testApiKey, 'POST', '/api/v1/verify', { user_id: shared, totp_code: wrongCode(inTest.secret) })).json().status).toBe('invalid_code');
      }
      expectError(await call(biz.testApiKey, 'POST', '/api/v1/verify', { user_id: shared, totp_code: totpCode(inTest.secret) }), 429, 'too_many_attempts');
      expect((await call(biz.apiKey, 'POST', '/api/v1/verify', { user_id: shared, totp_code: totpCode(inLive.secret) })).json()).toMatchObject({ verified: true, livemode: true });
    });

    it('an Idempotency-Key is kept per mode: the same key in the other mode is a new request', async () => {
      const biz = await createBusiness(t.app, 'Idem Co');
      await fund(t.ctx, biz.businessId, 1_000);
      const key = unique('idem');
      const userId = unique('idem-user');
      const first = await call(biz.testApiKey, 'POST', '/api/v1/generate', { user_id: userId }, { 'idempotency-key': key });
      expect(first.statusCode).toBe(201);
      const again = await call(biz.testApiKey, 'POST', '/api/v1/generate', { user_id: userId }, { 'idempotency-key': key });
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().secret).toBe(first.json().secret);
      const live = await call(biz.apiKey, 'POST', '/api/v1/generate', { user_id: userId }, { 'idempotency-key': key });
      expect(live.statusCode).toBe(201);
      expect(live.headers['idempotent-replayed']).toBeUndefined();
      expect(live.json()).toMatchObject({ livemode: true });
      expect(live.json().secret).not.toBe(first.json().secret);
      const rows = await t.ctx.db.selectFrom('idempotency_record').select(['livemode', 'response_body']).where('business_id', '=', biz.businessId).execute();
      expect(rows).toHaveLength(2);
      for (const r of rows) expect(r.response_body).not.toContain(first.json().secret);
      // A test verify with a key: answered once, free.
      const vkey = unique('idem-verify');
      const vcode = totpCode(first.json().secret); // one value for both: a 30-s boundary between them would change the body (409)
      const v1 = await call(biz.testApiKey, 'POST', '/api/v1/verify', { user_id: userId, totp_code: vcode }, { 'idempotency-key': vkey });
      const v2 = await call(biz.testApiKey, 'POST', '/api/v1/verify', { user_id: userId, totp_code: vcode }, { 'idempotency-key': vkey });
      expect(v2.json()).toEqual(v1.json());
      expect(v1.json()).toMatchObject({ verified: true, cost: '0.00', livemode: false });
      expect((await ledgerTotals(t.ctx.db, biz.businessId)).balancePaise).toBe(1_000);
    });
  });

  describe('rate limit', () => {
    it('the test key has its own 100 a minute, apart from the live key', async () => {
      const biz = await createBusiness(t.app, 'Limit Co');
      const first = await call(biz.testApiKey, 'POST', '/api/v1/test');
      expect(first.headers['ratelimit-limit']).toBe('100');
      for (let i = 1; i < 100; i++) expect((await call(biz.testApiKey, 'POST', '/api/v1/test')).statusCode).toBe(200);
      const refused = await call(biz.testApiKey, 'POST', '/api/v1/test');
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The live key's budget is untouched.
      const live = await call(biz.apiKey, 'POST', '/api/v1/test');
      expect(live.statusCode).toBe(200);
      expect(live.headers['ratelimit-limit']).toBe(String(t.ctx.config.apiRateLimitPerMinute));
      expect(Number(live.headers['ratelimit-remaining'])).toBe(t.ctx.config.apiRateLimitPerMinute - 1);
    });
  });

  describe('webhooks', () => {
    let liveReceiver: Receiver;
    let testReceiver: Receiver;
    let worker: WebhookWorker;
    beforeAll(async () => {
      liveReceiver = await startReceiver();
      testReceiver = await startReceiver();
      worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 2_000, allowPrivate: true }) });
    });
    afterAll(async () => {
      await worker?.stop();
      await liveReceiver?.close();
      await testReceiver?.close();
    });

    it('test events go to test endpoints only, with livemode: false; live ones to live endpoints only', async () => {
      const biz = await createBusiness(t.app, 'Hooks Co');
      await fund(t.ctx, biz.businessId, 1_000);
      const events = ['verification.success', 'verification.failed', 'credit.low', 'credit.depleted'];
      const liveHook = await createHook(t.app, biz.cookie, { url: liveReceiver.url, events });
      const testHook = await createHook(t.app, biz.cookie, { url: testReceiver.url, events, livemode: false });
      expect(liveHook.livemode).toBe(true);
      expect(testHook.livemode).toBe(false);
      const list = (mode: string) => t.app.inject({ method: 'GET', url: `/api/webhooks?mode=${mode}`, headers: { cookie: biz.cookie } });
      expect((await list('test')).json().map((h: Json) => h.id)).toEqual([testHook.id]);
      expect((await list('live')).json().map((h: Json) => h.id)).toEqual([liveHook.id]);

      const testUser = await enrol(biz.testApiKey);
      const testCheck = (await call(biz.testApiKey, 'POST', '/api/v1/verify', { user_id: testUser.userId, totp_code: totpCode(testUser.secret) })).json();
      expect(await worker.runOnce()).toBe(1);
      await testReceiver.waitFor(1);
      const testEvent = verifySigned(testHook.secret, testReceiver.received[0]!);
      expect(testEvent).toMatchObject({ type: 'verification.success', livemode: false, verification_id: testCheck.verification_id, data: { cost: '0.00' } });

      const liveUser = await enrol(biz.apiKey);
      const liveCheck = (await call(biz.apiKey, 'POST', '/api/v1/verify', { user_id: liveUser.userId, totp_code: wrongCode(liveUser.secret) })).json();
      expect(await worker.runOnce()).toBe(1);
      await liveReceiver.waitFor(1);
      const liveEvent = verifySigned(liveHook.secret, liveReceiver.received[0]!);
      expect(liveEvent).toMatchObject({ type: 'verification.failed', livemode: true, verification_id: liveCheck.verification_id, data: { cost: '0.10' } });

      // Nothing crossed over, and nothing else is due.
      expect(await worker.runOnce()).toBe(0);
      expect(testReceiver.received.map((r) => JSON.parse(r.body).verification_id)).toEqual([testCheck.verification_id]);
      expect(liveReceiver.received.map((r) => JSON.parse(r.body).verification_id)).toEqual([liveCheck.verification_id]);
      // Each mode's delivery log shows only its own endpoints.
      expect((await logsOf(t.app, biz.cookie, undefined, 'test')).map((l) => l.webhookId)).toEqual([testHook.id]);
      expect((await logsOf(t.app, biz.cookie, undefined, 'live')).map((l) => l.webhookId)).toEqual([liveHook.id]);

      // A test endpoint's test event says livemode: false.
      const ping = await t.app.inject({ method: 'POST', url: `/api/webhooks/${testHook.id}/test`, headers: { cookie: biz.cookie, ...ORIGIN } });
      expect(ping.statusCode).toBe(202);
      expect(await worker.runOnce()).toBe(1);
      await testReceiver.waitFor(2);
      expect(verifySigned(testHook.secret, testReceiver.received[1]!)).toMatchObject({ type: 'test.ping', livemode: false });
    });
  });

  describe('webhook endpoints over the API', () => {
    it('a test key makes test endpoints and sees only those; a live key sees only live ones', async () => {
      const biz = await createBusiness(t.app, 'Endpoint Modes Co');
      const events = ['verification.success'];
      const testMade = await call(biz.testApiKey, 'POST', '/api/v1/webhook_endpoints', { url: 'https://9.9.9.9/test-hooks', events });
      expect(testMade.statusCode, testMade.body).toBe(201);
      expect(testMade.json().livemode).toBe(false);
      const liveMade = await call(biz.apiKey, 'POST', '/api/v1/webhook_endpoints', { url: 'https://9.9.9.9/live-hooks', events });
      expect(liveMade.json().livemode).toBe(true);
      const testId = testMade.json().id as string;
      const liveId = liveMade.json().id as string;
      expect((await call(biz.testApiKey, 'GET', '/api/v1/webhook_endpoints')).json().data.map((e: Json) => e.id)).toEqual([testId]);
      expect((await call(biz.apiKey, 'GET', '/api/v1/webhook_endpoints')).json().data.map((e: Json) => e.id)).toEqual([liveId]);
      // The other mode's endpoint is as missing: no read, change, test event or delete.
      expectError(await call(biz.testApiKey, 'GET', `/api/v1/webhook_endpoints/${liveId}`), 404, 'not_found');
      expectError(await call(biz.testApiKey, 'DELETE', `/api/v1/webhook_endpoints/${liveId}`), 404, 'not_found');
      expectError(await call(biz.testApiKey, 'POST', `/api/v1/webhook_endpoints/${liveId}/test`), 404, 'not_found');
      expectError(await call(biz.apiKey, 'GET', `/api/v1/webhook_endpoints/${testId}`), 404, 'not_found');
      expect((await call(biz.apiKey, 'GET', `/api/v1/webhook_endpoints/${liveId}`)).statusCode).toBe(200);
      // The dashboard lists each mode on its own.
      const list = (mode: string) => t.app.inject({ method: 'GET', url: `/api/webhooks?mode=${mode}`, headers: { cookie: biz.cookie } });
      expect((await list('test')).json().map((h: Json) => h.id)).toEqual([testId]);
      expect((await list('live')).json().map((h: Json) => h.id)).toEqual([liveId]);
    });
  });

  describe('the dashboard views', () => {
    it('GET /api/business/dashboard refuses an unknown mode', async () => {
      expectError(await t.app.inject({ method: 'GET', url: '/api/business/dashboard?mode=sandbox', headers: { cookie: acme.cookie } }), 400, 'validation_failed');
    });
  });
});
