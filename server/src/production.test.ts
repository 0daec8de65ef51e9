import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../test/support/db';
import { createHttpClient, parseSetCookie } from '../../test/support/http-client';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../../test/support/oidc-provider';
import { SESSION_HINT_COOKIE } from '@common/contract/auth';

/**
 * The server as it runs in production: NODE_ENV=production with the settings production
 * requires (an OIDC issuer — the local test provider —, APP_ENCRYPTION_KEY, ADMIN_EMAIL and an
 * https PUBLIC_URL), checked from the outside the way a browser or a scanner would see it.
 */
const PUBLIC_URL = 'https://sixdigit.example';
const HOST = { host: 'sixdigit.example' };
const GRACE = { sub: 'grace-prod', email: 'grace@example.com', givenName: 'Grace', familyName: 'Hopper' };
const INTERNAL_DETAIL = 'connection to /srv/sixdigit/secret.db failed at repo.ts:42';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

describeEachDialect('production mode', (dialect) => {
  let provider: TestOidcProvider;
  let t: TestApp;

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUri: `${PUBLIC_URL}/api/auth/callback/oidc`, users: [GRACE] });
    t = await createTestApp(dialect, {
      NODE_ENV: 'production',
      PUBLIC_URL,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 11).toString('base64'),
      ADMIN_EMAIL: 'admin@example.com',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    // Two routes that fail the way real code does (registered before the app is ready).
    t.app.get('/api/test-only/throws', async () => {
      throw new Error(INTERNAL_DETAIL);
    });
    t.app.get('/api/test-only/bad-sql', async () => {
      await sql`select secret_column from no_such_table_here`.execute(t.ctx.db);
      return {};
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('runs as production', () => {
    expect(t.ctx.config.isProduction).toBe(true);
  });

  it('sends a strict Content-Security-Policy on pages and API answers alike', async () => {
    for (const url of ['/', '/api/auth/user', '/healthz', '/no-such-page']) {
      const res = await t.app.inject({ method: 'GET', url, headers: HOST });
      const csp = directives(String(res.headers['content-security-policy']));
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      // WebAssembly (Argon2id for the authenticator vault) may be compiled; no JavaScript eval.
      expect(csp.get('script-src'), url).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('base-uri'), url).toEqual(["'self'"]);
      expect(csp.get('form-action'), url).toEqual(["'self'"]);
      expect(csp.has('upgrade-insecure-requests'), url).toBe(true);
      for (const [name, values] of csp) {
        // No wildcard hosts anywhere; no inline or eval'd script anywhere.
        expect(values.filter((v) => v.includes('*')), `${name} on ${url}`).toEqual([]);
        expect(values.filter((v) => ["'unsafe-eval'", "'unsafe-hashes'"].includes(v)), `${name} on ${url}`).toEqual([]);
        if (name !== 'style-src') expect(values, `${name} on ${url}`).not.toContain("'unsafe-inline'");
        // Scheme-wide sources only for images (the identity provider's profile pictures), never for code or connections.
        if (name !== 'img-src') expect(values.filter((v) => /^[a-z][a-z0-9+.-]*:$/.test(v) && v !== 'data:' && v !== 'blob:'), `${name} on ${url}`).toEqual([]);
      }
      for (const name of ['script-src', 'connect-src', 'default-src', 'worker-src']) {
        expect(csp.get(name) ?? [], `${name} on ${url}`).not.toContain('data:');
        expect(csp.get(name) ?? [], `${name} on ${url}`).not.toContain('https:');
      }
    }
  });

  it('sends HSTS for a year with subdomains, and the other hardening headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: HOST });
    const hsts = String(res.headers['strict-transport-security']);
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000);
    expect(hsts).toContain('includeSubDomains');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('offers no local sign-in: /api/login offers the identity provider and a passkey, and the local form is gone', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/api/login?returnTo=/business', headers: HOST });
    expect(login.statusCode).toBe(200);
    expect(login.body).not.toContain('Local sign-in');
    expect(login.body).toContain('href="/api/login/oidc?returnTo=%2Fbusiness"');
    expect(login.body).toContain('href="/sign-in/passkey?returnTo=%2Fbusiness"');
    const oidc = await t.app.inject({ method: 'GET', url: '/api/login/oidc', headers: HOST });
    expect(oidc.statusCode).toBe(302);
    expect(new URL(String(oidc.headers.location)).origin).toBe(new URL(provider.issuer).origin);
    const local = await t.app.inject({
      method: 'POST',
      url: '/api/login/local',
      headers: { ...HOST, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload: 'email=admin%40example.com&name=Mallory',
    });
    expect(local.statusCode).toBe(404);
    expect(local.json().error.code).toBe('not_found');
    expect(local.cookies).toEqual([]);
    expect(t.app.routeTable.some((r) => r.url === '/api/login/local')).toBe(false);
  });

  it('sets Secure, HttpOnly, SameSite cookies (__Secure- prefixed) through the real sign-in', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/api/login/oidc?returnTo=/business', headers: HOST });
    const stateCookies = login.cookies;
    expect(stateCookies.length).toBeGreaterThan(0);
    for (const c of stateCookies) expect(c, c.name).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });

    const client = createHttpClient();
    const callbackUrl = await signInAtProvider(client, String(login.headers.location), GRACE.sub);
    expect(callbackUrl.origin).toBe(PUBLIC_URL);
    const callback = await t.app.inject({
      method: 'GET',
      url: `${callbackUrl.pathname}${callbackUrl.search}`,
      headers: { ...HOST, cookie: stateCookies.map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/business');
    const setCookies = ([] as string[]).concat(callback.headers['set-cookie'] ?? []).map(parseSetCookie);
    const session = setCookies.find((c) => c.name.endsWith('session_token'));
    expect(session).toBeDefined();
    expect(session!.name.startsWith('__Secure-')).toBe(true);
    for (const c of setCookies.filter((c) => c.value !== '' && c.name !== SESSION_HINT_COOKIE)) {
      expect({ name: c.name, secure: c.secure, httpOnly: c.httpOnly, sameSite: c.sameSite?.toLowerCase() }).toEqual({ name: c.name, secure: true, httpOnly: true, sameSite: 'lax' });
    }
    // The one cookie scripts may read says only "a session exists" (so public pages can skip the
    // session call); it carries no secret, and is Secure and SameSite like the rest.
    const hint = setCookies.find((c) => c.name === SESSION_HINT_COOKIE);
    expect(hint).toMatchObject({ value: '1', secure: true, httpOnly: false });
    expect(hint!.sameSite?.toLowerCase()).toBe('lax');
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { ...HOST, cookie: `${session!.name}=${session!.value}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(GRACE.email);
  });

  it('answers a failure with the envelope and a request id, never a stack trace or an internal message', async () => {
    for (const url of ['/api/test-only/throws', '/api/test-only/bad-sql']) {
      const res = await t.app.inject({ method: 'GET', url, headers: HOST });
      expect(res.statusCode, url).toBe(500);
      const body = res.json();
      expect(body, url).toEqual({ error: { code: 'internal_error', message: expect.any(String), request_id: res.headers['x-request-id'], doc_url: expect.stringMatching(/\/docs#error-internal_error$/) } });
      for (const leak of ['secret.db', 'repo.ts', 'no_such_table_here', 'secret_column', 'Error:', '    at ', 'node_modules', '/srv/']) {
        expect(res.body, `${url} leaks ${leak}`).not.toContain(leak);
      }
    }
  });

  it('answers a bad request without echoing internals either', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { ...HOST, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, payload: '{"x":' });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/\s+at\s+\S+:\d+:\d+/);
    expect(res.body).not.toContain('node_modules');
  });
});
