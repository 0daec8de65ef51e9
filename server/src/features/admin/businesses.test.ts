import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { adminWithFreshMfa, get, ORIGIN, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { createBusiness } from '../../../../test/support/payments';
import { bearer, expectError } from '../../../../test/support/verify-api';
import { API_KEY_CACHE_TTL_MS } from '../business/api-keys';

describeEachDialect('admin: businesses and users', (dialect) => {
  let t: TestApp;
  let admin: string;
  let biz: Awaited<ReturnType<typeof createBusiness>>;
  let ownerId: string;
  const v1 = (apiKey: string) => t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(apiKey) });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ cookie: admin } = await adminWithFreshMfa(t.app));
    biz = await createBusiness(t.app, 'Overseen Ltd');
    ownerId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', biz.email).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t?.close());

  it('finds a business by name, id or owner e-mail and shows balance, ledger and key status', async () => {
    for (const q of ['overseen', biz.businessId, biz.email.toUpperCase()]) {
      const list = (await get(t.app, `/api/admin/businesses?q=${encodeURIComponent(q)}`, admin)).json();
      expect(list.businesses.map((b: { id: string }) => b.id), q).toContain(biz.businessId);
    }
    const detail = (await get(t.app, `/api/admin/businesses/${biz.businessId}`, admin)).json();
    expect(detail.business).toMatchObject({ id: biz.businessId, companyName: 'Overseen Ltd', ownerEmail: biz.email, ownerStatus: 'active', balance: '0.00', suspended: null, apiKey: { prefix: expect.any(String) } });
    expect(biz.apiKey.startsWith(detail.business.apiKey.prefix)).toBe(true);
    expect(detail.ledger).toEqual([]);
    expectError(await get(t.app, '/api/admin/businesses/biz_missing', admin), 404, 'not_found');
  });

  it('grants credit with a reason (ledger row + audit) and refuses a bad amount or no reason', async () => {
    const res = await post(t.app, `/api/admin/businesses/${biz.businessId}/grant`, admin, { amountRupees: 250.5, reason: 'goodwill for ticket 7' });
    expect(res.json()).toEqual({ balance: '250.50', verificationsLeft: 2505 });
    const detail = (await get(t.app, `/api/admin/businesses/${biz.businessId}`, admin)).json();
    expect(detail.ledger[0]).toMatchObject({ kind: 'grant', amount: '250.50', reason: 'goodwill for ticket 7' });
    expectError(await post(t.app, `/api/admin/businesses/${biz.businessId}/grant`, admin, { amountRupees: 1.234, reason: 'x y z' }), 400, 'validation_failed');
    expectError(await post(t.app, `/api/admin/businesses/${biz.businessId}/grant`, admin, { amountRupees: -5, reason: 'x y z' }), 400, 'validation_failed');
    expectError(await post(t.app, `/api/admin/businesses/${biz.businessId}/grant`, admin, { amountRupees: 5 }), 400, 'validation_failed');
    const audit = await t.ctx.db.selectFrom('audit_log').select('action').where('subject_id', '=', biz.businessId).execute();
    expect(audit.map((a) => a.action)).toContain('credits.granted');
  });

  it('sets the per-key rate limit, which the public API then reports', async () => {
    expect((await post(t.app, `/api/admin/businesses/${biz.businessId}/rate-limit`, admin, { perMinute: 42 })).json()).toEqual({ rateLimitPerMinute: 42 });
    const profile = await t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(biz.apiKey) });
    expect(profile.json().rate_limit).toMatchObject({ requests_per_minute: 42 });
    expectError(await post(t.app, `/api/admin/businesses/${biz.businessId}/rate-limit`, admin, { perMinute: 0 }), 400, 'validation_failed');
  });

  it('suspends API access at once (403 suspended with a clear message) and restores it; both audited', async () => {
    expect((await v1(biz.apiKey)).statusCode).toBe(200);
    const suspended = await post(t.app, `/api/admin/businesses/${biz.businessId}/suspend`, admin, { reason: 'chargeback under review' });
    expect(suspended.json().business.suspended).toMatchObject({ reason: 'chargeback under review' });
    const refused = await v1(biz.apiKey);
    expectError(refused, 403, 'suspended');
    expect(refused.json().error.message).toBe('API access for this account is suspended. Contact support.');
    const verify = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { secret: 'JBSWY3DPEHPK3PXP', token: '123456' } });
    expectError(verify, 403, 'suspended');
    expectError(await post(t.app, `/api/admin/businesses/${biz.businessId}/suspend`, admin, { reason: 'again please' }), 409, 'conflict');
    expect((await post(t.app, `/api/admin/businesses/${biz.businessId}/restore`, admin, {})).json().business.suspended).toBeNull();
    expect((await v1(biz.apiKey)).statusCode).toBe(200);
    const actions = (await t.ctx.db.selectFrom('audit_log').select('action').where('subject_id', '=', biz.businessId).execute()).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['business.suspended', 'business.restored', 'business.rate_limit_set']));
  });

  it('banning the owner signs them out and stops their key at once; unbanning restores the key; the admin cannot be banned', async () => {
    const ban = await post(t.app, `/api/admin/users/${ownerId}/ban`, admin, { reason: 'fraudulent sign-ups' });
    expect(ban.json()).toEqual({ user: { id: ownerId, email: biz.email, status: 'banned' } });
    expectError(await v1(biz.apiKey), 403, 'suspended');
    expect((await get(t.app, '/api/business/profile', biz.cookie)).statusCode).toBe(401);
    expect((await get(t.app, `/api/admin/businesses/${biz.businessId}`, admin)).json().business.ownerStatus).toBe('banned');
    expect((await post(t.app, `/api/admin/users/${ownerId}/unban`, admin, {})).json().user.status).toBe('active');
    expect((await v1(biz.apiKey)).statusCode).toBe(200);
    const adminId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()).id;
    expectError(await post(t.app, `/api/admin/users/${adminId}/ban`, admin, { reason: 'locking myself out' }), 409, 'conflict');
  });

  it('a removed owner takes the key with them (401) within the key cache\'s bound', async () => {
    const other = await createBusiness(t.app, 'Removed Owner Co');
    expect((await v1(other.apiKey)).statusCode).toBe(200);
    // Removed straight from the database (no service call to invalidate the key cache).
    await t.ctx.db.deleteFrom('session').where('userId', 'in', t.ctx.db.selectFrom('user').select('id').where('email', '=', other.email)).execute();
    await t.ctx.db.deleteFrom('user').where('email', '=', other.email).execute();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + API_KEY_CACHE_TTL_MS + 1 });
    try {
      expectError(await v1(other.apiKey), 401, 'unauthorized');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses every write without a fresh MFA and from a foreign origin', async () => {
    const write = await t.app.inject({ method: 'POST', url: `/api/admin/businesses/${biz.businessId}/suspend`, headers: { cookie: admin, origin: 'https://evil.example' }, payload: { reason: 'csrf attempt' } });
    expectError(write, 403, 'forbidden_origin');
    await t.ctx.db.updateTable('admin_mfa_session').set({ verified_at: new Date(Date.now() - 31 * 60_000) }).execute();
    expectError(await t.app.inject({ method: 'POST', url: `/api/admin/businesses/${biz.businessId}/suspend`, headers: { cookie: admin, origin: ORIGIN }, payload: { reason: 'stale mfa' } }), 403, 'mfa_required');
  });
});
