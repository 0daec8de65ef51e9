import { generateCode } from '@common/otpauth';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { createHttpClient, freePort, parseSetCookie, type HttpClient } from '../../../../test/support/http-client';
import { signInAtProvider, startOidcProvider, type OidcTestUser, type TestOidcProvider } from '../../../../test/support/oidc-provider';

/**
 * The real OpenID Connect authorization code flow, over HTTP, against a real provider
 * (`oidc-provider`): our /api/login/oidc (the chooser's provider button) → the provider's authorization endpoint (found by discovery)
 * → login and consent there → better-auth's callback → a session cookie → /api/auth/user.
 */

const CALLBACK_PATH = '/api/auth/callback/oidc';

const GRACE: OidcTestUser = {
  sub: 'grace-0001',
  email: 'Grace.Hopper@Example.com',
  givenName: 'Grace',
  familyName: 'Brewster Hopper',
  name: 'Rear Admiral Grace Hopper',
  picture: 'https://images.example.com/grace.png',
};
const ADA: OidcTestUser = { sub: 'ada-0002', email: 'admin@example.com', givenName: 'Ada', familyName: 'Lovelace' };
/** Signs in only in the provider-token test, so its first sign-in creates the account row. */
const LIN: OidcTestUser = { sub: 'lin-0003', email: 'lin@example.com', givenName: 'Lin', familyName: 'Tokenless' };
const USERS = [GRACE, ADA, LIN];

interface StartedStack {
  provider: TestOidcProvider;
  t: TestApp;
  base: string;
  close(): Promise<void>;
}

/** The provider, then the app listening on the very origin its PUBLIC_URL names. */
async function startStack(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<StartedStack> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider({ redirectUri: `${base}${CALLBACK_PATH}`, users: USERS });
  let t: TestApp | undefined;
  try {
    t = await createTestApp(dialect, {
      PUBLIC_URL: base,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      ...env,
    });
    await t.app.listen({ host: '127.0.0.1', port });
  } catch (error) {
    await t?.close();
    await provider.close();
    throw error;
  }
  const app = t;
  return {
    provider,
    t: app,
    base,
    close: async () => {
      await app.close();
      await provider.close();
    },
  };
}

interface SignInResult {
  authorizationUrl: URL;
  callbackUrl: URL;
  callback: Response;
  sessionCookie: ReturnType<typeof parseSetCookie> | undefined;
}

/** One browser's whole sign-in: /api/login/oidc → provider → app callback (not followed further). */
async function signInThroughProvider(client: HttpClient, base: string, user: OidcTestUser, returnTo = '/business'): Promise<SignInResult> {
  const login = await client.fetch(`${base}/api/login/oidc?returnTo=${encodeURIComponent(returnTo)}`);
  expect(login.status).toBe(302);
  const authorizationUrl = new URL(login.headers.get('location')!);
  const callbackUrl = await signInAtProvider(client, authorizationUrl.href, user.sub);
  const callback = await client.fetch(callbackUrl);
  const sessionCookie = callback.headers
    .getSetCookie()
    .map(parseSetCookie)
    .find((c) => c.name.endsWith('.session_token'));
  return { authorizationUrl, callbackUrl, callback, sessionCookie };
}

function setsSession(response: Response): boolean {
  return response.headers
    .getSetCookie()
    .map(parseSetCookie)
    .some((c) => c.name.endsWith('.session_token') && c.value !== '' && c.maxAge !== 0);
}

async function currentUser(client: HttpClient, base: string) {
  const res = await client.fetch(`${base}/api/auth/user`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describeEachDialect('OpenID Connect sign-in', (dialect) => {
  let stack: StartedStack;
  beforeAll(async () => {
    stack = await startStack(dialect);
  });
  afterAll(async () => stack?.close());

  it('signs a user in through the full authorization code flow with PKCE and returns to the page', async () => {
    const { base, provider } = stack;
    const client = createHttpClient();

    const login = await client.fetch(`${base}/api/login/oidc?returnTo=/business`);
    expect(login.status).toBe(302);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const authorizationUrl = new URL(login.headers.get('location')!);

    // The authorization endpoint is the one the provider's discovery document names
    // (on a non-default path, so only discovery could have found it).
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    expect(discovery.issuer).toBe(provider.issuer);
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(discovery.authorization_endpoint);
    expect(discovery.authorization_endpoint).toBe(`${provider.issuer}/oauth2/authorize`);
    expect(provider.requests).toContainEqual({ method: 'GET', path: '/.well-known/openid-configuration' });

    const q = authorizationUrl.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(provider.clientId);
    expect(q.get('redirect_uri')).toBe(`${base}${CALLBACK_PATH}`);
    expect(q.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('state')).toBeTruthy();
    expect(q.get('nonce')).toBeTruthy();
    // better-auth's state cookie travels with the redirect (our route forwards it).
    expect(login.headers.getSetCookie().some((c) => /^sixdigit\.state=/.test(c))).toBe(true);

    const callbackUrl = await signInAtProvider(client, authorizationUrl.href, GRACE.sub);
    expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(`${base}${CALLBACK_PATH}`);
    expect(callbackUrl.searchParams.get('code')).toBeTruthy();
    expect(callbackUrl.searchParams.get('state')).toBe(q.get('state'));
    expect(callbackUrl.searchParams.get('iss')).toBe(provider.issuer);

    const tokenRequestsBefore = provider.requests.filter((r) => r.path === '/oauth2/token').length;
    const callback = await client.fetch(callbackUrl);
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/business');
    // The app redeemed the code at the discovered token endpoint with its client secret,
    // checked the ID token against the discovered JWKS and read the claims from userinfo.
    const tokenRequests = provider.requests.filter((r) => r.path === '/oauth2/token');
    expect(tokenRequests.length).toBe(tokenRequestsBefore + 1);
    expect(tokenRequests.at(-1)).toEqual({ method: 'POST', path: '/oauth2/token', clientAuth: 'client_secret_post' });
    expect(provider.requests.some((r) => r.path === '/oauth2/jwks')).toBe(true);
    expect(provider.requests.some((r) => r.path === '/oauth2/userinfo')).toBe(true);

    const session = callback.headers
      .getSetCookie()
      .map(parseSetCookie)
      .find((c) => c.name === 'sixdigit.session_token');
    expect(session).toBeDefined();
    expect(session!.httpOnly).toBe(true);
    expect(session!.sameSite?.toLowerCase()).toBe('lax');
    expect(session!.secure).toBe(false); // not production: plain http on a developer machine
    expect(session!.path).toBe('/');

    const me = await currentUser(client, base);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: expect.any(String),
      email: 'grace.hopper@example.com',
      firstName: 'Grace',
      lastName: 'Brewster Hopper',
      profileImageUrl: GRACE.picture,
      role: 'user',
      isAdmin: false,
      impersonation: null,
    });
  });

  it('links the provider subject to the user and reuses that user on the next sign-in', async () => {
    const first = createHttpClient();
    const one = await signInThroughProvider(first, stack.base, GRACE, '/totp');
    expect(one.callback.headers.get('location')).toBe('/totp');
    const firstUser = await currentUser(first, stack.base);

    const second = createHttpClient(); // another browser: a fresh provider session too
    const two = await signInThroughProvider(second, stack.base, GRACE, '/');
    expect(two.sessionCookie).toBeDefined();
    expect(two.sessionCookie!.value).not.toBe(one.sessionCookie!.value);
    const secondUser = await currentUser(second, stack.base);
    expect(secondUser.status).toBe(200);
    expect(secondUser.body.id).toBe(firstUser.body.id);

    // One user row, and the provider's subject (not the e-mail) is what links to it.
    const db = stack.t.ctx.db as unknown as Kysely<{
      user: { id: string; email: string };
      account: { userId: string; providerId: string; accountId: string };
    }>;
    const users = await db.selectFrom('user').select('id').where('email', '=', 'grace.hopper@example.com').execute();
    expect(users).toEqual([{ id: firstUser.body.id }]);
    const accounts = await db
      .selectFrom('account')
      .select(['userId', 'providerId', 'accountId'])
      .where('userId', '=', String(firstUser.body.id))
      .execute();
    expect(accounts).toEqual([{ userId: firstUser.body.id, providerId: 'oidc', accountId: GRACE.sub }]);
  });

  it("stores none of the provider's tokens: the account row has no access, refresh or ID token, created or updated", async () => {
    const db = stack.t.ctx.db as unknown as Kysely<{ account: { userId: string; accessToken: string | null; refreshToken: string | null; idToken: string | null } }>;
    for (const sign of ['first (creates the account)', 'second (updates it)']) {
      const client = createHttpClient();
      await signInThroughProvider(client, stack.base, LIN, '/');
      const user = await currentUser(client, stack.base);
      const rows = await db.selectFrom('account').select(['accessToken', 'refreshToken', 'idToken']).where('userId', '=', String(user.body.id)).execute();
      expect(rows, sign).toEqual([{ accessToken: null, refreshToken: null, idToken: null }]);
    }
  });

  it('makes the ADMIN_EMAIL account the administrator', async () => {
    const client = createHttpClient();
    const { sessionCookie } = await signInThroughProvider(client, stack.base, ADA);
    expect(sessionCookie).toBeDefined();
    const me = await currentUser(client, stack.base);
    expect(me.body).toMatchObject({ email: 'admin@example.com', firstName: 'Ada', lastName: 'Lovelace', role: 'admin', isAdmin: true });
  });

  it('creates no session when the state on the callback was tampered with', async () => {
    const client = createHttpClient();
    const login = await client.fetch(`${stack.base}/api/login/oidc?returnTo=/business`);
    const callbackUrl = await signInAtProvider(client, login.headers.get('location')!, GRACE.sub);
    const state = callbackUrl.searchParams.get('state')!;
    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`);

    const callback = await client.fetch(tampered);
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toMatch(/[?&]error=state_mismatch\b/);
    expect(setsSession(callback)).toBe(false);
    expect((await currentUser(client, stack.base)).status).toBe(401);

    // Nor does the genuine state in another browser (no state cookie there): the callback is
    // bound to the browser that started the sign-in.
    const other = createHttpClient();
    const replay = await other.fetch(callbackUrl);
    expect(replay.status).toBe(302);
    expect(replay.headers.get('location')).toMatch(/[?&]error=state_mismatch\b/);
    expect(setsSession(replay)).toBe(false);
    expect((await currentUser(other, stack.base)).status).toBe(401);
  });

  it('creates no session when the user cancels at the provider', async () => {
    const client = createHttpClient();
    const login = await client.fetch(`${stack.base}/api/login/oidc?returnTo=/business`);
    const atProvider = await client.fetch(login.headers.get('location')!);
    expect(atProvider.status).toBe(303);
    const interaction = new URL(atProvider.headers.get('location')!, stack.provider.issuer);
    expect(interaction.pathname).toMatch(/^\/interaction\//);
    const abort = await client.fetch(new URL(`${interaction.pathname}/abort`, stack.provider.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    const resumed = await client.fetch(new URL(abort.headers.get('location')!, stack.provider.issuer));
    const callbackUrl = new URL(resumed.headers.get('location')!);
    expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(`${stack.base}${CALLBACK_PATH}`);
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied');

    const callback = await client.fetch(callbackUrl);
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toMatch(/^\/\?error=access_denied/);
    expect(setsSession(callback)).toBe(false);
    expect((await currentUser(client, stack.base)).status).toBe(401);
  });

  it('asks for the second factor after the provider when the account TOTP is confirmed (issue 19)', async () => {
    const { base } = stack;
    const post = (client: HttpClient, path: string, body: unknown) =>
      client.fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base, 'sec-fetch-site': 'same-origin' }, body: JSON.stringify(body) });
    const first = createHttpClient();
    await signInThroughProvider(first, base, GRACE, '/totp');
    const setup = await post(first, '/api/user/setup-totp', {});
    expect(setup.status).toBe(201);
    const { secret, backupCodes } = (await setup.json()) as { secret: string; backupCodes: string[] };
    const code = (offset: number) => generateCode({ type: 'totp', secret, algorithm: 'SHA1', digits: 6, period: 30, counter: null }, Date.now() + offset * 30_000);
    expect((await post(first, '/api/user/confirm-totp', { code: code(0) })).status).toBe(200);

    // Another browser signs in at the provider: the callback makes a half-signed-in session.
    const second = createHttpClient();
    const result = await signInThroughProvider(second, base, GRACE, '/business');
    expect(result.callback.status).toBe(302);
    const half = await currentUser(second, base);
    expect(half.status).toBe(401);
    expect(half.body).toMatchObject({ error: { code: 'second_factor_required' } });
    expect((await second.fetch(`${base}/api/business/profile`)).status).toBe(401);
    expect((await post(second, '/api/auth/second-factor', { code: code(1) })).status).toBe(204);
    expect(await currentUser(second, base)).toMatchObject({ status: 200, body: { email: 'grace.hopper@example.com' } });
    // The first browser, the one that turned it on, stays signed in; turning it on signed out no one else here.
    expect((await currentUser(first, base)).status).toBe(200);
    // Leave Grace as the other tests expect her: no second factor.
    expect((await post(first, '/api/user/disable-totp', { backupCode: backupCodes[0] })).status).toBe(200);
  });

  it('never shows the local sign-in form once an issuer is configured', async () => {
    const client = createHttpClient();
    const login = await client.fetch(`${stack.base}/api/login/oidc?returnTo=/totp`);
    expect(login.status).toBe(302);
    expect(new URL(login.headers.get('location')!).origin).toBe(stack.provider.issuer);
    expect(await login.text()).not.toContain('Development only');

    const local = await client.fetch(`${stack.base}/api/login/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.base },
      body: new URLSearchParams({ email: 'sneaky@example.com', name: 'Sneaky' }).toString(),
    });
    expect(local.status).toBe(404);
    const direct = await client.fetch(`${stack.base}/api/auth/sign-in/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.base },
      body: JSON.stringify({ email: 'sneaky@example.com', name: 'Sneaky' }),
    });
    expect(direct.status).toBe(404);
    expect((await currentUser(client, stack.base)).status).toBe(401);
  });

  describe('in production', () => {
    let prod: StartedStack;
    beforeAll(async () => {
      prod = await startStack(dialect, {
        NODE_ENV: 'production',
        APP_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
        ADMIN_EMAIL: 'admin@example.com',
        SMTP_URL: 'smtp://127.0.0.1:2525',
      });
    });
    afterAll(async () => prod?.close());

    it('sets a Secure, httpOnly, SameSite=Lax session cookie', async () => {
      expect(prod.t.ctx.config.isProduction).toBe(true);
      const client = createHttpClient();
      const login = await client.fetch(`${prod.base}/api/login/oidc?returnTo=/business`);
      expect(login.status).toBe(302);
      const stateCookie = login.headers.getSetCookie().map(parseSetCookie).find((c) => c.name.endsWith('sixdigit.state'));
      expect(stateCookie?.secure).toBe(true);

      // The jar sends Secure cookies to loopback, as browsers do, so the flow completes over http.
      const callbackUrl = await signInAtProvider(client, login.headers.get('location')!, GRACE.sub);
      const callback = await client.fetch(callbackUrl);
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe('/business');

      const raw = callback.headers.getSetCookie().find((c) => /session_token=/.test(c.split(';')[0]!));
      expect(raw).toBeDefined();
      const session = parseSetCookie(raw!);
      expect(session.name).toBe('__Secure-sixdigit.session_token');
      expect(session.secure).toBe(true);
      expect(session.httpOnly).toBe(true);
      expect(session.sameSite?.toLowerCase()).toBe('lax');

      const me = await client.fetch(`${prod.base}/api/auth/user`);
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ email: 'grace.hopper@example.com', role: 'user' });
    });
  });
});
