import { generateCode } from '@common/otpauth';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ORIGIN, signInFresh, uniqueEmail } from '../../../../test/support/authenticator';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { listAuditEntries } from '../audit/repo';
import { readQrCodes } from '../authenticator/qr-image';
import { hashBackupCode } from '../verify/totp';

/** The account TOTP (/totp): SPEC.md §2, §3 (TOTP status, setup result), §7. */
describeEachDialect('account TOTP routes', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const call = (opts: InjectOptions & { cookie?: string }) => {
    const { cookie, headers, ...rest } = opts;
    return t.app.inject({ ...rest, headers: { ...(cookie ? { cookie } : {}), ...(rest.method !== 'GET' ? ORIGIN : {}), ...headers } } as InjectOptions);
  };
  const status = (cookie: string) => call({ method: 'GET', url: '/api/user/totp-status', cookie });
  const setup = (cookie: string, payload?: unknown) => call({ method: 'POST', url: '/api/user/setup-totp', cookie, ...(payload === undefined ? {} : { payload: payload as object }) });
  const current = (cookie: string) => call({ method: 'GET', url: '/api/user/generate-totp', cookie });
  const userIdOf = async (email: string) => (await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  it('refuses every route when signed out (401)', async () => {
    for (const [method, url] of [
      ['GET', '/api/user/totp-status'],
      ['POST', '/api/user/setup-totp'],
      ['GET', '/api/user/generate-totp'],
    ] as const) {
      const res = await call({ method, url });
      expect({ url, status: res.statusCode, code: res.json().error.code }).toEqual({ url, status: 401, code: 'unauthorized' });
    }
  });

  it('says "not configured" with the e-mail, and has no code to show yet', async () => {
    const email = uniqueEmail('fresh');
    const cookie = await signInFresh(t.app, email);
    const res = await status(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ configured: false, pending: false, email, protectedSince: null, lastUsedAt: null, backupCodesLeft: 0 });
    const code = await current(cookie);
    expect(code.statusCode).toBe(404);
    expect(code.json().error).toMatchObject({ code: 'not_found', message: 'Account TOTP is not set up yet.' });
  });

  it('sets up: QR image of the otpauth link, the secret, 10 backup codes shown once and stored hashed', async () => {
    const email = uniqueEmail('setup');
    const cookie = await signInFresh(t.app, email);
    const res = await setup(cookie);
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      qrCode: expect.stringMatching(/^data:image\/png;base64,/),
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
      otpauthUri: `otpauth://totp/Sixdigit:${encodeURIComponent(email)}?secret=${body.secret}&issuer=Sixdigit&algorithm=SHA1&digits=6&period=30`,
      manualEntry: body.secret.match(/.{4}/g).join(' '),
      backupCodes: expect.any(Array),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
    expect(body.backupCodes).toHaveLength(10);
    expect(new Set(body.backupCodes).size).toBe(10);
    for (const code of body.backupCodes) expect(code).toMatch(/^[2-9a-z]{4}-[2-9a-z]{4}$/);

    // The QR image really holds the link an authenticator app needs.
    const png = Buffer.from(body.qrCode.split(',')[1], 'base64');
    expect(await readQrCodes(png)).toEqual([body.otpauthUri]);

    // Pending until the first code confirms it (second-factor.test.ts): it protects nothing yet.
    expect((await status(cookie)).json()).toEqual({ configured: false, pending: true, email, protectedSince: null, lastUsedAt: null, backupCodesLeft: 10 });

    // At rest: the secret encrypted and bound to this user, the backup codes as keyed hashes.
    const userId = await userIdOf(email);
    const row = await t.ctx.db.selectFrom('account_totp').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(body.secret);
    expect(t.ctx.secrets.decrypt(row.secret_enc, `account_totp:${userId}`)).toBe(body.secret);
    expect(() => t.ctx.secrets.decrypt(row.secret_enc, 'account_totp:someone-else')).toThrow();
    const hashes = (await t.ctx.db.selectFrom('account_totp_backup_code').select('code_hash').where('user_id', '=', userId).execute()).map((r) => r.code_hash);
    const key = t.ctx.secrets.deriveKey('account-totp-backup-codes');
    expect(hashes.sort()).toEqual(body.backupCodes.map((c: string) => hashBackupCode(c, key)).sort());
    for (const code of body.backupCodes) expect(JSON.stringify(hashes)).not.toContain(code);

    const audit = await listAuditEntries(t.ctx.db, { subjectId: userId });
    expect(audit.map((a) => a.action)).toContain('account_totp.setup');
  });

  it('replaces a pending setup (secret and backup codes); refuses once it is confirmed (409), even with {reset: true}', async () => {
    const email = uniqueEmail('reset');
    const cookie = await signInFresh(t.app, email);
    const first = (await setup(cookie)).json();
    const again = await setup(cookie, { reset: true });
    expect(again.statusCode).toBe(201);
    const second = again.json();
    expect(second.secret).not.toBe(first.secret);
    expect(second.backupCodes).not.toEqual(first.backupCodes);
    const userId = await userIdOf(email);
    const rows = await t.ctx.db.selectFrom('account_totp_backup_code').select('code_hash').where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(10);
    const account = { type: 'totp' as const, secret: second.secret, algorithm: 'SHA1' as const, digits: 6, period: 30, counter: null };
    const before = Date.now();
    const code = (await current(cookie)).json().code;
    expect([generateCode(account, before), generateCode(account, Date.now())]).toContain(code);
    expect((await listAuditEntries(t.ctx.db, { subjectId: userId })).map((a) => a.action)).toContain('account_totp.reset');

    const confirmed = await call({ method: 'POST', url: '/api/user/confirm-totp', cookie, payload: { code: generateCode(account, Date.now()) } });
    expect(confirmed.statusCode).toBe(200);
    for (const payload of [undefined, { reset: true }]) {
      const refused = await setup(cookie, payload);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toMatch(/already protects sign-in/);
    }
  });

  it('setups at once leave one row, whose secret one of them answered', async () => {
    const email = uniqueEmail('race');
    const cookie = await signInFresh(t.app, email);
    const results = await Promise.all([setup(cookie), setup(cookie), setup(cookie)]);
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    const secrets = results.filter((r) => r.statusCode === 201).map((r) => r.json().secret as string);
    expect(secrets.length).toBeGreaterThan(0);
    const userId = await userIdOf(email);
    const rows = await t.ctx.db.selectFrom('account_totp').select('secret_enc').where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
    expect(secrets).toContain(t.ctx.secrets.decrypt(rows[0]!.secret_enc, `account_totp:${userId}`));
  });

  it('generates the current code with its expiry (RFC 6238, equal to the secret’s code)', async () => {
    const cookie = await signInFresh(t.app, uniqueEmail('code'));
    const { secret } = (await setup(cookie)).json();
    const before = Date.now();
    const res = await current(cookie);
    const after = Date.now();
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({ code: expect.stringMatching(/^\d{6}$/), expiresAt: expect.any(String), timeRemaining: expect.any(Number), period: 30 });
    const account = { type: 'totp' as const, secret, algorithm: 'SHA1' as const, digits: 6, period: 30, counter: null };
    expect([generateCode(account, before), generateCode(account, after)]).toContain(body.code);
    const expires = new Date(body.expiresAt).getTime();
    expect(expires % 30_000).toBe(0);
    expect(expires).toBeGreaterThan(before);
    expect(expires - before).toBeLessThanOrEqual(30_000);
    expect(body.timeRemaining).toBeGreaterThanOrEqual(1);
    expect(body.timeRemaining).toBeLessThanOrEqual(30);
  });

  it('refuses bad bodies (400) and a foreign Origin (403)', async () => {
    const cookie = await signInFresh(t.app, uniqueEmail('bad'));
    for (const payload of [{ reset: 'yes' }, { reset: true, extra: 1 }, [1]]) {
      const res = await setup(cookie, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    const foreign = await call({ method: 'POST', url: '/api/user/setup-totp', cookie, headers: { origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('forbidden_origin');
    expect((await status(cookie)).json().configured).toBe(false);
  });

  it('rate-limits the code per user: 60 a minute, then 429 with Retry-After', async () => {
    const cookie = await signInFresh(t.app, uniqueEmail('limit'));
    await setup(cookie);
    for (let i = 0; i < 60; i++) expect((await current(cookie)).statusCode).toBe(200);
    const limited = await current(cookie);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another person is not affected.
    const other = await signInFresh(t.app, uniqueEmail('limit-other'));
    await setup(other);
    expect((await current(other)).statusCode).toBe(200);
  });

  it('hides the secret, codes and status from an administrator impersonating the user (403)', async () => {
    const email = uniqueEmail('imp');
    const cookie = await signInFresh(t.app, email);
    await setup(cookie);
    const userId = await userIdOf(email);
    await t.ctx.db.updateTable('session').set({ impersonatedBy: 'admin-user-id' }).where('userId', '=', userId).execute();
    for (const res of [await setup(cookie, { reset: true }), await current(cookie)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'impersonation_forbidden', message: expect.stringContaining('while impersonating a user') });
    }
    const refused = await status(cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/not available while impersonating/);
  });
});
