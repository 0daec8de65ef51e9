import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, adminSessionVerified, adminWithFreshMfa, ORIGIN, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { createBusiness, signInWithRole } from '../../../../test/support/payments';
import { ADMIN_CALLERS, ADMIN_ROUTES, impersonatingCookie, matches, type AdminCaller } from '../../../../test/support/permissions';

type Caller = AdminCaller;
const CALLERS = ADMIN_CALLERS;
const MATRIX = ADMIN_ROUTES;

describeEachDialect('admin route × caller matrix', (dialect) => {
  let t: TestApp;
  let recoveryCodes: string[];
  let ownerId: string;
  const cookies: Partial<Record<Caller, string>> = {};

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const admin = await adminWithFreshMfa(t.app);
    recoveryCodes = admin.recoveryCodes;
    cookies.admin_with_mfa = admin.cookie;
    cookies.user = await signIn(t.app, 'plain@example.com', 'Plain User');
    cookies.financial_manager = (await signInWithRole(t.ctx, t.app, 'financial_manager')).cookie;
    cookies.admin_without_mfa = await signIn(t.app, ADMIN, 'Ada Admin');
    cookies.admin_mfa_31_minutes_old = await adminSessionVerified(t.app, recoveryCodes.pop()!);
    const staleSession = await t.ctx.db.selectFrom('admin_mfa_session').select('session_id').orderBy('verified_at', 'desc').executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('admin_mfa_session').set({ verified_at: new Date(Date.now() - 31 * 60_000) }).where('session_id', '=', staleSession.session_id).execute();
    const owner = await createBusiness(t.app, 'Matrix Co');
    ownerId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', owner.email).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t?.close());

  /** A fresh impersonation session per cell (the stop route ends it). */
  const impersonating = () => impersonatingCookie(t, ownerId);

  it('has an entry for every /api/admin route the server registers (and no stale ones)', () => {
    const registered = t.app.routeTable.filter((r) => r.url.startsWith('/api/admin')).map((r) => `${r.method} ${r.url}`);
    expect(registered.length).toBeGreaterThan(20);
    expect([...new Set(registered)].sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it('answers every caller as the matrix says, on every admin route', async () => {
    const failures: string[] = [];
    for (const [route, expected] of Object.entries(MATRIX)) {
      const [method, path] = route.split(' ') as ['GET' | 'POST', string];
      const url = path.replace(/:id/g, 'x_missing');
      for (const caller of CALLERS) {
        const cookie = caller === 'anonymous' ? undefined : caller === 'admin_impersonating' ? await impersonating() : cookies[caller];
        const res = await t.app.inject({
          method,
          url,
          headers: { ...(cookie ? { cookie } : {}), ...(method === 'POST' ? { origin: ORIGIN, 'sec-fetch-site': 'same-origin' } : {}) },
          ...(method === 'POST' ? { payload: {} } : {}),
        });
        const want = expected[caller];
        const ok = matches(want, res.statusCode);
        if (!ok) failures.push(`${route} as ${caller}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 120)}`);
        if (res.statusCode === 403) {
          const code = res.json().error.code;
          const wantCode = caller === 'admin_without_mfa' || caller === 'admin_mfa_31_minutes_old' ? 'mfa_required' : caller === 'admin_impersonating' ? 'impersonation_forbidden' : 'forbidden';
          if (code !== wantCode) failures.push(`${route} as ${caller}: 403 with ${code}, expected ${wantCode}`);
        }
        if (caller === 'admin_impersonating' && res.statusCode !== 200) {
          // End the cell's impersonation so the next one starts clean.
          await post(t.app, '/api/admin/impersonation/stop', cookie);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
