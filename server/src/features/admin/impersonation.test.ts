import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminWithFreshMfa, get, ORIGIN, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { verifiedAdminSession } from '../../../../test/support/permissions';
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
      expectError(await post(t.app, '/api/business/api-key/regenerate', acting), 403, 'impersonation_forbidden');
      // Nor the test key: it is a secret like the live one.
      expectError(await post(t.app, '/api/business/api-key/regenerate?mode=test', acting), 403, 'impersonation_forbidden');
      expectError(await get(t.app, '/api/webhooks', acting), 403, 'impersonation_forbidden');
      expectError(await post(t.app, '/api/webhooks', acting, { url: 'https://example.com/hook', events: ['verification.success'] }), 403, 'impersonation_forbidden');
      expectError(await t.app.inject({ method: 'DELETE', url: '/api/webhooks/wh_x', headers: { cookie: acting, origin: ORIGIN } }), 403, 'impersonation_forbidden');
      expectError(await t.app.inject({ method: 'PATCH', url: '/api/webhooks/wh_x/toggle', headers: { cookie: acting, origin: ORIGIN }, payload: { isActive: false } }), 403, 'impersonation_forbidden');
      expectError(await get(t.app, '/api/business/static-qr-options', acting), 403, 'impersonation_forbidden');
      expectError(
        await t.app.inject({ method: 'PUT', url: '/api/business/auto-refill', headers: { cookie: acting, origin: ORIGIN }, payload: { enabled: true, thresholdRupees: 500, packId: 'basic' } }),
        403,
        'impersonation_forbidden',
      );
      expectError(await get(t.app, '/api/user/totp-accounts', acting), 403, 'impersonation_forbidden');
      expectError(await get(t.app, '/api/user/vault', acting), 403, 'impersonation_forbidden');
      expectError(await get(t.app, '/api/admin/users', acting), 403, 'impersonation_forbidden');
      expectError(await post(t.app, '/api/admin/impersonation/start', acting, { userId: ownerId, reason: 'nested' }), 403, 'impersonation_forbidden');
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

describeEachDialect('impersonation: no secrets, no hidden notices, one at a time, ended by sign-out', (dialect) => {
  let t: TestApp;
  let plain: { email: string; cookie: string; id: string };
  let other: { email: string; cookie: string; id: string };
  const userIdOf = async (email: string) => (await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await adminWithFreshMfa(t.app);
    const plainCookie = await signIn(t.app, 'no-business@example.com', 'Noah Business');
    plain = { email: 'no-business@example.com', cookie: plainCookie, id: await userIdOf('no-business@example.com') };
    const otherCookie = await signIn(t.app, 'second-user@example.com', 'Sam Second');
    other = { email: 'second-user@example.com', cookie: otherCookie, id: await userIdOf('second-user@example.com') };
  });
  afterAll(async () => t?.close());

  /** A verified admin session of its own, and that session acting as `userId`. */
  async function startAs(userId: string, reason = 'support ticket') {
    const admin = await verifiedAdminSession(t);
    const res = await post(t.app, '/api/admin/impersonation/start', admin, { userId, reason });
    return { admin, res, acting: cookieAfter(res, admin) };
  }
  const liveRows = () => t.ctx.db.selectFrom('impersonation').selectAll().where('ended_at', 'is', null).execute();
  const noticesOf = async (cookie: string) => (await get(t.app, '/api/user/notices', cookie)).json().notices as Array<{ id: string; readAt: string | null }>;

  it('refuses creating a business for a user who has none (the answer would hold the full API key)', async () => {
    const { res, acting } = await startAs(plain.id);
    expect(res.statusCode).toBe(200);
    const created = await post(t.app, '/api/business/create', acting, { companyName: 'Taken Over Ltd' });
    expectError(created, 403, 'impersonation_forbidden');
    expect(created.body).not.toContain('sk_live_');
    expect(await t.ctx.db.selectFrom('business').select('id').where('owner_user_id', '=', plain.id).execute()).toEqual([]);
    expect((await post(t.app, '/api/admin/impersonation/stop', acting, {})).statusCode).toBe(200);
    // The person themself still can.
    expect((await post(t.app, '/api/business/create', plain.cookie, { companyName: 'My Own Ltd' })).statusCode).toBe(201);
  });

  it("refuses marking the user's notices read while acting as them (the \"an administrator signed in as you\" notice stays unread)", async () => {
    // One impersonation over (its notice now shown), a second one running.
    const earlier = await startAs(plain.id, 'earlier visit');
    expect((await post(t.app, '/api/admin/impersonation/stop', earlier.acting, {})).statusCode).toBe(200);
    const [notice] = await noticesOf(plain.cookie);
    expect(notice).toMatchObject({ readAt: null });
    const { acting } = await startAs(plain.id);
    expectError(await post(t.app, `/api/user/notices/${notice!.id}/read`, acting), 403, 'impersonation_forbidden');
    expect((await post(t.app, '/api/admin/impersonation/stop', acting, {})).statusCode).toBe(200);
    expect((await noticesOf(plain.cookie)).every((n) => n.readAt === null)).toBe(true);
  });

  it('ends the impersonation on sign-out as /stop does: row closed, audited, the notice shown now, both sessions signed out', async () => {
    const before = (await noticesOf(plain.cookie)).length;
    const { admin, res, acting } = await startAs(plain.id, 'sign-out check');
    const { impersonation } = res.json();
    const out = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie: acting, 'sec-fetch-site': 'same-origin' } });
    expect(out.statusCode).toBe(302);

    const row = await t.ctx.db.selectFrom('impersonation').selectAll().where('id', '=', impersonation.id).executeTakeFirstOrThrow();
    expect(row.ended_at).not.toBeNull();
    const ended = await t.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'impersonation.ended').execute();
    expect(ended.filter((e) => JSON.stringify(e.details).includes(impersonation.id))).toHaveLength(1);
    const notices = await noticesOf(plain.cookie);
    expect(notices).toHaveLength(before + 1);
    expect(notices[0]).toMatchObject({ reason: 'sign-out check', readAt: null });
    // Neither the impersonation's session nor the administrator's own one outlives the click.
    expect((await get(t.app, '/api/auth/user', acting)).statusCode).toBe(401);
    expect((await get(t.app, '/api/auth/user', admin)).statusCode).toBe(401);
    // The browser applies Set-Cookie in order: the last word on the session cookie clears it.
    expect(out.cookies.filter((c) => c.name.endsWith('session_token')).at(-1)?.value).toBe('');
  });

  it("still ends it on sign-out when the administrator's own session is already gone", async () => {
    const { admin, res, acting } = await startAs(plain.id, 'admin session lost');
    const token = decodeURIComponent(admin.match(/session_token=([^;]+)/)![1]!).split('.')[0]!;
    await t.ctx.db.deleteFrom('session').where('token', '=', token).execute();
    const out = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie: acting, 'sec-fetch-site': 'same-origin' } });
    expect(out.statusCode).toBe(302);
    const row = await t.ctx.db.selectFrom('impersonation').select('ended_at').where('id', '=', res.json().impersonation.id).executeTakeFirstOrThrow();
    expect(row.ended_at).not.toBeNull();
    expect((await get(t.app, '/api/auth/user', acting)).statusCode).toBe(401);
  });

  it('lets only one impersonation run: a second admin session gets 409 impersonation_active and sees the live one', async () => {
    const first = await startAs(plain.id, 'first one');
    expect(first.res.statusCode).toBe(200);
    const second = await verifiedAdminSession(t);
    const refused = await post(t.app, '/api/admin/impersonation/start', second, { userId: other.id, reason: 'second one' });
    expectError(refused, 409, 'impersonation_active');
    expect(refused.json().error.message).toContain(plain.email);
    expect(refused.cookies).toEqual([]);
    // The refused attempt left no session acting as the other user.
    expect(await t.ctx.db.selectFrom('session').select('id').where('userId', '=', other.id).where('impersonatedBy', 'is not', null).execute()).toEqual([]);
    const live = await get(t.app, '/api/admin/impersonation', second);
    expect(live.statusCode).toBe(200);
    expect(live.json().live).toMatchObject({ adminEmail: ADMIN, userEmail: plain.email, reason: 'first one', startedAt: first.res.json().impersonation.startedAt, expiresAt: first.res.json().impersonation.expiresAt });

    expect((await post(t.app, '/api/admin/impersonation/stop', first.acting, {})).statusCode).toBe(200);
    expect((await get(t.app, '/api/admin/impersonation', second)).json()).toEqual({ live: null });
    const next = await post(t.app, '/api/admin/impersonation/start', second, { userId: other.id, reason: 'second one' });
    expect(next.statusCode).toBe(200);
    expect((await post(t.app, '/api/admin/impersonation/stop', cookieAfter(next, second), {})).statusCode).toBe(200);
  });

  it('lets exactly one of two simultaneous starts through (the database holds the rule, not a check before the insert)', async () => {
    const sessions = await Promise.all([verifiedAdminSession(t), verifiedAdminSession(t), verifiedAdminSession(t)]);
    const answers = await Promise.all(sessions.map((admin, i) => post(t.app, '/api/admin/impersonation/start', admin, { userId: i % 2 ? other.id : plain.id, reason: `race ${i}` })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await liveRows()).toHaveLength(1);
    expect(await t.ctx.db.selectFrom('session').select('id').where('impersonatedBy', 'is not', null).execute()).toHaveLength(1);
    const winner = answers.findIndex((a) => a.statusCode === 200);
    expect((await post(t.app, '/api/admin/impersonation/stop', cookieAfter(answers[winner]!, sessions[winner]!), {})).statusCode).toBe(200);
  });

  it('does not let an expired impersonation block the next one', async () => {
    const { res } = await startAs(other.id, 'will expire');
    expect(res.statusCode).toBe(200);
    await t.ctx.db.updateTable('impersonation').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', res.json().impersonation.id).execute();
    const { res: next, acting } = await startAs(plain.id, 'after expiry');
    expect(next.statusCode).toBe(200);
    expect((await liveRows()).map((r) => r.id)).toEqual([next.json().impersonation.id]);
    expect((await post(t.app, '/api/admin/impersonation/stop', acting, {})).statusCode).toBe(200);
  });
});
