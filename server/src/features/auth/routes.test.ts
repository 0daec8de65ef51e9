import { afterAll, beforeAll, expect, it } from 'vitest';
import { SESSION_HINT_COOKIE } from '@common/contract/auth';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';

describeEachDialect('auth routes', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('answers 401 in the error envelope when nobody is signed in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: { code: 'unauthorized', message: expect.any(String), request_id: res.headers['x-request-id'], doc_url: 'http://localhost:5000/docs#error-unauthorized' },
    });
  });

  it('shows a clearly labelled local sign-in form when no issuer is configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/login?returnTo=/totp' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Development only');
    expect(res.body).toContain('value="/totp"');
  });

  it('signs in locally, returns to the page the user was on and answers the user', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login/local',
      payload: 'email=Grace.Hopper%40Example.com&name=Grace+Brewster+Hopper&returnTo=%2Fbusiness',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    });
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe('/business');
    const session = login.cookies.find((c) => c.name.endsWith('session_token'));
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', cookies: { [session!.name]: session!.value } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'grace.hopper@example.com',
      firstName: 'Grace',
      lastName: 'Brewster Hopper',
      profileImageUrl: null,
      role: 'user',
      isAdmin: false,
    });
  });

  it('sets a script-readable session hint beside the session cookie and clears both at sign-out', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login/local',
      payload: 'email=hint%40example.com&name=Hint',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    });
    const session = login.cookies.find((c) => c.name.endsWith('session_token'))!;
    const hint = login.cookies.find((c) => c.name === SESSION_HINT_COOKIE);
    expect(hint).toMatchObject({ value: '1', path: '/', sameSite: 'Lax' });
    expect(hint?.httpOnly).toBeFalsy();
    expect(hint?.maxAge).toBe(session.maxAge);

    const logout = await t.app.inject({
      method: 'GET',
      url: '/api/logout',
      headers: { 'sec-fetch-site': 'same-origin' },
      cookies: { [session.name]: session.value, [SESSION_HINT_COOKIE]: '1' },
    });
    expect(logout.statusCode).toBe(302);
    expect(logout.cookies.find((c) => c.name === SESSION_HINT_COOKIE)).toMatchObject({ value: '' });
  });

  it('clears a stale session hint when the session check answers 401, and keeps a live one fresh', async () => {
    const stale = await t.app.inject({ method: 'GET', url: '/api/auth/user', cookies: { [SESSION_HINT_COOKIE]: '1' } });
    expect(stale.statusCode).toBe(401);
    expect(stale.cookies.find((c) => c.name === SESSION_HINT_COOKIE)).toMatchObject({ value: '', maxAge: 0 });

    const cookie = await signIn(t.app, 'fresh-hint@example.com');
    const live = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect(live.statusCode).toBe(200);
    expect(live.cookies.find((c) => c.name === SESSION_HINT_COOKIE)).toMatchObject({ value: '1', maxAge: 604800 });
  });

  it('never returns to another site after sign-in', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login/local',
      payload: new URLSearchParams({ email: 'a@example.com', name: 'A', returnTo: '//evil.example/x' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    });
    expect(login.headers.location).toBe('/');
  });

  it.each(['/\t/evil.example', '/\n/evil.example', '/\\evil.example', '/.//evil.example', 'https:evil.example'])(
    'never returns to another site after sign-in, however returnTo %j is spelled',
    async (returnTo) => {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/login/local',
        payload: new URLSearchParams({ email: 'b@example.com', name: 'B', returnTo }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      });
      expect(login.statusCode).toBe(303);
      expect(login.headers.location).toBe('/');
      const form = await t.app.inject({ method: 'GET', url: `/api/login?returnTo=${encodeURIComponent(returnTo)}` });
      expect(form.body).toContain('name="returnTo" value="/"');
    },
  );

  it('refuses a bad e-mail on the local form with the form again', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/local',
      payload: 'email=not-an-email&name=X',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Enter a valid e-mail address');
  });

  it('marks the ADMIN_EMAIL account as the administrator', async () => {
    const cookie = await signIn(t.app, 'Admin@Example.com', 'Ada Admin');
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect(me.json()).toMatchObject({ role: 'admin', isAdmin: true, firstName: 'Ada' });
  });

  it('logs out: deletes the session and returns to /', async () => {
    const cookie = await signIn(t.app, 'leaving@example.com');
    const out = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie } });
    expect(out.statusCode).toBe(302);
    expect(out.headers.location).toBe('/');
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Referer (a browser without Sec-Fetch-Site)', { referer: 'https://evil.example/page' }],
  ])('does not sign out when another site opens the logout link (%s): it asks on a page of its own', async (_name, headers) => {
    const cookie = await signIn(t.app, `lured-${Math.random().toString(36).slice(2)}@example.com`);
    const out = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie, ...headers } });
    expect(out.statusCode).toBe(200);
    expect(out.headers['content-type']).toContain('text/html');
    expect(out.headers['set-cookie']).toBeUndefined();
    expect(out.body).toContain('Sign out of Sixdigit?');
    expect(out.body).toContain('href="/api/logout"');
    expect(out.body).not.toContain('<script');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
    // The confirm page's own link (same-origin) signs out.
    const confirmed = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(confirmed.statusCode).toBe(302);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('signs out from a typed or bookmarked address (Sec-Fetch-Site: none)', async () => {
    const cookie = await signIn(t.app, 'typed-logout@example.com');
    const out = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie, 'sec-fetch-site': 'none' } });
    expect(out.statusCode).toBe(302);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('refuses a cookie-authenticated write from a foreign Origin', async () => {
    const cookie = await signIn(t.app, 'csrf@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden_origin');
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect(me.statusCode).toBe(200);
  });
});
