import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, adminSessionVerified, adminWithFreshMfa, ORIGIN, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { createBusiness, signInWithRole } from '../../../../test/support/payments';

type Caller = 'anonymous' | 'user' | 'financial_manager' | 'admin_without_mfa' | 'admin_mfa_31_minutes_old' | 'admin_with_mfa' | 'admin_impersonating';
const CALLERS: Caller[] = ['anonymous', 'user', 'financial_manager', 'admin_without_mfa', 'admin_mfa_31_minutes_old', 'admin_with_mfa', 'admin_impersonating'];

/** What a caller gets: a status, or "allowed" (past every guard: any answer but 401/403). */
type Expected = number | 'allowed';

const IDENTITY_ONLY: Record<Caller, Expected> = {
  anonymous: 401,
  user: 403,
  financial_manager: 403,
  admin_without_mfa: 'allowed',
  admin_mfa_31_minutes_old: 'allowed',
  admin_with_mfa: 'allowed',
  admin_impersonating: 403,
};
const FULL_GUARD: Record<Caller, Expected> = {
  anonymous: 401,
  user: 403,
  financial_manager: 403,
  admin_without_mfa: 403,
  admin_mfa_31_minutes_old: 403,
  admin_with_mfa: 'allowed',
  admin_impersonating: 403,
};

/** Every admin route and the answers each caller must get. A route missing here fails the test. */
const MATRIX: Record<string, Record<Caller, Expected>> = {
  'GET /api/admin/mfa/status': IDENTITY_ONLY,
  'POST /api/admin/mfa/setup': IDENTITY_ONLY,
  'POST /api/admin/mfa/confirm': IDENTITY_ONLY,
  'POST /api/admin/mfa/verify': IDENTITY_ONLY,
  // The way back from an impersonation: any signed-in session; only an impersonating one succeeds.
  'POST /api/admin/impersonation/stop': { ...IDENTITY_ONLY, user: 409, financial_manager: 409, admin_without_mfa: 409, admin_mfa_31_minutes_old: 409, admin_with_mfa: 409, admin_impersonating: 200 },
  'POST /api/admin/impersonation/start': FULL_GUARD,
  'GET /api/admin/users': FULL_GUARD,
  'POST /api/admin/users/:id/ban': FULL_GUARD,
  'POST /api/admin/users/:id/unban': FULL_GUARD,
  'GET /api/admin/dashboard': FULL_GUARD,
  'GET /api/admin/payments': FULL_GUARD,
  'POST /api/admin/payments/:id/approve': FULL_GUARD,
  'POST /api/admin/payments/:id/reject': FULL_GUARD,
  'GET /api/admin/roles': FULL_GUARD,
  'POST /api/admin/assign-financial-manager': FULL_GUARD,
  'POST /api/admin/remove-financial-manager': FULL_GUARD,
  'GET /api/admin/audit': FULL_GUARD,
  'GET /api/admin/audit.csv': FULL_GUARD,
  'GET /api/admin/businesses': FULL_GUARD,
  'GET /api/admin/businesses/:id': FULL_GUARD,
  'POST /api/admin/businesses/:id/grant': FULL_GUARD,
  'POST /api/admin/businesses/:id/rate-limit': FULL_GUARD,
  'POST /api/admin/businesses/:id/suspend': FULL_GUARD,
  'POST /api/admin/businesses/:id/restore': FULL_GUARD,
};

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

  /**
   * Another administrator sign-in whose MFA counts as verified now. (Verification itself is
   * tested in mfa.test.ts; here we need more verified sessions than there are recovery codes.)
   */
  async function verifiedAdminSession(): Promise<string> {
    const cookie = await signIn(t.app, ADMIN, 'Ada Admin');
    const token = decodeURIComponent(cookie.match(/session_token=([^;]+)/)![1]!).split('.')[0]!;
    const session = await t.ctx.db.selectFrom('session').select(['id', 'userId']).where('token', '=', token).executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('admin_mfa_session').values({ session_id: session.id, user_id: session.userId, verified_at: new Date() }).execute();
    return cookie;
  }

  /** A fresh impersonation session per cell (the stop route ends it). */
  async function impersonatingCookie(): Promise<string> {
    const admin = await verifiedAdminSession();
    const res = await post(t.app, '/api/admin/impersonation/start', admin, { userId: ownerId, reason: 'matrix test' });
    if (res.statusCode !== 200) throw new Error(`impersonation failed: ${res.body}`);
    const swapped = new Map(admin.split('; ').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const));
    for (const c of res.cookies) swapped.set(c.name, c.value);
    return [...swapped].map(([k, v]) => `${k}=${v}`).join('; ');
  }

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
        const cookie = caller === 'anonymous' ? undefined : caller === 'admin_impersonating' ? await impersonatingCookie() : cookies[caller];
        const res = await t.app.inject({
          method,
          url,
          headers: { ...(cookie ? { cookie } : {}), ...(method === 'POST' ? { origin: ORIGIN } : {}) },
          ...(method === 'POST' ? { payload: {} } : {}),
        });
        const want = expected[caller];
        const ok = want === 'allowed' ? res.statusCode !== 401 && res.statusCode !== 403 && res.statusCode < 500 : res.statusCode === want;
        if (!ok) failures.push(`${route} as ${caller}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 120)}`);
        if (res.statusCode === 403) {
          const code = res.json().error.code;
          const wantCode = caller === 'admin_without_mfa' || caller === 'admin_mfa_31_minutes_old' ? 'mfa_required' : 'forbidden';
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
