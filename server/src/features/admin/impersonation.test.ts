import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminWithFreshMfa, get, ORIGIN, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { createBusiness } from '../../../../test/support/payments';

const expectError = (res: { statusCode: number; json: () => { error: { code: string } } }, status: number, code: string) => {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  expect(res.json().error.code).toBe(code);
};

/** The session cookie after a response that replaced it (impersonation start/stop). */
function cookieAfter(res: { cookies: Array<{ name: string; value: string }> }, before: string): string {
  const jar = new Map(before.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const));
  for (const c of res.cookies) {
    if (c.value === '') jar.delete(c.name);
    else jar.set(c.name, c.value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

describeEachDialect('impersonation', (dialect) => {
  let t: TestApp;
  let admin: string;
  let owner: { email: string; cookie: string; businessId: string };
  let ownerId: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ cookie: admin } = await adminWithFreshMfa(t.app));
    owner = await createBusiness(t.app, 'Impersonated Co');
    ownerId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', owner.email).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t?.close());

  it('finds users by e-mail, business name or id, case-insensitively', async () => {
    for (const q of [owner.email.toUpperCase(), 'impersonated co', ownerId, owner.businessId]) {
      const res = await get(t.app, `/api/admin/users?q=${encodeURIComponent(q)}`, admin);
      expect(res.statusCode).toBe(200);
      const found = res.json().users.find((u: { email: string }) => u.email === owner.email);
      expect(found, q).toMatchObject({ id: ownerId, role: 'user', status: 'active', business: { id: owner.businessId, companyName: 'Impersonated Co' } });
    }
    expect((await get(t.app, '/api/admin/users?q=nobody-matches-this', admin)).json().users).toEqual([]);
  });

  it('needs a reason and an existing user, and never the administrator themself', async () => {
    expectError(await post(t.app, '/api/admin/impersonation/start', admin, { userId: ownerId }), 400, 'validation_failed');
    expectError(await post(t.app, '/api/admin/impersonation/start', admin, { userId: 'usr_missing', reason: 'support ticket 42' }), 404, 'not_found');
    const adminId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', ADMIN).executeTakeFirstOrThrow()).id;
    expectError(await post(t.app, '/api/admin/impersonation/start', admin, { userId: adminId, reason: 'just looking' }), 409, 'conflict');
  });

  describe('a session acting as the owner', () => {
    let acting: string;

    it('starts with a reason: the cookie now acts as the owner, with the admin recorded beside, for 30 minutes', async () => {
      const res = await post(t.app, '/api/admin/impersonation/start', admin, { userId: ownerId, reason: 'ticket 42: dashboard looks empty' });
      expect(res.statusCode).toBe(200);
      const { impersonation } = res.json();
      expect(impersonation).toMatchObject({ adminEmail: ADMIN, userEmail: owner.email, reason: 'ticket 42: dashboard looks empty' });
      const minutes = (Date.parse(impersonation.expiresAt) - Date.parse(impersonation.startedAt)) / 60_000;
      expect(minutes).toBeGreaterThan(29);
      expect(minutes).toBeLessThanOrEqual(30.1);
      acting = cookieAfter(res, admin);
      const me = (await get(t.app, '/api/auth/user', acting)).json();
      expect(me).toMatchObject({ email: owner.email, isAdmin: false, impersonation: { adminEmail: ADMIN, reason: 'ticket 42: dashboard looks empty' } });
      expect((await get(t.app, '/api/business/profile', acting)).json()).toMatchObject({ id: owner.businessId });
    });

    it('refuses payments, key regeneration, webhooks, payment settings, secrets and admin tools while it lasts', async () => {
      expectError(await post(t.app, '/api/business/api-key/regenerate', acting), 403, 'forbidden');
      expectError(await get(t.app, '/api/webhooks', acting), 403, 'forbidden');
      expectError(await post(t.app, '/api/webhooks', acting, { url: 'https://example.com/hook', events: ['verification.success'] }), 403, 'forbidden');
      expectError(await t.app.inject({ method: 'DELETE', url: '/api/webhooks/wh_x', headers: { cookie: acting, origin: ORIGIN } }), 403, 'forbidden');
      expectError(await t.app.inject({ method: 'PATCH', url: '/api/webhooks/wh_x/toggle', headers: { cookie: acting, origin: ORIGIN }, payload: { isActive: false } }), 403, 'forbidden');
      expectError(await get(t.app, '/api/business/static-qr-options', acting), 403, 'forbidden');
      expectError(
        await t.app.inject({ method: 'PUT', url: '/api/business/auto-refill', headers: { cookie: acting, origin: ORIGIN }, payload: { enabled: true, thresholdRupees: 500, packId: 'basic' } }),
        403,
        'forbidden',
      );
      expectError(await get(t.app, '/api/user/totp-accounts', acting), 403, 'forbidden');
      expectError(await get(t.app, '/api/user/vault', acting), 403, 'forbidden');
      expectError(await get(t.app, '/api/admin/users', acting), 403, 'forbidden');
      expectError(await post(t.app, '/api/admin/impersonation/start', acting, { userId: ownerId, reason: 'nested' }), 403, 'forbidden');
      // The library's own account endpoints (rename, sessions) are not routed at all.
      for (const url of ['/api/auth/update-user', '/api/auth/list-sessions', '/api/auth/revoke-sessions']) {
        expect((await post(t.app, url, acting, { name: 'Renamed' })).statusCode, url).toBe(404);
      }
    });

    it('audits every write made while impersonating, with the administrator as the actor (refused writes are not writes)', async () => {
      await t.ctx.db
        .insertInto('notification')
        .values({ id: 'ntf_imp_test', business_id: owner.businessId, kind: 'payment_approved', title: 'Payment approved', message: 'x', subject_id: null, created_at: new Date(), read_at: null })
        .execute();
      expect((await post(t.app, '/api/business/notifications/ntf_imp_test/read', acting)).statusCode).toBe(200);
      expect((await post(t.app, '/api/user/vault', acting, { vaultId: 'vault_imp_1', format: 1, slots: [] })).statusCode).toBe(403);
      const writes = await t.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'impersonation.write').execute();
      expect(writes).toHaveLength(1);
      const adminId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', ADMIN).executeTakeFirstOrThrow()).id;
      expect(writes[0]).toMatchObject({ actor_user_id: adminId, actor_label: `impersonating ${owner.email}`, subject_id: ownerId });
      expect(JSON.stringify(writes[0]!.details)).toContain('/api/business/notifications/:id/read');
      const start = await t.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'impersonation.started').executeTakeFirstOrThrow();
      expect(start.actor_label).toBe(ADMIN);
      expect(start.subject_id).toBe(ownerId);
    });

    it('hides the notice from the owner while it lasts', async () => {
      expect((await get(t.app, '/api/user/notices', owner.cookie)).json().notices).toEqual([]);
    });

    it('stops: back to the administrator, audited, and the owner sees who, when and why', async () => {
      const res = await post(t.app, '/api/admin/impersonation/stop', acting, {});
      expect(res.statusCode).toBe(200);
      const back = cookieAfter(res, acting);
      const me = (await get(t.app, '/api/auth/user', back)).json();
      expect(me).toMatchObject({ email: ADMIN, isAdmin: true, impersonation: null });
      // The administrator's own session, with its MFA, is back.
      expect((await get(t.app, '/api/admin/users', back)).statusCode).toBe(200);
      expect((await get(t.app, '/api/business/profile', acting)).statusCode).toBe(401);

      const actions = (await t.ctx.db.selectFrom('audit_log').select('action').where('subject_id', '=', ownerId).execute()).map((r) => r.action);
      expect(actions).toEqual(expect.arrayContaining(['impersonation.started', 'impersonation.ended']));

      const notices = (await get(t.app, '/api/user/notices', owner.cookie)).json().notices;
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ kind: 'impersonation', adminEmail: ADMIN, reason: 'ticket 42: dashboard looks empty', readAt: null });
      expect(notices[0].message).toContain(ADMIN);
      expect((await post(t.app, `/api/user/notices/${notices[0].id}/read`, owner.cookie)).statusCode).toBe(200);
      expect((await get(t.app, '/api/user/notices', owner.cookie)).json().notices[0].readAt).not.toBeNull();
    });

    it('answers 409 when nobody is being impersonated, and a stranger cannot read or mark the owner\'s notices', async () => {
      expectError(await post(t.app, '/api/admin/impersonation/stop', owner.cookie, {}), 409, 'conflict');
      const stranger = await createBusiness(t.app, 'Stranger Co');
      expect((await get(t.app, '/api/user/notices', stranger.cookie)).json().notices).toEqual([]);
      const id = (await get(t.app, '/api/user/notices', owner.cookie)).json().notices[0].id;
      expectError(await post(t.app, `/api/user/notices/${id}/read`, stranger.cookie), 404, 'not_found');
    });
  });
});
