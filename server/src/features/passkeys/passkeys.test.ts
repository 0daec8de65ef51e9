import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminWithFreshMfa, get, oathtoolCode, ORIGIN, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { SoftAuthenticator } from '../../../../test/support/webauthn';
import { buildApp } from '../../app';
import { createContext } from '../../context';
import { CEREMONY_COOKIE } from './service';

const RP_ID = new URL(ORIGIN).hostname;

/** The cookies a response sets (name=value), merged over an existing Cookie header. */
function withCookies(cookie: string | undefined, res: LightMyRequestResponse): string {
  const jar = new Map<string, string>();
  for (const part of (cookie ?? '').split('; ').filter(Boolean)) jar.set(part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1));
  for (const c of res.cookies) {
    if (c.value === '' || c.maxAge === 0) jar.delete(c.name);
    else jar.set(c.name, c.value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

function patch(t: TestApp, url: string, cookie: string, payload: object) {
  return t.app.inject({ method: 'PATCH', url, headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', cookie }, payload });
}
function del(t: TestApp, url: string, cookie: string) {
  return t.app.inject({ method: 'DELETE', url, headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', cookie } });
}

/** Registers a passkey from `authenticator` for the signed-in `cookie`; answers the POST's response. */
async function addPasskey(t: TestApp, cookie: string, authenticator: SoftAuthenticator, name = 'My phone', tweaks = {}) {
  const options = await post(t.app, '/api/user/passkeys/registration-options', cookie, {});
  expect(options.statusCode, options.body).toBe(200);
  const response = await authenticator.register(options.json(), tweaks);
  return post(t.app, '/api/user/passkeys', cookie, { name, response });
}

/** A signed-out passkey sign-in: options (ceremony cookie), the authenticator's assertion, verify. */
async function passkeySignIn(t: TestApp, authenticator: SoftAuthenticator, tweaks = {}) {
  const options = await post(t.app, '/api/auth/passkey/options', undefined, {});
  expect(options.statusCode, options.body).toBe(200);
  const ceremony = withCookies(undefined, options);
  const response = await authenticator.assert(options.json(), tweaks);
  const verify = await post(t.app, '/api/auth/passkey/verify', ceremony, { response });
  return { options, ceremony, response, verify };
}

async function sessionCount(t: TestApp, email: string): Promise<number> {
  const user = await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  const rows = await t.ctx.db.selectFrom('session').select('id').where('userId', '=', user.id).execute();
  return rows.length;
}

describeEachDialect('passkeys', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const newAuthenticator = (prf = true) => new SoftAuthenticator(ORIGIN, RP_ID, prf);

  describe('registration', () => {
    it('asks for a discoverable credential with user verification and the PRF extension', async () => {
      const cookie = await signIn(t.app, 'reg-options@example.com');
      const res = await post(t.app, '/api/user/passkeys/registration-options', cookie, {});
      expect(res.statusCode).toBe(200);
      const options = res.json();
      expect(options.rp.id).toBe(RP_ID);
      expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
      expect(options.extensions).toMatchObject({ prf: {} });
      expect(options.user.name).toBe('reg-options@example.com');
    });

    it('stores a verified passkey with its name, and whether the authenticator reported PRF', async () => {
      const cookie = await signIn(t.app, 'reg@example.com');
      const added = await addPasskey(t, cookie, newAuthenticator(true), 'Pixel 9');
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json().passkey).toMatchObject({ name: 'Pixel 9', prfSupported: true, deviceType: 'multiDevice', backedUp: true, lastUsedAt: null });
      const withoutPrf = await addPasskey(t, cookie, newAuthenticator(false), 'Old key');
      expect(withoutPrf.statusCode, withoutPrf.body).toBe(201);

      const list = await get(t.app, '/api/user/passkeys', cookie);
      expect(list.json().passkeys.map((p: { name: string; prfSupported: boolean }) => [p.name, p.prfSupported])).toEqual([
        ['Pixel 9', true],
        ['Old key', false],
      ]);
      // What a stolen database gives: public keys, never a private one.
      const row = await t.ctx.db.selectFrom('passkey').selectAll().where('name', '=', 'Pixel 9').executeTakeFirstOrThrow();
      expect(Buffer.from(row.public_key, 'base64url').length).toBeLessThan(100);
    });

    it('refuses a registration without user verification, from another origin, or with a used challenge', async () => {
      const cookie = await signIn(t.app, 'reg-refused@example.com');
      const noUv = await addPasskey(t, cookie, newAuthenticator(), 'x', { userVerified: false });
      expect(noUv.statusCode).toBe(400);
      expect(noUv.json().error.code).toBe('passkey_rejected');
      const phished = await addPasskey(t, cookie, newAuthenticator(), 'x', { origin: 'https://sixdigit.example.evil' });
      expect(phished.statusCode).toBe(400);

      const authenticator = newAuthenticator();
      const options = await post(t.app, '/api/user/passkeys/registration-options', cookie, {});
      const response = await authenticator.register(options.json());
      expect((await post(t.app, '/api/user/passkeys', cookie, { name: 'first', response })).statusCode).toBe(201);
      const again = await post(t.app, '/api/user/passkeys', cookie, { name: 'second', response });
      expect(again.statusCode).toBe(400);
      expect(again.json().error.code).toBe('passkey_rejected');
    });

    it("refuses a registration ceremony begun by another person's session", async () => {
      const mallory = await signIn(t.app, 'reg-mallory@example.com');
      const victim = await signIn(t.app, 'reg-victim@example.com');
      const options = await post(t.app, '/api/user/passkeys/registration-options', mallory, {});
      const response = await newAuthenticator().register(options.json());
      const res = await post(t.app, '/api/user/passkeys', victim, { name: 'planted', response });
      expect(res.statusCode).toBe(400);
      expect((await get(t.app, '/api/user/passkeys', victim)).json().passkeys).toEqual([]);
    });
  });

  describe('adding or removing a passkey ends every other session', () => {
    it('keeps this session and ends the others, on add and on delete, and audits both', async () => {
      const email = 'revoke@example.com';
      const here = await signIn(t.app, email);
      const other = await signIn(t.app, email);
      const added = await addPasskey(t, here, newAuthenticator());
      expect(added.json().otherSessionsEnded).toBe(1);
      expect((await get(t.app, '/api/auth/user', other)).statusCode).toBe(401);
      expect((await get(t.app, '/api/auth/user', here)).statusCode).toBe(200);

      const third = await signIn(t.app, email);
      const removed = await del(t, `/api/user/passkeys/${added.json().passkey.id}`, here);
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().otherSessionsEnded).toBe(1);
      expect((await get(t.app, '/api/auth/user', third)).statusCode).toBe(401);
      expect(await sessionCount(t, email)).toBe(1);

      const actions = await t.ctx.db.selectFrom('audit_log').select('action').where('actor_label', '=', email).execute();
      expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['passkey.added', 'passkey.removed']));
    });
  });

  describe('a recent sign-in', () => {
    it('is needed to add or delete a passkey (an old stolen session cookie cannot plant or remove one)', async () => {
      const cookie = await signIn(t.app, 'stale@example.com');
      const { passkey } = (await addPasskey(t, cookie, newAuthenticator())).json();
      const user = await t.ctx.db.selectFrom('user').select('id').where('email', '=', 'stale@example.com').executeTakeFirstOrThrow();
      await t.ctx.db.updateTable('session').set({ createdAt: new Date(Date.now() - 16 * 60 * 1000) }).where('userId', '=', user.id).execute();

      const options = await post(t.app, '/api/user/passkeys/registration-options', cookie, {});
      expect(options.statusCode).toBe(403);
      expect(options.json().error.code).toBe('reauthentication_required');
      const removal = await del(t, `/api/user/passkeys/${passkey.id}`, cookie);
      expect(removal.statusCode).toBe(403);
      expect(removal.json().error.code).toBe('reauthentication_required');
      expect((await get(t.app, '/api/user/passkeys', cookie)).json().passkeys).toHaveLength(1);
      // Renaming changes no way in: allowed.
      expect((await patch(t, `/api/user/passkeys/${passkey.id}`, cookie, { name: 'Renamed' })).statusCode).toBe(200);
    });
  });

  describe('rename and delete', () => {
    it("renames and deletes one's own passkey; another person's is 404", async () => {
      const owner = await signIn(t.app, 'rename@example.com');
      const stranger = await signIn(t.app, 'rename-stranger@example.com');
      const authenticator = newAuthenticator();
      const { passkey } = (await addPasskey(t, owner, authenticator, 'Laptop')).json();

      expect((await patch(t, `/api/user/passkeys/${passkey.id}`, stranger, { name: 'mine now' })).statusCode).toBe(404);
      expect((await del(t, `/api/user/passkeys/${passkey.id}`, stranger)).statusCode).toBe(404);
      expect((await patch(t, `/api/user/passkeys/${passkey.id}`, owner, { name: '  ' })).statusCode).toBe(400);
      const renamed = await patch(t, `/api/user/passkeys/${passkey.id}`, owner, { name: 'Work laptop' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().name).toBe('Work laptop');

      expect((await del(t, `/api/user/passkeys/${passkey.id}`, owner)).statusCode).toBe(200);
      expect((await get(t.app, '/api/user/passkeys', owner)).json().passkeys).toEqual([]);
      // A deleted passkey signs nobody in.
      const { verify } = await passkeySignIn(t, authenticator);
      expect(verify.statusCode).toBe(400);
      expect(verify.json().error.code).toBe('passkey_rejected');
    });
  });

  describe('signing in with a passkey', () => {
    it('offers every passkey (discoverable), then starts a full session whose cookie works', async () => {
      const email = 'signin@example.com';
      const cookie = await signIn(t.app, email, 'Sam Passkey');
      const authenticator = newAuthenticator();
      await addPasskey(t, cookie, authenticator);

      const { options, verify } = await passkeySignIn(t, authenticator);
      expect(options.json().allowCredentials ?? []).toEqual([]);
      expect(options.json().userVerification).toBe('required');
      expect(options.cookies.find((c) => c.name === CEREMONY_COOKIE)).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth/passkey' });
      expect(verify.statusCode, verify.body).toBe(200);
      expect(verify.json()).toEqual({ signedIn: true, secondStep: false });

      const session = withCookies(undefined, verify);
      expect(session).toMatch(/session_token=/);
      expect(session).toMatch(/sixdigit_session_hint=1/);
      const me = await get(t.app, '/api/auth/user', session);
      expect(me.statusCode).toBe(200);
      expect(me.json().email).toBe(email);

      const [stored] = (await get(t.app, '/api/user/passkeys', session)).json().passkeys;
      expect(stored.lastUsedAt).not.toBeNull();
      const audit = await t.ctx.db.selectFrom('passkey').select('counter').where('credential_id', '=', authenticator.id).executeTakeFirstOrThrow();
      expect(Number(audit.counter)).toBe(authenticator.counter);
    });

    it('refuses an assertion without user verification, and starts no session', async () => {
      const cookie = await signIn(t.app, 'no-uv@example.com');
      const authenticator = newAuthenticator();
      await addPasskey(t, cookie, authenticator);
      const before = await sessionCount(t, 'no-uv@example.com');
      const { verify } = await passkeySignIn(t, authenticator, { userVerified: false });
      expect(verify.statusCode).toBe(400);
      expect(verify.json().error.code).toBe('passkey_rejected');
      expect(verify.cookies.some((c) => c.name.includes('session_token') && c.value)).toBe(false);
      expect(await sessionCount(t, 'no-uv@example.com')).toBe(before);
    });

    it('refuses a replayed assertion (its challenge is used up)', async () => {
      const cookie = await signIn(t.app, 'replay@example.com');
      const authenticator = newAuthenticator();
      await addPasskey(t, cookie, authenticator);
      const first = await passkeySignIn(t, authenticator);
      expect(first.verify.statusCode).toBe(200);
      const replay = await post(t.app, '/api/auth/passkey/verify', first.ceremony, { response: first.response });
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error.code).toBe('passkey_rejected');
    });

    it('refuses a challenge from another browser (ceremony cookie), a missing cookie, and an expired challenge', async () => {
      const cookie = await signIn(t.app, 'ceremony@example.com');
      const authenticator = newAuthenticator();
      await addPasskey(t, cookie, authenticator);

      const theirs = await post(t.app, '/api/auth/passkey/options', undefined, {});
      const mine = await post(t.app, '/api/auth/passkey/options', undefined, {});
      const response = await authenticator.assert(theirs.json());
      expect((await post(t.app, '/api/auth/passkey/verify', withCookies(undefined, mine), { response })).statusCode).toBe(400);
      expect((await post(t.app, '/api/auth/passkey/verify', undefined, { response: await authenticator.assert(theirs.json()) })).statusCode).toBe(400);

      const late = await post(t.app, '/api/auth/passkey/options', undefined, {});
      await t.ctx.db.updateTable('webauthn_challenge').set({ expires_at: new Date(Date.now() - 1000) }).where('challenge', '=', late.json().challenge).execute();
      const expired = await post(t.app, '/api/auth/passkey/verify', withCookies(undefined, late), { response: await authenticator.assert(late.json()) });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().error.message).toMatch(/expired or was already used/);
    });

    it('refuses a counter that did not go up (a cloned authenticator), and accepts the next one', async () => {
      const cookie = await signIn(t.app, 'counter@example.com');
      const authenticator = newAuthenticator();
      await addPasskey(t, cookie, authenticator);
      expect((await passkeySignIn(t, authenticator)).verify.statusCode).toBe(200);
      expect((await passkeySignIn(t, authenticator)).verify.statusCode).toBe(200);
      const stored = authenticator.counter;
      const clone = await passkeySignIn(t, authenticator, { counter: stored - 1 });
      expect(clone.verify.statusCode).toBe(400);
      const same = await passkeySignIn(t, authenticator, { counter: stored });
      expect(same.verify.statusCode).toBe(400);
      expect((await passkeySignIn(t, authenticator)).verify.statusCode).toBe(200);
    });

    it('finishes on another instance a ceremony begun on this one (the challenge lives in the database)', async () => {
      const cookie = await signIn(t.app, 'two-instances@example.com');
      const authenticator = newAuthenticator();
      await addPasskey(t, cookie, authenticator);
      // A second server over the same database: its own connections, nothing shared in memory.
      const other = createContext(t.ctx.config);
      const appB = await buildApp(other);
      try {
        const options = await post(t.app, '/api/auth/passkey/options', undefined, {});
        const verify = await post(appB, '/api/auth/passkey/verify', withCookies(undefined, options), { response: await authenticator.assert(options.json()) });
        expect(verify.statusCode, verify.body).toBe(200);
        expect((await get(t.app, '/api/auth/user', withCookies(undefined, verify))).statusCode).toBe(200);
      } finally {
        await appB.close();
      }
    });

    it('refuses an assertion made for another site (phishing origin)', async () => {
      const cookie = await signIn(t.app, 'phish@example.com');
      const authenticator = newAuthenticator();
      await addPasskey(t, cookie, authenticator);
      const { verify } = await passkeySignIn(t, authenticator, { origin: 'https://sixd1git.example' });
      expect(verify.statusCode).toBe(400);
    });
  });

  it('is offered on the sign-in page, keeping where to come back to', async () => {
    const res = await get(t.app, '/api/login?returnTo=%2Fbusiness');
    expect(res.body).toContain('href="/sign-in/passkey?returnTo=%2Fbusiness">Sign in with a passkey</a>');
  });

  describe('the second step of an existing session', () => {
    it("completes with the session's own passkey, and refuses another person's", async () => {
      const alice = await signIn(t.app, 'second-alice@example.com');
      const bob = await signIn(t.app, 'second-bob@example.com');
      const alicesKey = newAuthenticator();
      const bobsKey = newAuthenticator();
      await addPasskey(t, alice, alicesKey);
      await addPasskey(t, bob, bobsKey);

      const options = await post(t.app, '/api/auth/passkey/options', bob, {});
      expect(options.statusCode).toBe(200);
      // The person is known: only their passkeys are offered, and no ceremony cookie is needed.
      expect(options.json().allowCredentials.map((c: { id: string }) => c.id)).toEqual([bobsKey.id]);
      expect(options.cookies.find((c) => c.name === CEREMONY_COOKIE)).toBeUndefined();

      const wrong = await post(t.app, '/api/auth/passkey/verify', bob, { response: await alicesKey.assert(options.json()) });
      expect(wrong.statusCode).toBe(403);

      const again = await post(t.app, '/api/auth/passkey/options', bob, {});
      const right = await post(t.app, '/api/auth/passkey/verify', bob, { response: await bobsKey.assert(again.json()) });
      expect(right.statusCode, right.body).toBe(200);
      expect(right.json()).toEqual({ signedIn: true, secondStep: true });
      // No new session: the step completes the one the request carries.
      expect(right.cookies.some((c) => c.name.includes('session_token'))).toBe(false);
    });

    it("refuses a challenge issued to another session", async () => {
      const email = 'second-two@example.com';
      const one = await signIn(t.app, email);
      const authenticator = newAuthenticator();
      await addPasskey(t, one, authenticator);
      const two = await signIn(t.app, email);
      const options = await post(t.app, '/api/auth/passkey/options', one, {});
      const res = await post(t.app, '/api/auth/passkey/verify', two, { response: await authenticator.assert(options.json()) });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('administrator MFA by passkey', () => {
    it("verifies this session's MFA for 30 minutes with the admin's own passkey", async () => {
      const admin = await adminWithFreshMfa(t.app);
      const authenticator = newAuthenticator();
      expect((await addPasskey(t, admin.cookie, authenticator, 'Admin key')).statusCode).toBe(201);

      const fresh = await signIn(t.app, ADMIN, 'Ada Admin');
      expect((await get(t.app, '/api/admin/dashboard', fresh)).statusCode).toBe(403);
      const options = await post(t.app, '/api/admin/mfa/passkey/options', fresh, {});
      expect(options.statusCode, options.body).toBe(200);
      expect(options.json().allowCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.id]);
      const verify = await post(t.app, '/api/admin/mfa/passkey/verify', fresh, { response: await authenticator.assert(options.json()) });
      expect(verify.statusCode, verify.body).toBe(200);
      expect(verify.json().mfaVerified).toBe(true);
      expect((await get(t.app, '/api/admin/mfa/status', fresh)).json().mfaVerified).toBe(true);
      expect((await get(t.app, '/api/admin/dashboard', fresh)).statusCode).toBe(200);

      // Another person's passkey never stands in for the admin's.
      const someone = await signIn(t.app, 'not-admin@example.com');
      const theirs = newAuthenticator();
      await addPasskey(t, someone, theirs);
      const later = await signIn(t.app, ADMIN, 'Ada Admin');
      const o2 = await post(t.app, '/api/admin/mfa/passkey/options', later, {});
      const refused = await post(t.app, '/api/admin/mfa/passkey/verify', later, { response: await theirs.assert(o2.json()) });
      expect(refused.statusCode).toBe(403);
      expect((await get(t.app, '/api/admin/dashboard', later)).statusCode).toBe(403);
    });

    it('locks after 5 failures in 15 minutes, counting with the codes, for passkeys and codes alike', async () => {
      // A database of its own: the lock is per administrator and would spill into other tests.
      const own = await createTestApp(dialect);
      try {
        const admin = await adminWithFreshMfa(own.app);
        const authenticator = newAuthenticator();
        expect((await addPasskey(own, admin.cookie, authenticator)).statusCode).toBe(201);
        const session = await signIn(own.app, ADMIN, 'Ada Admin');
        for (let i = 0; i < 5; i++) {
          const options = await post(own.app, '/api/admin/mfa/passkey/options', session, {});
          const res = await post(own.app, '/api/admin/mfa/passkey/verify', session, { response: await authenticator.assert(options.json(), { userVerified: false }) });
          expect(res.statusCode, `attempt ${i + 1}`).toBe(400);
        }
        const options = await post(own.app, '/api/admin/mfa/passkey/options', session, {});
        const good = await post(own.app, '/api/admin/mfa/passkey/verify', session, { response: await authenticator.assert(options.json()) });
        expect(good.statusCode).toBe(429);
        expect(Number(good.headers['retry-after'])).toBeGreaterThan(0);
        const code = await post(own.app, '/api/admin/mfa/verify', session, { totpCode: oathtoolCode(admin.secret) });
        expect(code.statusCode).toBe(429);
        expect((await get(own.app, '/api/admin/dashboard', session)).statusCode).toBe(403);
        const failures = await own.ctx.db.selectFrom('audit_log').select('details').where('action', '=', 'admin.mfa_failed').execute();
        expect(failures).toHaveLength(5);
      } finally {
        await own.close();
      }
    });

    it('is refused to anyone but the administrator', async () => {
      const user = await signIn(t.app, 'admin-wannabe@example.com');
      expect((await post(t.app, '/api/admin/mfa/passkey/options', user, {})).statusCode).toBe(403);
      expect((await post(t.app, '/api/admin/mfa/passkey/options', undefined, {})).statusCode).toBe(401);
    });
  });
  describe('with the account TOTP protecting sign-in (the seam with features/auth/second-factor.ts)', () => {
    /** A person with a passkey and a confirmed account TOTP; a new sign-in of theirs is half signed in. */
    async function protectedPerson() {
      const email = `totp-passkey-${Math.random().toString(36).slice(2, 10)}@example.com`;
      const cookie = await signIn(t.app, email, 'Totp Passkey');
      const authenticator = newAuthenticator();
      expect((await addPasskey(t, cookie, authenticator)).statusCode).toBe(201);
      const { secret } = (await post(t.app, '/api/user/setup-totp', cookie, {})).json();
      expect((await post(t.app, '/api/user/confirm-totp', cookie, { code: oathtoolCode(secret) })).statusCode).toBe(200);
      return { email, authenticator };
    }

    it('a passkey completes the second step of a half-signed-in session, and only its own person’s passkey does', async () => {
      const { email, authenticator } = await protectedPerson();
      const half = await signIn(t.app, email, 'Totp Passkey');
      expect((await get(t.app, '/api/auth/user', half)).json().error.code).toBe('second_factor_required');

      // Someone else's passkey, on this person's half-signed-in session: refused, still half signed in.
      const stranger = await signIn(t.app, `stranger-${Math.random().toString(36).slice(2, 8)}@example.com`, 'Stranger');
      const strangerKey = newAuthenticator();
      expect((await addPasskey(t, stranger, strangerKey)).statusCode).toBe(201);
      const options = await post(t.app, '/api/auth/passkey/options', half, {});
      expect(options.statusCode).toBe(200);
      const foreign = await post(t.app, '/api/auth/passkey/verify', half, { response: await strangerKey.assert(options.json()) });
      expect(foreign.statusCode).toBe(403);
      expect((await get(t.app, '/api/auth/user', half)).statusCode).toBe(401);

      const again = await post(t.app, '/api/auth/passkey/options', half, {});
      const own = await post(t.app, '/api/auth/passkey/verify', half, { response: await authenticator.assert(again.json()) });
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json()).toMatchObject({ signedIn: true, secondStep: true });
      expect((await get(t.app, '/api/auth/user', half)).json().email).toBe(email);
    });

    it('a signed-out passkey sign-in is both factors: the new session is complete at once', async () => {
      const { email, authenticator } = await protectedPerson();
      const { ceremony, verify } = await passkeySignIn(t, authenticator);
      expect(verify.statusCode, verify.body).toBe(200);
      const session = withCookies(ceremony, verify);
      const me = await get(t.app, '/api/auth/user', session);
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json().email).toBe(email);
    });
  });
});
