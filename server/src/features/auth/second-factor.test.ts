import { generateCode } from '@common/otpauth';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { get, oathtoolCode, post } from '../../../../test/support/admin';
import { ORIGIN, signInFresh, uniqueEmail } from '../../../../test/support/authenticator';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { impersonatingCookie } from '../../../../test/support/permissions';
import { buildApp } from '../../app';
import { runCli } from '../../cli';
import { createContext } from '../../context';
import { listAuditEntries } from '../audit/repo';
import { NOT_COOKIE_AUTHENTICATED } from './csrf';
import { SECOND_STEP_ROUTES } from './guards';

/**
 * Issue 19: the account TOTP as a second factor at sign-in. A confirmed TOTP makes every new
 * session half signed in until a code, a backup code (or a passkey, features/passkeys) completes it.
 */
const STEP_MS = 30_000;

interface Enrolled {
  email: string;
  userId: string;
  secret: string;
  backupCodes: string[];
  /** the session that set it up (complete) */
  cookie: string;
}

/** A code `steps` periods from now (the server accepts ±1 step). */
const codeAt = (secret: string, steps = 0) => generateCode({ type: 'totp', secret, algorithm: 'SHA1', digits: 6, period: 30, counter: null }, Date.now() + steps * STEP_MS);
/** A code that is certainly wrong now (not one of the three accepted). */
const wrongCode = (secret: string) => {
  const accepted = new Set([-1, 0, 1, 2].map((s) => codeAt(secret, s)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!accepted.has(candidate)) return candidate;
  }
};

function expectError(res: { statusCode: number; json(): { error: { code: string } } }, status: number, code: string) {
  expect({ status: res.statusCode, code: res.json().error?.code }).toEqual({ status, code });
}

describeEachDialect('second factor at sign-in', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const userIdOf = async (email: string) => (await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  /** Signs up, sets up and confirms the account TOTP with the current code. */
  async function enrol(prefix: string): Promise<Enrolled> {
    const email = uniqueEmail(prefix);
    const cookie = await signInFresh(t.app, email);
    const setup = await post(t.app, '/api/user/setup-totp', cookie);
    expect(setup.statusCode).toBe(201);
    const { secret, backupCodes } = setup.json();
    const confirmed = await post(t.app, '/api/user/confirm-totp', cookie, { code: oathtoolCode(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { email, userId: await userIdOf(email), secret, backupCodes, cookie };
  }

  it('a set-up TOTP is pending and protects nothing; the first code makes it configured, and then sign-in asks for it', async () => {
    const email = uniqueEmail('pending');
    const cookie = await signInFresh(t.app, email);
    const { secret } = (await post(t.app, '/api/user/setup-totp', cookie)).json();
    expect((await get(t.app, '/api/user/totp-status', cookie)).json()).toEqual({ configured: false, pending: true, email, protectedSince: null, lastUsedAt: null, backupCodesLeft: 10 });
    // Pending: a new sign-in is complete at once, and the page may show the code to compare.
    const again = await signInFresh(t.app, email);
    expect((await get(t.app, '/api/auth/user', again)).statusCode).toBe(200);
    expect((await get(t.app, '/api/user/generate-totp', cookie)).json().code).toMatch(/^\d{6}$/);
    // A second setup while pending replaces the secret (the first was perhaps never scanned).
    const replaced = (await post(t.app, '/api/user/setup-totp', cookie)).json();
    expect(replaced.secret).not.toBe(secret);

    expectError(await post(t.app, '/api/user/confirm-totp', cookie, { code: wrongCode(replaced.secret) }), 400, 'invalid_code');
    expectError(await post(t.app, '/api/user/confirm-totp', cookie, { code: oathtoolCode(secret) === oathtoolCode(replaced.secret) ? wrongCode(replaced.secret) : oathtoolCode(secret) }), 400, 'invalid_code');
    const confirmed = await post(t.app, '/api/user/confirm-totp', cookie, { code: oathtoolCode(replaced.secret) });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({
      status: { configured: true, pending: false, email, protectedSince: expect.any(String), lastUsedAt: null, backupCodesLeft: 10 },
      otherSessionsSignedOut: 1, // the second sign-in above
    });
    expect((await get(t.app, '/api/auth/user', again)).statusCode).toBe(401);
    // Configured: the live code is never shown again, and setup is refused.
    expectError(await get(t.app, '/api/user/generate-totp', cookie), 409, 'conflict');
    expectError(await post(t.app, '/api/user/setup-totp', cookie, { reset: true }), 409, 'conflict');
    expectError(await post(t.app, '/api/user/confirm-totp', cookie, { code: oathtoolCode(replaced.secret) }), 409, 'conflict');

    const half = await signInFresh(t.app, email);
    expectError(await get(t.app, '/api/auth/user', half), 401, 'second_factor_required');
    const userId = await userIdOf(email);
    const actions = (await listAuditEntries(t.ctx.db, { subjectId: userId })).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['account_totp.setup', 'account_totp.reset', 'account_totp.enabled', 'auth.sessions_revoked', 'account_totp.code_failed']));
  });

  it('completes the sign-in with the code from the phone; the session then reaches everything', async () => {
    const me = await enrol('by-code');
    const half = await signInFresh(t.app, me.email);
    expectError(await get(t.app, '/api/auth/user', half), 401, 'second_factor_required');
    expectError(await get(t.app, '/api/user/totp-status', half), 401, 'second_factor_required');
    expectError(await post(t.app, '/api/auth/second-factor', half, { code: wrongCode(me.secret) }), 400, 'invalid_code');
    // The confirm used this step's code: the next step's code (within ±1) completes the sign-in.
    const done = await post(t.app, '/api/auth/second-factor', half, { code: codeAt(me.secret, 1) });
    expect(done.statusCode, done.body).toBe(204);
    const user = await get(t.app, '/api/auth/user', half);
    expect(user.statusCode).toBe(200);
    expect(user.json().email).toBe(me.email);
    const status = (await get(t.app, '/api/user/totp-status', half)).json();
    expect(status.lastUsedAt).toEqual(expect.any(String));
    expectError(await post(t.app, '/api/auth/second-factor', half, { code: codeAt(me.secret, 1) }), 409, 'conflict');
    const completed = (await listAuditEntries(t.ctx.db, { subjectId: me.userId })).filter((a) => a.action === 'auth.second_factor_completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.details).toMatchObject({ via: 'totp' });
  });

  it('a backup code completes a sign-in once; the same code at the next sign-in is refused', async () => {
    const me = await enrol('by-backup');
    const first = await signInFresh(t.app, me.email);
    expect((await post(t.app, '/api/auth/second-factor', first, { backupCode: me.backupCodes[3]!.toUpperCase() })).statusCode).toBe(204);
    expect((await get(t.app, '/api/auth/user', first)).statusCode).toBe(200);
    expect((await get(t.app, '/api/user/totp-status', first)).json().backupCodesLeft).toBe(9);

    const second = await signInFresh(t.app, me.email);
    expectError(await post(t.app, '/api/auth/second-factor', second, { backupCode: me.backupCodes[3] }), 400, 'invalid_code');
    expectError(await get(t.app, '/api/auth/user', second), 401, 'second_factor_required');
    expect((await post(t.app, '/api/auth/second-factor', second, { backupCode: me.backupCodes[4] })).statusCode).toBe(204);
    expect((await get(t.app, '/api/user/totp-status', second)).json().backupCodesLeft).toBe(8);
    // Stored only as keyed hashes.
    const rows = await t.ctx.db.selectFrom('account_totp_backup_code').select('code_hash').where('user_id', '=', me.userId).execute();
    for (const code of me.backupCodes) expect(JSON.stringify(rows)).not.toContain(code.replace('-', ''));
  });

  it('refuses a code already used by another sign-in in its step (RFC 6238 §5.2: replayed)', async () => {
    const me = await enrol('replay');
    const code = codeAt(me.secret, 1);
    const one = await signInFresh(t.app, me.email);
    expect((await post(t.app, '/api/auth/second-factor', one, { code })).statusCode).toBe(204);
    const two = await signInFresh(t.app, me.email);
    expectError(await post(t.app, '/api/auth/second-factor', two, { code }), 400, 'replayed');
    expectError(await get(t.app, '/api/auth/user', two), 401, 'second_factor_required');
    // An older code (the confirm's step) is a replay too.
    expectError(await post(t.app, '/api/auth/second-factor', two, { code: codeAt(me.secret, 0) }), 400, 'replayed');
  });

  it('refuses the 6th wrong code in 15 minutes with 429 and Retry-After, even after a restart and with the right code', async () => {
    const me = await enrol('limit');
    const half = await signInFresh(t.app, me.email);
    for (let i = 0; i < 5; i++) expectError(await post(t.app, '/api/auth/second-factor', half, { code: wrongCode(me.secret) }), 400, 'invalid_code');

    // A new process on the same database: the count is in the database, not in memory.
    const restarted = await buildApp(createContext(t.ctx.config));
    try {
      const sixth = await post(restarted, '/api/auth/second-factor', half, { code: codeAt(me.secret, 1) });
      expectError(sixth, 429, 'too_many_attempts');
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      expectError(await post(restarted, '/api/auth/second-factor', half, { backupCode: me.backupCodes[0] }), 429, 'too_many_attempts');
      // The limit is the account's: the page's own checks are refused too, and nothing was spent.
      expectError(await post(restarted, '/api/user/check-totp', me.cookie, { code: codeAt(me.secret) }), 429, 'too_many_attempts');
    } finally {
      await restarted.close();
    }
    expect((await get(t.app, '/api/user/totp-status', me.cookie)).json().backupCodesLeft).toBe(10);
    // Another person is not affected.
    const other = await enrol('limit-other');
    expect((await post(t.app, '/api/auth/second-factor', await signInFresh(t.app, other.email), { code: codeAt(other.secret, 1) })).statusCode).toBe(204);
  });

  it('"check my authenticator" says whether the code matches without signing in or spending it', async () => {
    const me = await enrol('check');
    expect((await post(t.app, '/api/user/check-totp', me.cookie, { code: codeAt(me.secret, 1) })).json()).toEqual({ matches: true });
    expect((await post(t.app, '/api/user/check-totp', me.cookie, { code: wrongCode(me.secret) })).json()).toEqual({ matches: false });
    expect((await get(t.app, '/api/user/totp-status', me.cookie)).json().lastUsedAt).toBeNull();
    // The checked code is still good for a sign-in.
    expect((await post(t.app, '/api/auth/second-factor', await signInFresh(t.app, me.email), { code: codeAt(me.secret, 1) })).statusCode).toBe(204);
  });

  it('new backup codes and turning off need a current code or a backup code, and sign out every other session', async () => {
    const me = await enrol('manage');
    const other = await signInFresh(t.app, me.email);
    expect((await post(t.app, '/api/auth/second-factor', other, { backupCode: me.backupCodes[0] })).statusCode).toBe(204);

    expectError(await post(t.app, '/api/user/totp-backup-codes', me.cookie, {}), 400, 'validation_failed');
    expectError(await post(t.app, '/api/user/totp-backup-codes', me.cookie, { code: wrongCode(me.secret) }), 400, 'invalid_code');
    const fresh = await post(t.app, '/api/user/totp-backup-codes', me.cookie, { backupCode: me.backupCodes[1] });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['cache-control']).toBe('no-store');
    expect(fresh.json()).toEqual({ backupCodes: expect.any(Array), otherSessionsSignedOut: 1 });
    const { backupCodes } = fresh.json();
    expect(backupCodes).toHaveLength(10);
    expect((await get(t.app, '/api/auth/user', other)).statusCode).toBe(401);
    expect((await get(t.app, '/api/user/totp-status', me.cookie)).json().backupCodesLeft).toBe(10);
    // The old codes stopped working.
    expectError(await post(t.app, '/api/auth/second-factor', await signInFresh(t.app, me.email), { backupCode: me.backupCodes[2] }), 400, 'invalid_code');

    const third = await signInFresh(t.app, me.email);
    expect((await post(t.app, '/api/auth/second-factor', third, { backupCode: backupCodes[0] })).statusCode).toBe(204);
    expectError(await post(t.app, '/api/user/disable-totp', me.cookie, {}), 400, 'validation_failed');
    const off = await post(t.app, '/api/user/disable-totp', me.cookie, { code: codeAt(me.secret, 1) });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ status: { configured: false, pending: false, email: me.email, protectedSince: null, lastUsedAt: null, backupCodesLeft: 0 }, otherSessionsSignedOut: 2 });
    expect((await get(t.app, '/api/auth/user', third)).statusCode).toBe(401);
    // Off: the next sign-in is complete at once.
    expect((await get(t.app, '/api/auth/user', await signInFresh(t.app, me.email))).statusCode).toBe(200);
    const actions = (await listAuditEntries(t.ctx.db, { subjectId: me.userId })).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['account_totp.backup_codes_regenerated', 'account_totp.disabled']));
    expect(actions.filter((a) => a === 'auth.sessions_revoked').length).toBeGreaterThanOrEqual(3);
  });

  it('a pending setup is cancelled without a code', async () => {
    const cookie = await signInFresh(t.app, uniqueEmail('cancel'));
    await post(t.app, '/api/user/setup-totp', cookie);
    const res = await post(t.app, '/api/user/disable-totp', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toMatchObject({ configured: false, pending: false });
  });

  it('lists the signed-in devices and signs out one, or all others (own sessions only)', async () => {
    const email = uniqueEmail('devices');
    const phone = await signInAs(t.app, email, 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36');
    const laptop = await signInAs(t.app, email, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15');
    const desktop = await signInAs(t.app, email, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0');
    const list = await get(t.app, '/api/user/sessions', laptop);
    expect(list.statusCode).toBe(200);
    const sessions = list.json().sessions as Array<Record<string, unknown>>;
    expect(sessions).toHaveLength(3);
    expect(sessions.map((s) => `${s.browser} on ${s.os}${s.current ? ' (this device)' : ''}`).sort()).toEqual([
      'Chrome 131 on Android 14',
      'Firefox 133 on Windows',
      'Safari 18 on macOS (this device)',
    ]);
    for (const s of sessions) expect(s).toMatchObject({ id: expect.any(String), ipAddress: expect.stringMatching(/^10\.77\./), signedInAt: expect.any(String), lastSeenAt: expect.any(String), secondFactorPending: false });

    const phoneId = sessions.find((s) => s.os === 'Android 14')!.id as string;
    const laptopId = sessions.find((s) => s.current)!.id as string;
    expectError(await del(t.app, `/api/user/sessions/${laptopId}`, laptop), 409, 'conflict');
    // Someone else cannot end my sessions: 404, as for an id that does not exist.
    const stranger = await signInFresh(t.app, uniqueEmail('stranger'));
    expectError(await del(t.app, `/api/user/sessions/${phoneId}`, stranger), 404, 'not_found');
    expect((await del(t.app, `/api/user/sessions/${phoneId}`, laptop)).statusCode).toBe(204);
    expect((await get(t.app, '/api/auth/user', phone)).statusCode).toBe(401);
    expect((await get(t.app, '/api/auth/user', desktop)).statusCode).toBe(200);

    const others = await post(t.app, '/api/user/sessions/revoke-others', laptop);
    expect(others.json()).toEqual({ signedOut: 1 });
    expect((await get(t.app, '/api/auth/user', desktop)).statusCode).toBe(401);
    expect((await get(t.app, '/api/user/sessions', laptop)).json().sessions).toHaveLength(1);
    const actions = (await listAuditEntries(t.ctx.db, { subjectId: await userIdOf(email) })).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['auth.session_revoked', 'auth.sessions_revoked']));
  });

  it('`user:2fa-reset <email> --yes` turns the TOTP off, signs out every session, audits and leaves a notice', async () => {
    const me = await enrol('lost-phone');
    const half = await signInFresh(t.app, me.email);
    const db = t.ctx.config.database;
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: t.ctx.config.adminEmail,
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATABASE_URL: db.kind === 'postgres' ? db.url : `sqlite:${db.file}`,
    };
    const lines: string[] = [];
    const out = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };
    expect(await runCli(['user:2fa-reset', me.email], env, out)).toBe(64);
    expect(lines.join('\n')).toContain('--yes');
    expect(await runCli(['user:2fa-reset', 'nobody@example.com', '--yes'], env, out)).toBe(64);
    expect((await get(t.app, '/api/user/totp-status', me.cookie)).json().configured).toBe(true);

    expect(await runCli(['user:2fa-reset', me.email, '--yes'], env, out)).toBe(0);
    expect(lines.at(-1)).toContain(`Account TOTP of ${me.email} turned off; 2 session(s) signed out`);
    expect((await get(t.app, '/api/auth/user', me.cookie)).statusCode).toBe(401);
    expect((await get(t.app, '/api/auth/user', half)).statusCode).toBe(401);
    const fresh = await signInFresh(t.app, me.email);
    expect((await get(t.app, '/api/auth/user', fresh)).statusCode).toBe(200);
    expect((await get(t.app, '/api/user/totp-status', fresh)).json()).toMatchObject({ configured: false, pending: false });
    const notices = (await get(t.app, '/api/user/notices', fresh)).json().notices;
    expect(notices).toEqual([expect.objectContaining({ kind: 'account_totp_reset', message: expect.stringContaining('turned off your account TOTP') })]);
    const audit = (await listAuditEntries(t.ctx.db, { subjectId: me.userId })).find((a) => a.action === 'account_totp.operator_reset');
    expect(audit?.actorLabel).toMatch(/^cli:/);
  });

  it('an impersonating administrator is never asked for the user’s second factor, and is refused every route of it (403)', async () => {
    const me = await enrol('impersonated');
    const cookie = await impersonatingCookie(t, me.userId);
    const user = await get(t.app, '/api/auth/user', cookie);
    expect(user.statusCode).toBe(200);
    expect(user.json().email).toBe(me.email);
    const routes: Array<[string, string, object?]> = [
      ['GET', '/api/user/totp-status'],
      ['POST', '/api/user/setup-totp', {}],
      ['GET', '/api/user/generate-totp'],
      ['POST', '/api/user/confirm-totp', { code: codeAt(me.secret, 1) }],
      ['POST', '/api/user/check-totp', { code: codeAt(me.secret, 1) }],
      ['POST', '/api/user/totp-backup-codes', { backupCode: me.backupCodes[0] }],
      ['POST', '/api/user/disable-totp', { backupCode: me.backupCodes[0] }],
      ['GET', '/api/user/sessions'],
      ['DELETE', '/api/user/sessions/x_missing'],
      ['POST', '/api/user/sessions/revoke-others', {}],
      ['POST', '/api/auth/second-factor', { code: codeAt(me.secret, 1) }],
    ];
    for (const [method, url, payload] of routes) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: { cookie, ...ORIGIN }, ...(payload ? { payload } : {}) } as InjectOptions);
      expect({ url, status: res.statusCode, code: res.json().error?.code }).toEqual({ url, status: 403, code: 'impersonation_forbidden' });
    }
    expect((await get(t.app, '/api/user/totp-status', me.cookie)).json()).toMatchObject({ configured: true, backupCodesLeft: 10 });
  });
});

describeEachDialect('a half-signed-in session, on every route the server registers', (dialect) => {
  let t: TestApp;
  let half: string;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const email = uniqueEmail('every-route');
    const cookie = await signInFresh(t.app, email);
    secret = (await post(t.app, '/api/user/setup-totp', cookie)).json().secret;
    expect((await post(t.app, '/api/user/confirm-totp', cookie, { code: oathtoolCode(secret) })).statusCode).toBe(200);
    half = await signInFresh(t.app, email);
  });
  afterAll(async () => t?.close());

  it('answers 401 second_factor_required on every cookie route but the second step and sign-out; public routes answer as to a visitor', async () => {
    // Read from the route table, as the permission matrix is: a route added later is covered.
    const routes = [...new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`))].filter((r) => !SECOND_STEP_ROUTES.has(r));
    const failures: string[] = [];
    let refused = 0;
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace(/:[A-Za-z_]+/g, 'x_missing');
      const send = (cookie?: string) =>
        t.app.inject({ method: method as 'GET', url, headers: { 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) }, ...(['GET', 'DELETE'].includes(method) ? {} : { payload: {} }) });
      const [visitor, halfSignedIn] = [await send(), await send(half)];
      const cookieRoute = path.startsWith('/api/') && !NOT_COOKIE_AUTHENTICATED.some((re) => re.test(path));
      const code = halfSignedIn.headers['content-type']?.toString().includes('json') ? halfSignedIn.json()?.error?.code : undefined;
      if (halfSignedIn.statusCode === 401 && code === 'second_factor_required') {
        refused++;
        continue;
      }
      // Anything a visitor is refused for want of a session, a half session is refused too.
      if (cookieRoute && visitor.statusCode === 401) failures.push(`${route}: ${halfSignedIn.statusCode} ${halfSignedIn.body.slice(0, 80)}`);
      // A public route must not give a half session more than it gives a visitor.
      else if (halfSignedIn.statusCode !== visitor.statusCode) failures.push(`${route}: visitor ${visitor.statusCode}, half-signed-in ${halfSignedIn.statusCode}`);
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(50);
  });

  it('lets the half session reach the second step and sign out', async () => {
    expectError(await post(t.app, '/api/auth/second-factor', half, { code: wrongCode(secret) }), 400, 'invalid_code');
    const out = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie: half, 'sec-fetch-site': 'same-origin' } });
    expect(out.statusCode).toBe(302);
    expect(out.cookies.find((c) => c.name.endsWith('session_token'))?.value).toBe('');
    expectError(await get(t.app, '/api/auth/user', half), 401, 'unauthorized');
  });
});

let address = 0;
/** A sign-in from a named browser. */
async function signInAs(app: FastifyInstance, email: string, userAgent: string): Promise<string> {
  address += 1;
  const res = await app.inject({
    method: 'POST',
    url: '/api/login/local',
    remoteAddress: `10.77.200.${address}`,
    payload: new URLSearchParams({ email, name: 'Test User' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', 'user-agent': userAgent },
  });
  if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

function del(app: FastifyInstance, url: string, cookie: string) {
  return app.inject({ method: 'DELETE', url, headers: { cookie, ...ORIGIN } });
}
