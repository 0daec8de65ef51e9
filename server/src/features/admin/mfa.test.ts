import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createContext } from '../../context';
import { ADMIN, get, oathtoolCode, operatorEnrolmentCode, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { runCli } from '../../cli';
import { MFA_VALIDITY_MS } from './mfa-service';

const expectError = (res: { statusCode: number; json: () => { error: { code: string } } }, status: number, code: string) => {
  expect(res.statusCode).toBe(status);
  expect(res.json().error.code).toBe(code);
};

describeEachDialect('admin MFA', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('is only for the administrator: 401 signed out, 403 for anyone else (also for a stored "admin" role)', async () => {
    expectError(await get(t.app, '/api/admin/mfa/status'), 401, 'unauthorized');
    const someone = await signIn(t.app, 'someone@example.com');
    await t.ctx.db.updateTable('user').set({ role: 'admin' }).where('email', '=', 'someone@example.com').execute();
    expectError(await get(t.app, '/api/admin/mfa/status', someone), 403, 'forbidden');
    expectError(await post(t.app, '/api/admin/mfa/setup', someone, {}), 403, 'forbidden');
    expectError(await post(t.app, '/api/admin/mfa/verify', someone, { totpCode: '123456' }), 403, 'forbidden');
  });

  describe('setup, confirm, verify', () => {
    let cookie: string;
    let secret: string;
    let recoveryCodes: string[];
    let confirmingCode: string;

    it('starts unconfigured', async () => {
      cookie = await signIn(t.app, ADMIN, 'Ada Admin');
      const status = await get(t.app, '/api/admin/mfa/status', cookie);
      expect(status.json()).toEqual({ email: ADMIN, mfaConfigured: false, mfaVerified: false, verifiedUntil: null, recoveryCodesLeft: 0 });
      expectError(await get(t.app, '/api/admin/users', cookie), 403, 'mfa_required');
    });

    it('shows a QR code and the secret, stored encrypted', async () => {
      const res = await post(t.app, '/api/admin/mfa/setup', cookie, { enrolmentCode: await operatorEnrolmentCode(t.app) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json();
      expect(body.qrCodeUrl).toMatch(/^data:image\/png;base64,/);
      expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(body.otpauthUri).toContain(`secret=${body.secret}`);
      secret = body.secret;
      const row = await t.ctx.db.selectFrom('admin_mfa').selectAll().executeTakeFirstOrThrow();
      expect(row.secret_enc).not.toContain(secret);
      expect(row.confirmed_at).toBeNull();
    });

    it('refuses a wrong first code and a malformed one', async () => {
      expectError(await post(t.app, '/api/admin/mfa/confirm', cookie, { totpCode: '000000' === oathtoolCode(secret) ? '111111' : '000000' }), 400, 'invalid_code');
      expectError(await post(t.app, '/api/admin/mfa/confirm', cookie, { totpCode: '12345' }), 400, 'validation_failed');
      expect((await get(t.app, '/api/admin/mfa/status', cookie)).json().mfaConfigured).toBe(false);
    });

    it('enables MFA with the first code from the authenticator (oathtool), verifies this session and shows 10 recovery codes once', async () => {
      confirmingCode = oathtoolCode(secret);
      const res = await post(t.app, '/api/admin/mfa/confirm', cookie, { totpCode: confirmingCode });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ mfaConfigured: true, mfaVerified: true });
      expect(body.recoveryCodes).toHaveLength(10);
      recoveryCodes = body.recoveryCodes;
      const stored = await t.ctx.db.selectFrom('admin_mfa_recovery_code').select('code_hash').execute();
      expect(stored.map((r) => r.code_hash)).not.toContain(recoveryCodes[0]);
      const status = (await get(t.app, '/api/admin/mfa/status', cookie)).json();
      expect(status).toMatchObject({ mfaConfigured: true, mfaVerified: true, recoveryCodesLeft: 10 });
      expect(Date.parse(status.verifiedUntil) - Date.now()).toBeGreaterThan(MFA_VALIDITY_MS - 60_000);
      expect((await get(t.app, '/api/admin/users', cookie)).statusCode).toBe(200);
      expectError(await post(t.app, '/api/admin/mfa/setup', cookie, { enrolmentCode: await operatorEnrolmentCode(t.app) }), 409, 'conflict');
    });

    it('verifies per session: a new sign-in needs its own code, and a used code cannot be used again', async () => {
      const other = await signIn(t.app, ADMIN, 'Ada Admin');
      expect((await get(t.app, '/api/admin/mfa/status', other)).json()).toMatchObject({ mfaConfigured: true, mfaVerified: false });
      expectError(await get(t.app, '/api/admin/users', other), 403, 'mfa_required');
      // The code that confirmed the setup was already used: a replay. (Its own value, not the
      // current step's, which differs once a 30-s boundary passes between the two tests.)
      expectError(await post(t.app, '/api/admin/mfa/verify', other, { totpCode: confirmingCode }), 400, 'invalid_code');
      const next = oathtoolCode(secret, new Date(Date.now() + 30_000));
      expect((await post(t.app, '/api/admin/mfa/verify', other, { totpCode: next })).statusCode).toBe(200);
      expect((await get(t.app, '/api/admin/users', other)).statusCode).toBe(200);
      const third = await signIn(t.app, ADMIN, 'Ada Admin');
      expectError(await post(t.app, '/api/admin/mfa/verify', third, { totpCode: next }), 400, 'invalid_code');
    });

    it('accepts a recovery code once', async () => {
      const session = await signIn(t.app, ADMIN, 'Ada Admin');
      expect((await post(t.app, '/api/admin/mfa/verify', session, { recoveryCode: recoveryCodes[0] })).statusCode).toBe(200);
      const again = await signIn(t.app, ADMIN, 'Ada Admin');
      expectError(await post(t.app, '/api/admin/mfa/verify', again, { recoveryCode: recoveryCodes[0] }), 400, 'invalid_code');
      expect((await get(t.app, '/api/admin/mfa/status', session)).json().recoveryCodesLeft).toBe(9);
    });

    it('lapses after 30 minutes: the guard answers mfa_required again', async () => {
      const session = await signIn(t.app, ADMIN, 'Ada Admin');
      expect((await post(t.app, '/api/admin/mfa/verify', session, { recoveryCode: recoveryCodes[1] })).statusCode).toBe(200);
      const sessionId = (await t.ctx.db.selectFrom('admin_mfa_session').select(['session_id', 'verified_at']).orderBy('verified_at', 'desc').executeTakeFirstOrThrow()).session_id;
      await t.ctx.db.updateTable('admin_mfa_session').set({ verified_at: new Date(Date.now() - 31 * 60_000) }).where('session_id', '=', sessionId).execute();
      expectError(await get(t.app, '/api/admin/users', session), 403, 'mfa_required');
      expect((await get(t.app, '/api/admin/mfa/status', session)).json()).toMatchObject({ mfaVerified: false, verifiedUntil: null });
    });

    it('refuses the 6th wrong code in 15 minutes, even after a restart and with the right code, and says when to retry', async () => {
      const session = await signIn(t.app, ADMIN, 'Ada Admin');
      const wrong = (at: Date) => (oathtoolCode(secret, at) === '123456' ? '654321' : '123456');
      // Earlier tests made one failed confirm and two failed verifies in this window.
      const already = (await t.ctx.db.selectFrom('admin_mfa_attempt').select('id').execute()).length;
      for (let i = already; i < 5; i++) expectError(await post(t.app, '/api/admin/mfa/verify', session, { totpCode: wrong(new Date()) }), 400, 'invalid_code');

      // A new process on the same database: the count is in the database, not in memory.
      const restarted = await buildApp(createContext(t.ctx.config));
      try {
        const sixth = await post(restarted, '/api/admin/mfa/verify', session, { totpCode: oathtoolCode(secret, new Date(Date.now() + 60_000)) });
        expectError(sixth, 429, 'too_many_attempts');
        expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
        expectError(await post(restarted, '/api/admin/mfa/verify', session, { recoveryCode: recoveryCodes[2] }), 429, 'too_many_attempts');
      } finally {
        await restarted.close();
      }
      const audit = await t.ctx.db.selectFrom('audit_log').select('action').where('action', '=', 'admin.mfa_failed').execute();
      expect(audit.length).toBeGreaterThanOrEqual(5);
    });
  });

  it('`admin:mfa-reset --yes` removes the MFA for an operator whose administrator lost the device (audited); without --yes it refuses', async () => {
    const db = t.ctx.config.database;
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: ADMIN,
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATABASE_URL: db.kind === 'postgres' ? db.url : `sqlite:${db.file}`,
    };
    const lines: string[] = [];
    const out = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };
    expect(await runCli(['admin:mfa-reset'], env, out)).toBe(64);
    expect(await t.ctx.db.selectFrom('admin_mfa').selectAll().execute()).toHaveLength(1);
    expect(await runCli(['admin:mfa-reset', '--yes'], env, out)).toBe(0);
    expect(lines.join('\n')).toContain(`MFA of ${ADMIN} removed`);
    expect(await t.ctx.db.selectFrom('admin_mfa').selectAll().execute()).toHaveLength(0);
    expect(await t.ctx.db.selectFrom('admin_mfa_session').selectAll().execute()).toHaveLength(0);
    const audit = await t.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'admin.mfa_reset').executeTakeFirstOrThrow();
    expect(audit.actor_label).toMatch(/^cli:/);
    const cookie = await signIn(t.app, ADMIN, 'Ada Admin');
    expect((await get(t.app, '/api/admin/mfa/status', cookie)).json()).toMatchObject({ mfaConfigured: false });
  });
});
