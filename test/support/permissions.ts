import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../server/src/context';
import { ADMIN, post } from './admin';
import { signIn } from './db';

/**
 * Fixtures shared by the permission matrices (features/admin/matrix.test.ts for the admin area,
 * features/permissions.matrix.test.ts for every route): extra verified admin sessions and
 * impersonation sessions, and how an expected answer is compared.
 */

/** What a caller gets: a status, a status class, or "allowed" (past every guard: any answer but 401/403, never 5xx). */
export type Expected = number | '2xx' | '4xx' | 'allowed';

export function matches(expected: Expected, status: number): boolean {
  if (expected === 'allowed') return status !== 401 && status !== 403 && status < 500;
  if (expected === '2xx') return status >= 200 && status < 300;
  if (expected === '4xx') return status >= 400 && status < 500;
  return status === expected;
}

/**
 * Another administrator sign-in whose MFA counts as verified now. (Verification itself is
 * tested in admin/mfa.test.ts; the matrices need more verified sessions than there are recovery codes.)
 */
export async function verifiedAdminSession(t: { app: FastifyInstance; ctx: AppContext }): Promise<string> {
  const cookie = await signIn(t.app, ADMIN, 'Ada Admin');
  const token = decodeURIComponent(cookie.match(/session_token=([^;]+)/)![1]!).split('.')[0]!;
  const session = await t.ctx.db.selectFrom('session').select(['id', 'userId']).where('token', '=', token).executeTakeFirstOrThrow();
  await t.ctx.db.insertInto('admin_mfa_session').values({ session_id: session.id, user_id: session.userId, verified_at: new Date() }).execute();
  return cookie;
}

/** A new verified admin session impersonating `userId`: the cookie header that acts as them. */
export async function impersonatingCookie(t: { app: FastifyInstance; ctx: AppContext }, userId: string): Promise<string> {
  const admin = await verifiedAdminSession(t);
  const res = await post(t.app, '/api/admin/impersonation/start', admin, { userId, reason: 'permission matrix' });
  if (res.statusCode !== 200) throw new Error(`impersonation failed: ${res.body}`);
  const swapped = new Map(admin.split('; ').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const));
  for (const c of res.cookies) swapped.set(c.name, c.value);
  return [...swapped].map(([k, v]) => `${k}=${v}`).join('; ');
}

export type AdminCaller = 'anonymous' | 'user' | 'financial_manager' | 'admin_without_mfa' | 'admin_mfa_31_minutes_old' | 'admin_with_mfa' | 'admin_impersonating';
export const ADMIN_CALLERS: AdminCaller[] = ['anonymous', 'user', 'financial_manager', 'admin_without_mfa', 'admin_mfa_31_minutes_old', 'admin_with_mfa', 'admin_impersonating'];


const IDENTITY_ONLY: Record<AdminCaller, Expected> = {
  anonymous: 401,
  user: 403,
  financial_manager: 403,
  admin_without_mfa: 'allowed',
  admin_mfa_31_minutes_old: 'allowed',
  admin_with_mfa: 'allowed',
  admin_impersonating: 403,
};
const FULL_GUARD: Record<AdminCaller, Expected> = {
  anonymous: 401,
  user: 403,
  financial_manager: 403,
  admin_without_mfa: 403,
  admin_mfa_31_minutes_old: 403,
  admin_with_mfa: 'allowed',
  admin_impersonating: 403,
};

/** Every admin route and the answers each caller must get (both matrices read it). A route missing here fails the tests. */
export const ADMIN_ROUTES: Record<string, Record<AdminCaller, Expected>> = {
  'GET /api/admin/mfa/status': IDENTITY_ONLY,
  'POST /api/admin/mfa/setup': IDENTITY_ONLY,
  'POST /api/admin/mfa/confirm': IDENTITY_ONLY,
  'POST /api/admin/mfa/verify': IDENTITY_ONLY,
  'POST /api/admin/mfa/passkey/options': IDENTITY_ONLY,
  'POST /api/admin/mfa/passkey/verify': IDENTITY_ONLY,
  // The way back from an impersonation: any signed-in session; only an impersonating one succeeds.
  'POST /api/admin/impersonation/stop': { ...IDENTITY_ONLY, user: 409, financial_manager: 409, admin_without_mfa: 409, admin_mfa_31_minutes_old: 409, admin_with_mfa: 409, admin_impersonating: 200 },
  'POST /api/admin/impersonation/start': FULL_GUARD,
  'GET /api/admin/impersonation': FULL_GUARD,
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

