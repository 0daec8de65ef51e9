import { randomBytes } from 'node:crypto';
import { Secret, TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, describeEachDialect, testConfig, type TestApp } from '../../../../test/support/db';
import { TEST_REDIS_URL } from '../../../../test/support/services';
import {
  balancePaise,
  bearer,
  createBusiness,
  expectError,
  fund,
  paise,
  totpCode,
  unique,
  verificationCount,
  wrongCode,
  type TestBusiness,
} from '../../../../test/support/verify-api';
import { buildApp } from '../../app';
import { createContext } from '../../context';
import { FAILED_LOOKUPS_PER_MINUTE } from '../business/api-keys';
import { ledgerTotals } from '../credits/repo';

const PREFIXES = ['/api/v1', '/v1'] as const;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const TEN_KB = 'x'.repeat(10_240);
const TEN_KB_UNICODE = '😀'.repeat(5_120);

/** Time-sensitive checks wait out the last 1.5 s of a TOTP step so "k steps ago" stays k. */
async function awayFromStepBoundary(periodSeconds = 30): Promise<void> {
  const period = periodSeconds * 1000;
  const into = Date.now() % period;
  if (into > period - 1500) await new Promise((r) => setTimeout(r, period - into + 50));
}

describeEachDialect('public API v1', (dialect) => {
  let t: TestApp;
  let acme: TestBusiness;
  let other: TestBusiness;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createBusiness(t.app, 'Acme Payments');
    other = await createBusiness(t.app, 'Other Corp');
    await fund(t.ctx, acme.businessId, 100_000); // ₹1,000
    await fund(t.ctx, other.businessId, 10_000);
  });
  afterAll(async () => t?.close());

  /** One API call; a string payload is sent as raw JSON text. */
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, apiKey: string | null, payload?: unknown, headers: Record<string, string> = {}) => {
    const all: Record<string, string> = { ...(apiKey ? bearer(apiKey) : {}), ...headers };
    if (typeof payload === 'string') all['content-type'] ??= 'application/json';
    return t.app.inject({ method, url, headers: all, ...(payload === undefined ? {} : { payload: payload as string }) });
  };

  async function enrol(business: TestBusiness, body: Record<string, unknown> = {}, prefix = '/api/v1') {
    const userId = (body.user_id as string | undefined) ?? unique('user');
    const res = await call('POST', `${prefix}/generate`, business.apiKey, { user_id: userId, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return { userId, ...(res.json() as { secret: string; backup_codes: string[]; otpauth_uri: string; qr_code: string; manual_entry: string }) };
  }

  const verify = (business: TestBusiness, body: unknown, headers: Record<string, string> = {}, prefix = '/api/v1') =>
    call('POST', `${prefix}/verify`, business.apiKey, body, headers);

  // --- authentication -----------------------------------------------------------------------

  const routes = [
    { method: 'GET' as const, path: '/profile', body: undefined },
    { method: 'POST' as const, path: '/test', body: undefined },
    { method: 'POST' as const, path: '/generate', body: { user_id: 'nobody' } },
    { method: 'POST' as const, path: '/verify', body: { user_id: 'nobody', totp_code: '123456' } },
    { method: 'DELETE' as const, path: '/users/nobody', body: undefined },
  ];

  describe('authentication', () => {
    it.each(PREFIXES.flatMap((prefix) => routes.map((r) => [`${r.method} ${prefix}${r.path}`, prefix, r] as const)))(
      '%s answers 401 in the envelope without a key, with a wrong key and with malformed Authorization',
      async (_name, prefix, route) => {
        const wrongKey = `sk_live_${'A'.repeat(32)}`;
        const headers = [
          undefined,
          `Bearer ${wrongKey}`,
          'Bearer',
          'Bearer ',
          `Basic ${Buffer.from(`user:${acme.apiKey}`).toString('base64')}`,
          `Token ${acme.apiKey}`,
          acme.apiKey,
          `Bearer ${acme.apiKey} extra`,
          `Bearer ${acme.apiKey.slice(0, -1)}`,
          `Bearer ${acme.apiKey}x`,
          `Bearer ${acme.apiKey.replace('sk_live_', 'sk_test_')}`,
          `Bearer ${TEN_KB}`,
        ];
        const before = await balancePaise(t.ctx, acme.businessId);
        for (const authorization of headers) {
          const res = await t.app.inject({
            method: route.method,
            url: `${prefix}${route.path}`,
            headers: authorization === undefined ? {} : { authorization },
            ...(route.body ? { payload: route.body } : {}),
          });
          expectError(res, 401, 'unauthorized');
        }
        expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
      },
    );

    it('accepts the Bearer scheme in any case and with extra spaces (RFC 6750)', async () => {
      for (const authorization of [`bearer ${acme.apiKey}`, `BEARER   ${acme.apiKey}`, `  Bearer ${acme.apiKey}  `]) {
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: { authorization } });
        expect(res.statusCode, authorization).toBe(200);
      }
    });

    it('revokes the old key at once on regeneration; the new key works on both mounts', async () => {
      const biz = await createBusiness(t.app, 'Rotating Keys Ltd');
      await fund(t.ctx, biz.businessId, 1_000);
      const { userId, secret } = await enrol(biz);
      expect((await call('POST', '/api/v1/test', biz.apiKey)).statusCode).toBe(200);

      const regen = await t.app.inject({ method: 'POST', url: '/api/business/api-key/regenerate', headers: { cookie: biz.cookie, 'sec-fetch-site': 'same-origin' } });
      expect(regen.statusCode).toBe(200);
      const newKey: string = regen.json().apiKey;
      expect(newKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
      expect(newKey).not.toBe(biz.apiKey);

      for (const prefix of PREFIXES) {
        expectError(await call('GET', `${prefix}/profile`, biz.apiKey), 401, 'unauthorized');
        expectError(await call('POST', `${prefix}/verify`, biz.apiKey, { user_id: userId, totp_code: totpCode(secret) }), 401, 'unauthorized');
        expect((await call('GET', `${prefix}/profile`, newKey)).json().business_id).toBe(biz.businessId);
      }
      // The enrolment belongs to the business, not to the key.
      const ok = await call('POST', '/api/v1/verify', newKey, { user_id: userId, totp_code: totpCode(secret) });
      expect(ok.json()).toMatchObject({ verified: true, status: 'verified' });
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(990);
    });

    it('records when a key was last used (shown on the dashboard)', async () => {
      const biz = await createBusiness(t.app, 'Last Used Ltd');
      const before = await t.app.inject({ method: 'GET', url: '/api/business/profile', headers: { cookie: biz.cookie } });
      expect(before.json().apiKeyLastUsedAt).toBeNull();
      await call('POST', '/api/v1/test', biz.apiKey);
      const after = await t.app.inject({ method: 'GET', url: '/api/business/profile', headers: { cookie: biz.cookie } });
      expect(Date.parse(after.json().apiKeyLastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    });
  });

  // --- profile and test ---------------------------------------------------------------------

  describe('profile and test', () => {
    it.each(PREFIXES)('GET %s/profile answers the balance in rupees, verifications left and the rate limit', async (prefix) => {
      const biz = await createBusiness(t.app, '  Profile Pvt Ltd ');
      await fund(t.ctx, biz.businessId, 12_345);
      const res = await call('GET', `${prefix}/profile`, biz.apiKey);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        business_id: biz.businessId,
        company_name: 'Profile Pvt Ltd',
        balance: '123.45',
        currency: 'INR',
        verifications_left: 1234,
        rate_limit: { requests_per_minute: 1000 },
        livemode: true,
      });
    });

    it.each(PREFIXES)('POST %s/test checks the key for free', async (prefix) => {
      const before = await balancePaise(t.ctx, acme.businessId);
      const count = await verificationCount(t.ctx, acme.businessId);
      const res = await call('POST', `${prefix}/test`, acme.apiKey);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, business_id: acme.businessId, livemode: true });
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
      expect(await verificationCount(t.ctx, acme.businessId)).toBe(count);
    });
  });

  // --- generate -----------------------------------------------------------------------------

  describe('generate', () => {
    it('enrols a user: base32 secret, parseable otpauth URI, PNG QR code, manual entry and 10 backup codes', async () => {
      const userId = unique('alice');
      const res = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userId, purpose: 'login' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ user_id: userId, algorithm: 'SHA1', digits: 6, period: 30 });
      expect(body.secret).toMatch(/^[A-Z2-7]{32}$/); // 20 bytes for SHA-1
      expect(body.manual_entry.replace(/ /g, '')).toBe(body.secret);
      expect(body.manual_entry).toMatch(/^([A-Z2-7]{4} )*[A-Z2-7]{1,4}$/);

      const parsed = URI.parse(body.otpauth_uri);
      expect(parsed).toBeInstanceOf(TOTP);
      expect(parsed).toMatchObject({ issuer: 'Acme Payments', label: userId, algorithm: 'SHA1', digits: 6, period: 30 });
      expect(parsed.secret.base32).toBe(body.secret);

      expect(body.qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      const png = Buffer.from(body.qr_code.split(',')[1], 'base64');
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

      expect(body.backup_codes).toHaveLength(10);
      expect(new Set(body.backup_codes).size).toBe(10);
      for (const code of body.backup_codes) expect(code).toMatch(/^[2-9a-km-np-z]{4}-[2-9a-km-np-z]{4}$/);

      // Stored encrypted and hashed, never in the clear.
      const row = await t.ctx.db.selectFrom('enrolment').selectAll().where('external_user_id', '=', userId).executeTakeFirstOrThrow();
      expect(row.secret_enc).not.toContain(body.secret);
      expect(row.purpose).toBe('login');
      const codes = await t.ctx.db.selectFrom('backup_code').select('code_hash').where('enrolment_id', '=', row.id).execute();
      expect(codes).toHaveLength(10);
      for (const { code_hash } of codes) {
        for (const code of body.backup_codes) expect(code_hash).not.toContain(code.replace('-', ''));
      }
    });

    it('uses the given label and issuer in the otpauth URI, unicode included', async () => {
      const label = 'Zoë Ünïcødé 😀 عربي';
      const issuer = 'Acme — Bharat ₹ 家';
      const { otpauth_uri } = await enrol(acme, { label, issuer });
      expect(URI.parse(otpauth_uri)).toMatchObject({ label, issuer });
    });

    it('answers 409 when the user is already enrolled and rotate is not true; the secret is kept', async () => {
      const { userId, secret } = await enrol(acme);
      for (const rotate of [undefined, false]) {
        const again = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userId, ...(rotate === undefined ? {} : { rotate }) });
        expectError(again, 409, 'conflict');
        expect(again.json().error.message).toContain('rotate');
      }
      const res = await verify(acme, { user_id: userId, totp_code: totpCode(secret) });
      expect(res.json().status).toBe('verified');
    });

    it('rotate:true replaces the secret and backup codes: the old code and old backup code fail, the new ones verify', async () => {
      const first = await enrol(acme);
      const second = await enrol(acme, { user_id: first.userId, rotate: true });
      expect(second.secret).not.toBe(first.secret);
      expect((await verify(acme, { user_id: first.userId, totp_code: totpCode(first.secret) })).json().status).toBe('invalid_code');
      expect((await verify(acme, { user_id: first.userId, backup_code: first.backup_codes[0] })).json().status).toBe('invalid_code');
      expect((await verify(acme, { user_id: first.userId, totp_code: totpCode(second.secret) })).json().status).toBe('verified');
      expect((await verify(acme, { user_id: first.userId, backup_code: second.backup_codes[0] })).json().status).toBe('verified');
      const enrolments = await t.ctx.db.selectFrom('enrolment').select('id').where('external_user_id', '=', first.userId).execute();
      expect(enrolments).toHaveLength(1);
    });

    it.each([
      { algorithm: 'SHA1', digits: 6, period: 30, secretLength: 32 },
      { algorithm: 'SHA256', digits: 7, period: 15, secretLength: 52 },
      { algorithm: 'SHA512', digits: 8, period: 120, secretLength: 103 },
      { algorithm: 'SHA1', digits: 8, period: 60, secretLength: 32 },
      { algorithm: 'SHA256', digits: 6, period: 120, secretLength: 52 },
      { algorithm: 'SHA512', digits: 7, period: 15, secretLength: 103 },
    ] as const)('enrols and verifies $algorithm, $digits digits, $period s', async ({ algorithm, digits, period, secretLength }) => {
      const { userId, secret, otpauth_uri } = await enrol(acme, { algorithm, digits, period });
      expect(secret).toHaveLength(secretLength);
      expect(URI.parse(otpauth_uri)).toMatchObject({ algorithm, digits, period });
      await awayFromStepBoundary(period);
      const wrongParams = await verify(acme, { user_id: userId, totp_code: totpCode(secret, { algorithm: algorithm === 'SHA1' ? 'SHA256' : 'SHA1', digits, period }) });
      expect(wrongParams.json().status).toBe('invalid_code');
      const res = await verify(acme, { user_id: userId, totp_code: totpCode(secret, { algorithm, digits, period }) });
      expect(res.json()).toMatchObject({ verified: true, status: 'verified' });
      const old = totpCode(secret, { algorithm, digits, period, timestamp: Date.now() - 4 * period * 1000 });
      expect((await verify(acme, { user_id: userId, totp_code: old })).json().status).toBe('expired');
    });

    it.each([
      ['digits', [5, 9, 0, -6, 6.5, 1e21, '6', null, true]],
      ['period', [14, 121, 0, -30, 30.5, 1e21, '30', null]],
      ['algorithm', ['MD5', 'sha1', 'SHA-1', '', 1, null]],
      ['rotate', ['true', 1, null]],
      ['user_id', ['', 'u'.repeat(129), 42, null, ['a'], { a: 1 }]],
      ['purpose', ['p'.repeat(101), 1, null]],
      ['label', ['', 'l'.repeat(201), null]],
      ['issuer', ['', 'i'.repeat(201), null]],
      ['unexpected', ['field']],
    ] as const)('refuses an out-of-range %s with 400 and records nothing', async (field, values) => {
      for (const value of values) {
        const userId = unique('range');
        const res = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userId, [field]: value });
        expectError(res, 400, 'validation_failed');
        expect(res.json().error.message, JSON.stringify(value)).toContain(field);
        const row = await t.ctx.db.selectFrom('enrolment').select('id').where('external_user_id', '=', userId).executeTakeFirst();
        expect(row).toBeUndefined();
      }
    });

    it('refuses numbers JSON cannot hold exactly (1e400 → Infinity) with 400', async () => {
      for (const raw of ['{"user_id":"n1","digits":1e400}', '{"user_id":"n2","period":-1e400}', '{"user_id":"n3","period":30.0000000001}']) {
        expectError(await call('POST', '/api/v1/generate', acme.apiKey, raw), 400, 'validation_failed');
      }
    });

    it('accepts a user_id of 128 characters, unicode ones too, and can delete it again', async () => {
      for (const userId of ['u'.repeat(128), 'ユーザー-ñ-😀-עברית-e\u0301', '😀'.repeat(128)]) {
        const { secret } = await enrol(acme, { user_id: userId });
        expect((await verify(acme, { user_id: userId, totp_code: totpCode(secret) })).json().status).toBe('verified');
        const del = await call('DELETE', `/api/v1/users/${encodeURIComponent(userId)}`, acme.apiKey);
        expect(del.statusCode).toBe(204);
      }
    });

    it.each(['user_id', 'purpose', 'label', 'issuer', 'algorithm'])('answers a clean 400 for 10 kB strings in %s', async (field) => {
      for (const value of [TEN_KB, TEN_KB_UNICODE]) {
        const res = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: 'ten-kb', [field]: value });
        expectError(res, 400, 'validation_failed');
      }
    });

    it('refuses NUL characters in text fields with 400 on both engines', async () => {
      for (const field of ['user_id', 'purpose', 'label', 'issuer']) {
        const res = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: 'nul-user', [field]: 'a\u0000b' });
        expectError(res, 400, 'validation_failed');
      }
    });

    it('answers 400, not 500, when label and issuer are too long to fit in a QR code', async () => {
      const res = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: unique('qr'), label: '😀'.repeat(100), issuer: 'क'.repeat(200) });
      expectError(res, 400, 'validation_failed');
      expect(res.json().error.message).toMatch(/QR/);
      // Long ASCII label and issuer still fit.
      const fits = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: unique('qr'), label: 'l'.repeat(200), issuer: 'i'.repeat(200), algorithm: 'SHA512' });
      expect(fits.statusCode).toBe(201);
    });

    it('answers 400, not 500, when the company name used as issuer is too long for a QR code', async () => {
      const biz = await createBusiness(t.app, 'क'.repeat(200));
      const res = await call('POST', '/api/v1/generate', biz.apiKey, { user_id: 'u1' });
      expectError(res, 400, 'validation_failed');
      expect((await call('POST', '/api/v1/generate', biz.apiKey, { user_id: 'u1', issuer: 'Short' })).statusCode).toBe(201);
    });
  });

  // --- verify -------------------------------------------------------------------------------

  describe('verify', () => {
    it('verified, then the same code replayed; each check costs ₹0.10 and lowers the balance', async () => {
      const { userId, secret } = await enrol(acme);
      const before = await balancePaise(t.ctx, acme.businessId);
      const code = totpCode(secret);

      const first = await verify(acme, { user_id: userId, totp_code: code, purpose: 'login' });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        verified: true,
        status: 'verified',
        verification_id: expect.stringMatching(/^ver_/),
        request_id: first.headers['x-request-id'],
        timestamp: expect.any(String),
        cost: '0.10',
        balance: expect.any(String),
        livemode: true,
      });
      expect(Math.abs(Date.parse(first.json().timestamp) - Date.now())).toBeLessThan(10_000);
      expect(paise(first.json().balance)).toBe(before - 10);

      const replay = await verify(acme, { user_id: userId, totp_code: code });
      expect(replay.json()).toMatchObject({ verified: false, status: 'replayed', cost: '0.10' });
      expect(paise(replay.json().balance)).toBe(before - 20);
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before - 20);

      const rows = await t.ctx.db.selectFrom('totp_verification').selectAll().where('external_user_id', '=', userId).orderBy('created_at').execute();
      expect(rows.map((r) => [r.status, Number(r.cost_paise), r.mode, r.method])).toEqual([
        ['verified', 10, 'managed', 'totp'],
        ['replayed', 10, 'managed', 'totp'],
      ]);
      expect(rows[0]!.purpose).toBe('login');
    });

    it('an earlier code after a later one was accepted is replayed (RFC 6238 §5.2)', async () => {
      await awayFromStepBoundary();
      const { userId, secret } = await enrol(acme);
      expect((await verify(acme, { user_id: userId, totp_code: totpCode(secret) })).json().status).toBe('verified');
      const previous = totpCode(secret, { timestamp: Date.now() - 30_000 });
      expect((await verify(acme, { user_id: userId, totp_code: previous })).json().status).toBe('replayed');
    });

    it('a code 3 to 10 steps away answers expired, further away invalid_code, a wrong one invalid_code — all charged', async () => {
      await awayFromStepBoundary();
      const { userId, secret } = await enrol(acme);
      const before = await balancePaise(t.ctx, acme.businessId);
      const at = (steps: number) => totpCode(secret, { timestamp: Date.now() + steps * 30_000 });
      const cases: Array<[string, string]> = [
        [at(-3), 'expired'],
        [at(-10), 'expired'],
        [at(3), 'expired'],
        [at(-12), 'invalid_code'],
        [wrongCode(secret), 'invalid_code'],
      ];
      for (const [code, status] of cases) {
        const res = await verify(acme, { user_id: userId, totp_code: code });
        expect(res.json(), status).toMatchObject({ verified: false, status, cost: '0.10' });
      }
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before - 10 * cases.length);
    });

    it('honours window in managed mode: window 0 refuses the previous step, window 2 accepts two steps back', async () => {
      await awayFromStepBoundary();
      const { userId, secret } = await enrol(acme);
      const oneBack = totpCode(secret, { timestamp: Date.now() - 30_000 });
      expect((await verify(acme, { user_id: userId, totp_code: oneBack, window: 0 })).json().status).toBe('expired');
      const twoBack = totpCode(secret, { timestamp: Date.now() - 60_000 });
      expect((await verify(acme, { user_id: userId, totp_code: twoBack, window: 2 })).json().status).toBe('verified');
    });

    it('a backup code verifies once, in any case and without the dash; then it is invalid_code', async () => {
      const { userId, backup_codes } = await enrol(acme);
      const before = await balancePaise(t.ctx, acme.businessId);
      const first = await verify(acme, { user_id: userId, backup_code: backup_codes[0] });
      expect(first.json()).toMatchObject({ verified: true, status: 'verified', backup_codes_left: 9, cost: '0.10' });
      const again = await verify(acme, { user_id: userId, backup_code: backup_codes[0] });
      expect(again.json()).toMatchObject({ verified: false, status: 'invalid_code' });
      expect(again.json()).not.toHaveProperty('backup_codes_left');
      const shouted = await verify(acme, { user_id: userId, backup_code: backup_codes[1]!.toUpperCase().replace('-', '') });
      expect(shouted.json()).toMatchObject({ verified: true, backup_codes_left: 8 });
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before - 30);
      const row = await t.ctx.db.selectFrom('totp_verification').select('method').where('external_user_id', '=', userId).executeTakeFirstOrThrow();
      expect(row.method).toBe('backup');
    });

    it("another user's backup code is invalid_code", async () => {
      const a = await enrol(acme);
      const b = await enrol(acme);
      expect((await verify(acme, { user_id: a.userId, backup_code: b.backup_codes[0] })).json().status).toBe('invalid_code');
    });

    it('stateless: secret + token verifies (lower case, spaces), records no user, costs ₹0.10', async () => {
      const secret = new Secret({ size: 20 }).base32;
      const before = await balancePaise(t.ctx, acme.businessId);
      const count = await verificationCount(t.ctx, acme.businessId);
      const res = await verify(acme, { secret: secret.toLowerCase().replace(/(.{4})/g, '$1 '), token: totpCode(secret), purpose: 'stateless' });
      expect(res.json()).toMatchObject({ verified: true, status: 'verified', cost: '0.10' });
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before - 10);
      expect(await verificationCount(t.ctx, acme.businessId)).toBe(count + 1);
      const row = await t.ctx.db
        .selectFrom('totp_verification')
        .selectAll()
        .where('business_id', '=', acme.businessId)
        .where('purpose', '=', 'stateless')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ external_user_id: null, mode: 'stateless', status: 'verified' });
    });

    it('stateless window: 0 refuses the previous step (expired), 2 accepts two steps back, wrong token is invalid_code', async () => {
      await awayFromStepBoundary();
      const secret = new Secret({ size: 20 }).base32;
      const back = (steps: number) => totpCode(secret, { timestamp: Date.now() - steps * 30_000 });
      expect((await verify(acme, { secret, token: back(1), window: 0 })).json().status).toBe('expired');
      expect((await verify(acme, { secret, token: back(2), window: 2 })).json().status).toBe('verified');
      expect((await verify(acme, { secret, token: back(2) })).json().status).toBe('expired');
      expect((await verify(acme, { secret, token: wrongCode(secret) })).json().status).toBe('invalid_code');
    });

    it.each([
      ['window', [-1, 11, 1.5, 1e21, '1', null, true]],
      ['token', ['12345', '123456789', 'abcdef', 123456, '１２３４５６', '١٢٣٤٥٦', ' 123456', null]],
      ['secret', ['JBSWY3DP', 'JBSWY3DPEHPK3PX1', 'ÀÉÎÕÜÀÉÎÕÜÀÉÎÕÜÀÉ', 'JBSWY3DPEHPK3PXP'.repeat(17), 42, null]],
    ] as const)('stateless: refuses a bad %s with 400, not charged', async (field, values) => {
      const secret = new Secret({ size: 20 }).base32;
      const before = await balancePaise(t.ctx, acme.businessId);
      for (const value of values) {
        const res = await verify(acme, { secret, token: totpCode(secret), [field]: value });
        expectError(res, 400, 'validation_failed');
      }
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
    });

    it('refuses ambiguous or incomplete bodies with 400, not charged', async () => {
      const { userId, secret, backup_codes } = await enrol(acme);
      const code = totpCode(secret);
      const before = await balancePaise(t.ctx, acme.businessId);
      for (const body of [
        {},
        { user_id: userId },
        { totp_code: code },
        { user_id: userId, totp_code: code, backup_code: backup_codes[0] },
        { user_id: userId, secret, token: code },
        { user_id: userId, totp_code: code, secret, token: code },
        { secret },
        { token: code },
        { user_id: userId, backup_code: backup_codes[0], window: 1 },
        { user_id: userId, totp_code: code, extra: true },
        { user_id: userId, totp_code: '12345' },
        { user_id: userId, backup_code: 'short' },
        [],
        'null',
        '"a string"',
        '42',
      ]) {
        const res = await verify(acme, body);
        expectError(res, 400, 'validation_failed');
      }
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
      expect((await verify(acme, { user_id: userId, totp_code: code })).json().status).toBe('verified');
    });

    it.each(['user_id', 'totp_code', 'backup_code', 'purpose'])('managed: answers a clean 400 for a 10 kB %s, not charged', async (field) => {
      const { userId, secret } = await enrol(acme);
      const before = await balancePaise(t.ctx, acme.businessId);
      for (const value of [TEN_KB, TEN_KB_UNICODE]) {
        const body = field === 'backup_code' ? { user_id: userId, backup_code: value } : { user_id: userId, totp_code: totpCode(secret), [field]: value };
        expectError(await verify(acme, body), 400, 'validation_failed');
      }
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
    });

    it.each(['secret', 'token', 'purpose'])('stateless: answers a clean 400 for a 10 kB %s', async (field) => {
      const secret = new Secret({ size: 20 }).base32;
      for (const value of [TEN_KB, TEN_KB_UNICODE]) {
        expectError(await verify(acme, { secret, token: totpCode(secret), [field]: value }), 400, 'validation_failed');
      }
    });

    it('unicode where it is legal: user ids, purposes and backup codes are handled, never a 500', async () => {
      const { userId, secret } = await enrol(acme, { user_id: `用户-${unique('ü')}-😀` });
      const purpose = 'connexion — لاگین — 登录 😀';
      const ok = await verify(acme, { user_id: userId, totp_code: totpCode(secret), purpose });
      expect(ok.json().status).toBe('verified');
      const row = await t.ctx.db.selectFrom('totp_verification').select(['purpose', 'external_user_id']).where('external_user_id', '=', userId).executeTakeFirstOrThrow();
      expect(row).toEqual({ purpose, external_user_id: userId });
      expect((await verify(acme, { user_id: userId, backup_code: 'ßßßß-ßßßß-😀' })).json().status).toBe('invalid_code');
      expectError(await verify(acme, { user_id: 'नहीं-है', totp_code: '123456' }), 404, 'not_found');
      expectError(await verify(acme, { user_id: userId, totp_code: '１２３４５６' }), 400, 'validation_failed');
    });

    it('refuses NUL characters in user_id and purpose with 400 on both engines', async () => {
      const { userId, secret } = await enrol(acme);
      expectError(await verify(acme, { user_id: 'a\u0000b', totp_code: '123456' }), 400, 'validation_failed');
      expectError(await verify(acme, { user_id: userId, totp_code: totpCode(secret), purpose: 'x\u0000' }), 400, 'validation_failed');
    });

    it("answers 404 for another business's user and for an unknown user, without charging", async () => {
      const theirs = await enrol(other);
      const before = await balancePaise(t.ctx, acme.businessId);
      const count = await verificationCount(t.ctx, acme.businessId);
      for (const prefix of PREFIXES) {
        expectError(await verify(acme, { user_id: theirs.userId, totp_code: totpCode(theirs.secret) }, {}, prefix), 404, 'not_found');
        expectError(await verify(acme, { user_id: theirs.userId, backup_code: theirs.backup_codes[0] }, {}, prefix), 404, 'not_found');
        expectError(await verify(acme, { user_id: 'never-enrolled', totp_code: '123456' }, {}, prefix), 404, 'not_found');
      }
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
      expect(await verificationCount(t.ctx, acme.businessId)).toBe(count);
      // Their code and backup code are untouched and still work for them.
      expect((await verify(other, { user_id: theirs.userId, totp_code: totpCode(theirs.secret) })).json().status).toBe('verified');
      expect((await verify(other, { user_id: theirs.userId, backup_code: theirs.backup_codes[0] })).json().status).toBe('verified');
    });

    it('the same user_id in two businesses are two different users', async () => {
      const userId = unique('shared');
      const mine = await enrol(acme, { user_id: userId });
      const theirs = await enrol(other, { user_id: userId });
      expect((await verify(acme, { user_id: userId, totp_code: totpCode(theirs.secret) })).json().status).toBe('invalid_code');
      expect((await verify(acme, { user_id: userId, totp_code: totpCode(mine.secret) })).json().status).toBe('verified');
      expect((await verify(other, { user_id: userId, totp_code: totpCode(theirs.secret) })).json().status).toBe('verified');
    });

    it('answers 400 invalid_json for malformed JSON and an empty JSON body, 415 for other media types', async () => {
      const before = await balancePaise(t.ctx, acme.businessId);
      for (const raw of ['{"user_id":', '{user_id: "a"}', "{'a':1}", '{"a":1}}', '\u0000', '{"a":"\\x"}']) {
        expectError(await call('POST', '/api/v1/verify', acme.apiKey, raw), 400, 'invalid_json');
      }
      const empty = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: { ...bearer(acme.apiKey), 'content-type': 'application/json' }, payload: '' });
      expectError(empty, 400, 'invalid_json');
      const xml = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: { ...bearer(acme.apiKey), 'content-type': 'application/xml' }, payload: '<a/>' });
      expectError(xml, 415, 'unsupported_media_type');
      // text/plain is parsed as a string, which is not an object: a validation error.
      const text = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: { ...bearer(acme.apiKey), 'content-type': 'text/plain' }, payload: 'user_id=a' });
      expectError(text, 400, 'validation_failed');
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
    });

    it.each(['/generate', '/verify'])('answers 413 payload_too_large for a body over 64 KiB on %s', async (path) => {
      const before = await balancePaise(t.ctx, acme.businessId);
      const payload = JSON.stringify({ user_id: 'big', purpose: 'p'.repeat(64 * 1024) });
      expectError(await call('POST', `/api/v1${path}`, acme.apiKey, payload), 413, 'payload_too_large');
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
      // Just under the limit is parsed and then refused by validation, not by size.
      const under = JSON.stringify({ user_id: 'big', purpose: 'p'.repeat(60 * 1024) });
      expectError(await call('POST', `/api/v1${path}`, acme.apiKey, under), 400, 'validation_failed');
    });

    it('402 insufficient_credits when the balance is below ₹0.10: nothing recorded, the code not used up', async () => {
      const poor = await createBusiness(t.app, 'Poor Co');
      const { userId, secret } = await enrol(poor);
      const code = totpCode(secret);
      expectError(await verify(poor, { user_id: userId, totp_code: code }), 402, 'insufficient_credits');
      await fund(t.ctx, poor.businessId, 9);
      for (const prefix of PREFIXES) {
        expectError(await verify(poor, { user_id: userId, totp_code: code }, {}, prefix), 402, 'insufficient_credits');
        expectError(await verify(poor, { user_id: userId, totp_code: code }, { 'idempotency-key': 'poor-1' }, prefix), 402, 'insufficient_credits');
        expectError(await verify(poor, { secret, token: code }, {}, prefix), 402, 'insufficient_credits');
      }
      expect(await balancePaise(t.ctx, poor.businessId)).toBe(9);
      expect(await verificationCount(t.ctx, poor.businessId)).toBe(0);
      const enrolment = await t.ctx.db.selectFrom('enrolment').select('last_used_step').where('external_user_id', '=', userId).executeTakeFirstOrThrow();
      expect(enrolment.last_used_step).toBeNull();
      const idem = await t.ctx.db.selectFrom('idempotency_record').select('idempotency_key').where('business_id', '=', poor.businessId).execute();
      expect(idem).toEqual([]);

      await fund(t.ctx, poor.businessId, 1);
      const paid = await verify(poor, { user_id: userId, totp_code: code }, { 'idempotency-key': 'poor-1' });
      expect(paid.json()).toMatchObject({ verified: true, status: 'verified', balance: '0.00' });
      expectError(await verify(poor, { user_id: userId, totp_code: code }), 402, 'insufficient_credits');
      const totals = await ledgerTotals(t.ctx.db, poor.businessId);
      expect(totals).toEqual({ creditedPaise: 10, spentPaise: 10, balancePaise: 0 });
    });

    it('throttles a user after 5 failures in 15 minutes: 429 too_many_attempts with Retry-After, free, other users unaffected', async () => {
      const { userId, secret } = await enrol(acme);
      const neighbour = await enrol(acme);
      for (let i = 0; i < 5; i++) {
        expect((await verify(acme, { user_id: userId, totp_code: wrongCode(secret) })).json().status).toBe('invalid_code');
      }
      const before = await balancePaise(t.ctx, acme.businessId);
      const count = await verificationCount(t.ctx, acme.businessId);
      for (const body of [{ user_id: userId, totp_code: wrongCode(secret) }, { user_id: userId, totp_code: totpCode(secret) }, { user_id: userId, backup_code: 'abcd-efgh' }]) {
        const res = await verify(acme, body);
        expectError(res, 429, 'too_many_attempts');
        const retryAfter = Number(res.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(890);
        expect(retryAfter).toBeLessThanOrEqual(900);
      }
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
      expect(await verificationCount(t.ctx, acme.businessId)).toBe(count);

      expect((await verify(acme, { user_id: neighbour.userId, totp_code: totpCode(neighbour.secret) })).json().status).toBe('verified');

      // Not locked out for good: once the failures are older than 15 minutes the user may try again.
      await t.ctx.db
        .updateTable('totp_verification')
        .set({ created_at: new Date(Date.now() - 16 * 60_000) })
        .where('business_id', '=', acme.businessId)
        .where('external_user_id', '=', userId)
        .execute();
      expect((await verify(acme, { user_id: userId, totp_code: totpCode(secret) })).json().status).toBe('verified');
    });

    it('replays are not guesses: a verified code sent six more times does not throttle the user', async () => {
      const { userId, secret } = await enrol(acme);
      const code = totpCode(secret);
      expect((await verify(acme, { user_id: userId, totp_code: code })).json().status).toBe('verified');
      for (let i = 0; i < 6; i++) expect((await verify(acme, { user_id: userId, totp_code: code })).json().status).toBe('replayed');
      expect((await verify(acme, { user_id: userId, totp_code: wrongCode(secret) })).json().status).toBe('invalid_code');
    });

    it('a success among the last five checks keeps the user unthrottled', async () => {
      const { userId, secret } = await enrol(acme);
      for (let i = 0; i < 4; i++) await verify(acme, { user_id: userId, totp_code: wrongCode(secret) });
      expect((await verify(acme, { user_id: userId, totp_code: totpCode(secret) })).json().status).toBe('verified');
      expect((await verify(acme, { user_id: userId, totp_code: wrongCode(secret) })).json().status).toBe('invalid_code');
    });
  });

  // --- idempotency --------------------------------------------------------------------------

  describe('Idempotency-Key', () => {
    it('verify: the same key and body return the stored answer, marked idempotent-replayed, charged once', async () => {
      const { userId, secret } = await enrol(acme);
      const key = unique('idem');
      const body = { user_id: userId, totp_code: totpCode(secret) };
      const before = await balancePaise(t.ctx, acme.businessId);
      const first = await verify(acme, body, { 'idempotency-key': key });
      expect(first.json().status).toBe('verified');
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const second = await verify(acme, body, { 'idempotency-key': key });
      expect(second.statusCode).toBe(200);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.json()).toEqual(first.json()); // verified, not replayed: the stored answer
      const viaAlias = await verify(acme, body, { 'idempotency-key': key }, '/v1');
      expect(viaAlias.json()).toEqual(first.json());
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before - 10);
      const rows = await t.ctx.db.selectFrom('totp_verification').select('id').where('external_user_id', '=', userId).execute();
      expect(rows).toEqual([{ id: first.json().verification_id }]);
    });

    it('verify: the same key with another body answers 409 conflict, not charged', async () => {
      const { userId, secret } = await enrol(acme);
      const key = unique('idem');
      await verify(acme, { user_id: userId, totp_code: totpCode(secret) }, { 'idempotency-key': key });
      const before = await balancePaise(t.ctx, acme.businessId);
      const res = await verify(acme, { user_id: userId, totp_code: wrongCode(secret) }, { 'idempotency-key': key });
      expectError(res, 409, 'conflict');
      expect(await balancePaise(t.ctx, acme.businessId)).toBe(before);
    });

    it('generate: the same key and body return the same enrolment once; another body or endpoint is 409', async () => {
      const key = unique('idem');
      const userId = unique('idem-user');
      const first = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userId }, { 'idempotency-key': key });
      expect(first.statusCode).toBe(201);
      const second = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userId }, { 'idempotency-key': key });
      expect(second.statusCode).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.json()).toEqual(first.json());
      expectError(await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userId }), 409, 'conflict');
      expectError(await call('POST', '/api/v1/generate', acme.apiKey, { user_id: `${userId}-2` }, { 'idempotency-key': key }), 409, 'conflict');
      expectError(await verify(acme, { user_id: userId, totp_code: totpCode(first.json().secret) }, { 'idempotency-key': key }), 409, 'conflict');
      expect((await verify(acme, { user_id: userId, totp_code: totpCode(first.json().secret) })).json().status).toBe('verified');
    });

    const storedBody = async (key: string) =>
      (await t.ctx.db.selectFrom('idempotency_record').select('response_body').where('business_id', '=', acme.businessId).where('idempotency_key', '=', key).executeTakeFirstOrThrow())
        .response_body;
    const setStoredBody = (key: string, body: string) =>
      t.ctx.db.updateTable('idempotency_record').set({ response_body: body }).where('business_id', '=', acme.businessId).where('idempotency_key', '=', key).execute();

    it('an answer stored as plain JSON before answers were encrypted still replays, byte for byte, the enrolment untouched', async () => {
      const key = unique('idem');
      const userId = unique('legacy-user');
      const first = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userId }, { 'idempotency-key': key });
      expect(first.statusCode).toBe(201);
      expect(await storedBody(key)).toMatch(/^v1:/);
      await setStoredBody(key, JSON.stringify(first.json())); // what the previous version wrote
      const retry = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userId }, { 'idempotency-key': key });
      expect(retry.statusCode).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toBe(first.body);
      expect((await verify(acme, { user_id: userId, totp_code: totpCode(first.json().secret) })).json().status).toBe('verified');
    });

    it("a stored answer moved into another key's row does not decrypt, so it is never replayed there", async () => {
      const [keyA, keyB] = [unique('idem'), unique('idem')];
      const a = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: unique('swap') }, { 'idempotency-key': keyA });
      const userB = unique('swap');
      const b = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userB }, { 'idempotency-key': keyB });
      expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
      await setStoredBody(keyB, await storedBody(keyA));
      const retry = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userB }, { 'idempotency-key': keyB });
      expectError(retry, 500, 'internal_error');
      expect(retry.body).not.toContain(a.json().secret);
    });

    it('keys are per business: another business may use the same key', async () => {
      const key = unique('idem');
      const a = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: unique('k') }, { 'idempotency-key': key });
      const b = await call('POST', '/api/v1/generate', other.apiKey, { user_id: unique('k') }, { 'idempotency-key': key });
      expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
      expect(b.headers['idempotent-replayed']).toBeUndefined();
    });

    it('refuses an Idempotency-Key longer than 255 characters with 400', async () => {
      const { userId, secret } = await enrol(acme);
      for (const key of ['k'.repeat(256), TEN_KB]) {
        expectError(await verify(acme, { user_id: userId, totp_code: totpCode(secret) }, { 'idempotency-key': key }), 400, 'validation_failed');
      }
    });
  });

  // --- delete -------------------------------------------------------------------------------

  describe('DELETE users/{user_id}', () => {
    it.each(PREFIXES)('%s: 204, then the enrolment and its backup codes are gone', async (prefix) => {
      const { userId, secret } = await enrol(acme);
      const enrolment = await t.ctx.db.selectFrom('enrolment').select('id').where('external_user_id', '=', userId).executeTakeFirstOrThrow();
      const res = await call('DELETE', `${prefix}/users/${encodeURIComponent(userId)}`, acme.apiKey);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(await t.ctx.db.selectFrom('backup_code').select('id').where('enrolment_id', '=', enrolment.id).execute()).toEqual([]);
      expectError(await verify(acme, { user_id: userId, totp_code: totpCode(secret) }), 404, 'not_found');
      expectError(await call('DELETE', `${prefix}/users/${encodeURIComponent(userId)}`, acme.apiKey), 404, 'not_found');
      // The user may be enrolled afresh.
      await enrol(acme, { user_id: userId });
    });

    it("cannot delete another business's user (404), which stays enrolled", async () => {
      const theirs = await enrol(other);
      expectError(await call('DELETE', `/api/v1/users/${theirs.userId}`, acme.apiKey), 404, 'not_found');
      expect((await verify(other, { user_id: theirs.userId, totp_code: totpCode(theirs.secret) })).json().status).toBe('verified');
    });

    it('answers clean errors in the envelope for a too long, NUL or badly encoded user id', async () => {
      for (const userId of ['u'.repeat(129), 'u'.repeat(1000), encodeURIComponent('é'.repeat(129))]) {
        expectError(await call('DELETE', `/api/v1/users/${userId}`, acme.apiKey), 400, 'validation_failed');
      }
      expectError(await call('DELETE', `/api/v1/users/${encodeURIComponent('😀'.repeat(129))}`, acme.apiKey), 400, 'validation_failed');
      expectError(await call('DELETE', `/api/v1/users/${encodeURIComponent(TEN_KB_UNICODE)}`, acme.apiKey), 414, 'uri_too_long');
      expectError(await call('DELETE', '/api/v1/users/a%00b', acme.apiKey), 400, 'validation_failed');
      const bad = await call('DELETE', '/api/v1/users/%E0%A4%A', acme.apiKey);
      expectError(bad, 400, 'bad_request');
    });
  });

  // --- the /v1 alias and the envelope -------------------------------------------------------

  it('the /v1 alias serves the whole flow: profile, test, generate, verify, delete', async () => {
    const profile = await call('GET', '/v1/profile', acme.apiKey);
    expect(profile.json().business_id).toBe(acme.businessId);
    expect((await call('POST', '/v1/test', acme.apiKey)).json()).toEqual({ ok: true, business_id: acme.businessId, livemode: true });
    const { userId, secret } = await enrol(acme, {}, '/v1');
    const res = await verify(acme, { user_id: userId, totp_code: totpCode(secret) }, {}, '/v1');
    expect(res.json()).toMatchObject({ verified: true, status: 'verified', cost: '0.10' });
    expect(paise(res.json().balance)).toBe(paise(profile.json().balance) - 10);
    expect((await call('DELETE', `/v1/users/${userId}`, acme.apiKey)).statusCode).toBe(204);
  });

  it('echoes a caller-supplied X-Request-Id in the header, the error envelope and the verify answer', async () => {
    const requestId = `req-${randomBytes(6).toString('hex')}`;
    const err = await call('POST', '/api/v1/verify', acme.apiKey, { user_id: 'nobody', totp_code: '123456' }, { 'x-request-id': requestId });
    expect(err.headers['x-request-id']).toBe(requestId);
    expect(err.json().error.request_id).toBe(requestId);
    const { userId, secret } = await enrol(acme);
    const ok = await call('POST', '/api/v1/verify', acme.apiKey, { user_id: userId, totp_code: totpCode(secret) }, { 'x-request-id': `${requestId}-2` });
    expect(ok.json().request_id).toBe(`${requestId}-2`);
    // An unsafe one is replaced by a fresh id.
    const unsafe = await call('GET', '/api/v1/nope', acme.apiKey, undefined, { 'x-request-id': 'a b<script>' });
    expect(unsafe.headers['x-request-id']).not.toBe('a b<script>');
    expectError(unsafe, 404, 'not_found');
  });

  // --- HTTP the way clients expect it ---------------------------------------------------------

  describe('HTTP conventions', () => {
    it.each(PREFIXES)('%s: a wrong method on a known path is 405 method_not_allowed with Allow from the route table; an unknown path stays 404', async (prefix) => {
      const cases = [
        { method: 'PUT' as const, path: '/users/alice', allow: 'DELETE, GET, HEAD' },
        { method: 'POST' as const, path: '/verifications/ver_1', allow: 'GET, HEAD' },
        { method: 'GET' as const, path: '/verify', allow: 'POST' },
        { method: 'PATCH' as const, path: '/generate', allow: 'POST' },
        { method: 'POST' as const, path: '/profile', allow: 'GET, HEAD' },
        { method: 'DELETE' as const, path: '/test/', allow: 'POST' },
      ];
      for (const c of cases) {
        for (const key of [acme.apiKey, null]) {
          const res = await t.app.inject({ method: c.method, url: `${prefix}${c.path}`, headers: key ? bearer(key) : {} });
          expectError(res, 405, 'method_not_allowed');
          expect(res.headers.allow, `${c.method} ${c.path}`).toBe(c.allow);
        }
      }
      for (const path of ['/nope', '/users/a/b', '/verify/x', '/verifications/a/b']) {
        const res = await call('GET', `${prefix}${path}`, acme.apiKey);
        expectError(res, 404, 'not_found');
        expect(res.headers.allow).toBeUndefined();
      }
    });

    it('a wrong method on a cookie route is still 404 (405 is the public API\'s)', async () => {
      const res = await t.app.inject({ method: 'PATCH', url: '/api/business/profile', headers: { 'sec-fetch-site': 'same-origin' } });
      expectError(res, 404, 'not_found');
      expect(res.headers.allow).toBeUndefined();
    });

    it.each(PREFIXES)('%s: a 401 names the Bearer scheme (RFC 6750), with error="invalid_token" when a key was sent but is wrong', async (prefix) => {
      const none = await call('GET', `${prefix}/profile`, null);
      expectError(none, 401, 'unauthorized');
      expect(none.headers['www-authenticate']).toBe('Bearer realm="sixdigit"');
      const basic = await call('GET', `${prefix}/profile`, null, undefined, { authorization: 'Basic dXNlcjpwYXNz' });
      expect(basic.headers['www-authenticate']).toBe('Bearer realm="sixdigit"');
      const wrong = await call('GET', `${prefix}/profile`, `sk_live_${'B'.repeat(32)}`);
      expectError(wrong, 401, 'unauthorized');
      expect(wrong.headers['www-authenticate']).toBe('Bearer realm="sixdigit", error="invalid_token"');
      // Not on answers that are not 401.
      expect((await call('GET', `${prefix}/profile`, acme.apiKey)).headers['www-authenticate']).toBeUndefined();
    });

    it('RateLimit-* is on every answer to a recognised key: 400, 402, 404, 409, 413, 415, not only 2xx', async () => {
      const broke = await createBusiness(t.app, 'Broke Ltd');
      const brokeUser = await enrol(broke);
      const { userId } = await enrol(acme);
      const answers = [
        { res: await call('POST', '/api/v1/verify', acme.apiKey, { user_id: 'x', totp_code: 'abc' }), status: 400 },
        { res: await call('POST', '/api/v1/verify', acme.apiKey, '{not json'), status: 400 },
        { res: await call('POST', '/api/v1/verify', broke.apiKey, { user_id: brokeUser.userId, totp_code: '123456' }), status: 402 },
        { res: await call('POST', '/api/v1/verify', acme.apiKey, { user_id: 'nobody', totp_code: '123456' }), status: 404 },
        { res: await call('POST', '/api/v1/generate', acme.apiKey, { user_id: userId }), status: 409 },
        { res: await call('POST', '/api/v1/verify', acme.apiKey, JSON.stringify({ user_id: 'x', purpose: 'p'.repeat(70_000) })), status: 413 },
        { res: await call('POST', '/api/v1/verify', acme.apiKey, '<user/>', { 'content-type': 'application/xml' }), status: 415 },
        { res: await call('DELETE', '/v1/users/nobody', acme.apiKey), status: 404 },
      ];
      for (const [i, { res, status }] of answers.entries()) {
        expect(res.statusCode, `${i}: ${res.body}`).toBe(status);
        expect(res.headers['ratelimit-limit'], `${i}`).toMatch(/^\d+$/);
        expect(res.headers['ratelimit-remaining'], `${i}`).toMatch(/^\d+$/);
        expect(res.headers['ratelimit-reset'], `${i}`).toMatch(/^\d+$/);
      }
      // No key, no budget: a 401 carries none (it is nobody's).
      expect((await call('GET', '/api/v1/profile', null)).headers['ratelimit-limit']).toBeUndefined();
    });

    it('a 400 lists each refused field in error.details while error.message stays one sentence', async () => {
      const res = await call('POST', '/api/v1/generate', acme.apiKey, { user_id: '', digits: 9, algorithm: 'MD5' });
      expectError(res, 400, 'validation_failed');
      const { details, message } = res.json().error;
      expect(details.map((d: { path: string }) => d.path).sort()).toEqual(['algorithm', 'digits', 'user_id']);
      for (const d of details) expect(d.message).toMatch(/\w/);
      expect(message).toMatch(/^Invalid body: /);
      expect(message).toContain('digits');

      // A rule over the whole body has the empty path.
      const whole = await call('POST', '/api/v1/verify', acme.apiKey, { user_id: 'x' });
      expectError(whole, 400, 'validation_failed');
      expect(whole.json().error.details).toEqual([{ path: '', message: expect.stringMatching(/exactly one of/) }]);
      // Headers are checked the same way.
      const header = await call('POST', '/api/v1/verify', acme.apiKey, { user_id: 'x', totp_code: '123456' }, { 'idempotency-key': 'k'.repeat(300) });
      expectError(header, 400, 'validation_failed');
      expect(header.json().error.details).toEqual([{ path: 'idempotency-key', message: expect.any(String) }]);
      // Errors other than validation carry none.
      expect((await call('POST', '/api/v1/verify', acme.apiKey, '{not json')).json().error.details).toBeUndefined();
    });

    it('every error links to its code on the docs page, under PUBLIC_URL', async () => {
      const samples = [
        await call('GET', '/api/v1/profile', null),
        await t.app.inject({ method: 'PUT', url: '/api/v1/profile', headers: bearer(acme.apiKey) }),
        await call('GET', '/api/v1/nothing-here', acme.apiKey),
        await call('POST', '/api/v1/verify', acme.apiKey, {}),
      ];
      for (const res of samples) {
        const { code, doc_url } = res.json().error;
        expect(doc_url).toBe(`http://localhost:5000/docs#error-${code}`);
      }
    });
  });

  it('keeps the ledger invariant after everything above: balance = credited − cost of recorded verifications', async () => {
    for (const business of [acme, other]) {
      const totals = await ledgerTotals(t.ctx.db, business.businessId);
      expect(totals.spentPaise).toBeGreaterThan(0);
      expect(totals.balancePaise).toBe(totals.creditedPaise - totals.spentPaise);
      expect(totals.spentPaise).toBe((await verificationCount(t.ctx, business.businessId)) * 10);
    }
  });
});

describeEachDialect('public API v1 per-key rate limit', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { API_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => t?.close());

  it('sends RateLimit-* headers and answers 429 rate_limited with Retry-After when over the limit', async () => {
    const biz = await createBusiness(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(biz.apiKey) })).json().rate_limit).toEqual({ requests_per_minute: 5 });
    for (let i = 1; i < 5; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(biz.apiKey) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-remaining']).toBe(String(4 - i));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
    const limited = await t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(biz.apiKey) });
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('refuses verifies over the limit without charging or recording them; another key is unaffected', async () => {
    const biz = await createBusiness(t.app);
    const neighbour = await createBusiness(t.app);
    await fund(t.ctx, biz.businessId, 1_000);
    const secret = new Secret({ size: 20 }).base32;
    for (let i = 0; i < 5; i++) {
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { secret, token: totpCode(secret) } })).statusCode).toBe(200);
    }
    const limited = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { secret, token: totpCode(secret) } });
    expectError(limited, 429, 'rate_limited');
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(950);
    expect(await verificationCount(t.ctx, biz.businessId)).toBe(5);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(neighbour.apiKey) })).statusCode).toBe(200);
  });

  it('counts one budget per key across every route and both mounts (/api/v1 and /v1)', async () => {
    const biz = await createBusiness(t.app);
    const calls = [
      { method: 'GET' as const, url: '/api/v1/profile' },
      { method: 'POST' as const, url: '/api/v1/test' },
      { method: 'GET' as const, url: '/v1/profile' },
      { method: 'POST' as const, url: '/v1/test' },
      { method: 'DELETE' as const, url: '/api/v1/users/nobody' },
    ];
    const seen = [];
    for (const c of calls) seen.push((await t.app.inject({ ...c, headers: bearer(biz.apiKey) })).headers['ratelimit-remaining']);
    expect(seen).toEqual(['4', '3', '2', '1', '0']);
    for (const c of calls) expectError(await t.app.inject({ ...c, headers: bearer(biz.apiKey) }), 429, 'rate_limited');
  });

  it('a wrong key is refused with 401 before it can use anyone’s budget', async () => {
    const biz = await createBusiness(t.app);
    for (let i = 0; i < 10; i++) {
      expectError(await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(`sk_live_${'B'.repeat(32)}`) }), 401, 'unauthorized');
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(biz.apiKey) })).headers['ratelimit-remaining']).toBe('4');
  });
});

describeEachDialect('public API v1 rate limit shared through Redis', (dialect) => {
  const redisAvailable = inject('redisAvailable');
  let a: TestApp;
  let b: Awaited<ReturnType<typeof buildApp>> | undefined;
  beforeAll(async () => {
    if (!redisAvailable) return;
    const env = { API_RATE_LIMIT_PER_MINUTE: '5', REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` };
    a = await createTestApp(dialect, env);
    // A second instance over the same database and the same Redis.
    b = await buildApp(createContext({ ...testConfig(env), database: a.ctx.config.database }));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it.skipIf(!redisAvailable)('two instances count one budget per key', async () => {
    const biz = await createBusiness(a.app);
    const statuses = [];
    for (const app of [a.app, b!, a.app, b!, a.app, b!, a.app]) {
      statuses.push((await app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(biz.apiKey) })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it.skipIf(!redisAvailable)('two instances count one budget across routes and mounts', async () => {
    const biz = await createBusiness(a.app);
    const sequence = [
      [a.app, 'GET', '/api/v1/profile'],
      [b!, 'POST', '/api/v1/test'],
      [a.app, 'GET', '/v1/profile'],
      [b!, 'POST', '/v1/test'],
      [a.app, 'POST', '/api/v1/test'],
      [b!, 'GET', '/api/v1/profile'],
    ] as const;
    const statuses = [];
    for (const [app, method, url] of sequence) statuses.push((await app.inject({ method, url, headers: bearer(biz.apiKey) })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

/**
 * Unknown keys never lock out a valid one (issue 18, item 7): behind one NAT, or a balancer without
 * TRUST_PROXY, every customer shares an address, so a guesser there must not stop them. Run with
 * the in-memory limit store and with Redis (the per-key limit's store in production).
 */
for (const store of ['memory', 'redis'] as const) {
  describeEachDialect(`public API v1: unknown keys and a valid key from one address (${store} store)`, (dialect) => {
    const redisAvailable = inject('redisAvailable');
    const skip = store === 'redis' && !redisAvailable;
    let t: TestApp;
    beforeAll(async () => {
      if (skip) return;
      t = await createTestApp(dialect, {
        API_RATE_LIMIT_PER_MINUTE: '5',
        ...(store === 'redis' ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` } : {}),
      });
    });
    afterAll(async () => t?.close());

    it.skipIf(skip)('serves a valid key after the address has used up its unknown keys; the key meets only its own per-key limit', async () => {
      const biz = await createBusiness(t.app);
      await fund(t.ctx, biz.businessId, 1_000);
      const shared = '198.51.100.77';
      const from = (key: string, url = '/api/v1/test') => t.app.inject({ method: 'POST', url, headers: bearer(key), remoteAddress: shared });
      for (let i = 0; i < FAILED_LOOKUPS_PER_MINUTE; i++) expectError(await from(`sk_live_${unique('G').replace(/[^0-9A-Za-z]/g, '').padEnd(32, 'g').slice(0, 32)}`), 401, 'unauthorized');
      const guessed = await from(`sk_live_${'Z'.repeat(32)}`);
      expectError(guessed, 429, 'rate_limited');
      expect(guessed.json().error.message).toMatch(/invalid API keys/);

      // The valid key: its five requests a minute, on /test and on the hot path, /verify.
      const secret = new Secret({ size: 20 }).base32;
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        const res = i % 2 === 0 ? await from(biz.apiKey) : await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), remoteAddress: shared, payload: { secret, token: totpCode(secret) } });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      // Then its own limit, which says so in its headers; the unknown-key budget is still spent.
      const own = await from(biz.apiKey);
      expectError(own, 429, 'rate_limited');
      expect(own.headers['ratelimit-limit']).toBe('5');
      expect(own.json().error.message).not.toMatch(/invalid API keys/);
      expectError(await from(`sk_live_${'Y'.repeat(32)}`), 429, 'rate_limited');
      // Another business's key from the same address has its own budget, untouched.
      const neighbour = await createBusiness(t.app);
      expect((await from(neighbour.apiKey)).statusCode).toBe(200);
    });
  });
}
