import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { AUTH_LIBRARY_ROUTES } from './routes';

const ORIGIN = 'http://localhost:5000';

interface LibraryEndpoint {
  name: string;
  path: string;
  methods: string[];
}

/** Every endpoint better-auth would serve with this configuration, read from the library itself. */
function libraryEndpoints(t: TestApp): LibraryEndpoint[] {
  return Object.entries(t.ctx.auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>)
    .filter(([, endpoint]) => typeof endpoint?.path === 'string')
    .map(([name, endpoint]) => {
      const method = endpoint.options?.method ?? 'GET';
      const methods = (Array.isArray(method) ? method : [method]).filter((m) => m !== '*');
      return { name, path: endpoint.path!, methods: methods.length > 0 ? methods : ['GET', 'POST'] };
    });
}

const withoutParamNames = (path: string) => path.replace(/:[A-Za-z]+/g, ':');
const allowListed = (method: string, path: string) =>
  AUTH_LIBRARY_ROUTES.some((r) => r.method === method && withoutParamNames(r.url) === withoutParamNames(`/api/auth${path}`));

function expectNotFoundEnvelope(res: { statusCode: number; json: () => unknown; headers: Record<string, unknown> }, what: string) {
  expect(res.statusCode, what).toBe(404);
  expect(res.json(), what).toEqual({ error: { code: 'not_found', message: expect.any(String), request_id: res.headers['x-request-id'], doc_url: expect.stringMatching(/\/docs#error-not_found$/) } });
}

describeEachDialect('better-auth endpoints over HTTP', (dialect) => {
  let t: TestApp;
  let adminCookie: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    adminCookie = await signIn(t.app, 'admin@example.com', 'Ada Admin');
  });
  afterAll(async () => t?.close());

  it('knows the library endpoints it is guarding (the enumeration itself works)', () => {
    const names = libraryEndpoints(t).map((e) => e.path);
    // The dangerous ones the issue names must be among what we enumerate and refuse.
    for (const path of ['/admin/list-users', '/admin/impersonate-user', '/admin/set-role', '/admin/ban-user', '/admin/remove-user', '/admin/set-user-password', '/admin/create-user', '/sign-in/local', '/update-user', '/list-sessions', '/revoke-sessions', '/get-session']) {
      expect(names).toContain(path);
    }
    expect(names.length).toBeGreaterThan(30);
  });

  it('answers 404 in our envelope for every library endpoint not on the allow-list, signed out and as the administrator', async () => {
    const refused: string[] = [];
    for (const endpoint of libraryEndpoints(t)) {
      const url = `/api/auth${endpoint.path.replace(/:[A-Za-z]+/g, 'x')}`;
      for (const method of endpoint.methods) {
        if (allowListed(method, endpoint.path)) continue;
        for (const cookie of [undefined, adminCookie]) {
          const res = await t.app.inject({
            method: method as 'GET' | 'POST',
            url,
            headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}), ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
            ...(method === 'POST' ? { payload: JSON.stringify({ userId: 'x', role: 'admin', email: 'x@example.com', name: 'x' }) } : {}),
          });
          expectNotFoundEnvelope(res, `${method} ${url} (${cookie ? 'admin' : 'anonymous'})`);
          refused.push(`${method} ${url}`);
        }
      }
    }
    expect(refused.length).toBeGreaterThan(60);
  });

  it('no longer lets the library list users, change roles or impersonate with the admin cookie alone', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/admin/list-users'],
      ['POST', '/api/auth/admin/set-role'],
      ['POST', '/api/auth/admin/impersonate-user'],
      ['POST', '/api/auth/update-user'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { cookie: adminCookie, origin: ORIGIN, 'content-type': 'application/json' }, ...(method === 'POST' ? { payload: '{"name":{}}' } : {}) });
      expectNotFoundEnvelope(res, `${method} ${url}`);
    }
  });

  it('keeps the sign-in callback: a callback without a valid state goes back to the landing page with an error, never a 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/callback/oidc?code=abc&state=forged' });
    expect(res.statusCode).toBeLessThan(500);
    if (res.statusCode === 302) expect(res.headers.location).toMatch(/^\/\?error=[a-z_]+/);
    else expect(res.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String), request_id: res.headers['x-request-id'], doc_url: expect.stringMatching(/\/docs#error-[a-z_]+$/) } });
    expect(res.headers['set-cookie'] ?? '').not.toMatch(/session_token=[^;]+/);
  });

  it('refuses the callback by POST (only the GET return from the provider is routed)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/callback/oidc', headers: { origin: ORIGIN, 'content-type': 'application/json' }, payload: '{}' });
    expectNotFoundEnvelope(res, 'POST callback');
  });

  describe('a role stored behind our back', () => {
    it('"admin" on an account that is not ADMIN_EMAIL gives no power: a plain user to us, and the library admin endpoints stay closed', async () => {
      const cookie = await signIn(t.app, 'hidden-admin@example.com', 'Hidden Admin');
      for (const role of ['admin', 'user,admin']) {
        await t.ctx.db.updateTable('user').set({ role }).where('email', '=', 'hidden-admin@example.com').execute();
        const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
        expect(me.json(), role).toMatchObject({ role: 'user', isAdmin: false });
        const desk = await t.app.inject({ method: 'GET', url: '/api/financial/pending-approvals', headers: { cookie } });
        expect(desk.statusCode, role).toBe(403);
        expectNotFoundEnvelope(await t.app.inject({ method: 'GET', url: '/api/auth/admin/list-users', headers: { cookie } }), role);
        const impersonate = await t.app.inject({
          method: 'POST',
          url: '/api/auth/admin/impersonate-user',
          headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
          payload: JSON.stringify({ userId: 'x' }),
        });
        expectNotFoundEnvelope(impersonate, role);
      }
    });

    it('stores only the roles the product knows, even when the library itself writes', async () => {
      await signIn(t.app, 'rolewriter@example.com', 'Role Writer');
      const user = await t.ctx.db.selectFrom('user').select(['id', 'role']).where('email', '=', 'rolewriter@example.com').executeTakeFirstOrThrow();
      const context = await t.ctx.auth.$context;
      await context.internalAdapter.updateUser(user.id, { role: 'superuser' }).catch(() => undefined);
      await context.internalAdapter.updateUser(user.id, { role: 'financial_manager' });
      const after = await t.ctx.db.selectFrom('user').select('role').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(after.role).toBe('financial_manager');
      await context.internalAdapter.updateUser(user.id, { role: 'superuser' }).catch(() => undefined);
      const still = await t.ctx.db.selectFrom('user').select('role').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(still.role).toBe('financial_manager');
    });
  });
});
