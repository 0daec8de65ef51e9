import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { ORIGIN } from '../../../../test/support/webhooks';
import { unsubscribeToken, UNSUBSCRIBE_KEY_PURPOSE } from './unsubscribe';

/** The preference page's API (signed in) and the unsubscribe links in mails (signed out). */
describeEachDialect('e-mail preferences and unsubscribe links', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let userId: string;
  const email = `prefs-${dialect}@example.com`;
  const tokenFor = (id: string, category: 'payments' | 'balance' | 'webhooks') => unsubscribeToken(t.ctx.secrets.deriveKey(UNSUBSCRIBE_KEY_PURPOSE), id, category);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    cookie = await signIn(t.app, email);
    userId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t?.close());

  const prefs = async () => (await t.app.inject({ method: 'GET', url: '/api/user/email-preferences', headers: { cookie } })).json();

  it('lists the categories a person may turn off, all on at first, and what is always sent', async () => {
    const body = await prefs();
    expect(body.email).toBe(email);
    expect(body.preferences.map((p: { category: string; enabled: boolean }) => [p.category, p.enabled])).toEqual([
      ['payments', true],
      ['balance', true],
      ['webhooks', true],
    ]);
    expect(body.alwaysSent.map((c: { label: string }) => c.label)).toEqual(['Your messages to us', 'Security notices']);
  });

  it('turns a category off and on again; security notices cannot be turned off', async () => {
    const off = await t.app.inject({ method: 'PUT', url: '/api/user/email-preferences', headers: { cookie, ...ORIGIN }, payload: { category: 'balance', enabled: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json().preferences.find((p: { category: string }) => p.category === 'balance').enabled).toBe(false);
    const security = await t.app.inject({ method: 'PUT', url: '/api/user/email-preferences', headers: { cookie, ...ORIGIN }, payload: { category: 'security', enabled: false } });
    expect(security.statusCode).toBe(400);
    const on = await t.app.inject({ method: 'PUT', url: '/api/user/email-preferences', headers: { cookie, ...ORIGIN }, payload: { category: 'balance', enabled: true } });
    expect(on.json().preferences.every((p: { enabled: boolean }) => p.enabled)).toBe(true);
  });

  it('refuses a write from another site (CSRF) and a signed-out read', async () => {
    const foreign = await t.app.inject({ method: 'PUT', url: '/api/user/email-preferences', headers: { cookie, origin: 'https://evil.example' }, payload: { category: 'balance', enabled: false } });
    expect(foreign.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/email-preferences' })).statusCode).toBe(401);
  });

  it('an unsubscribe link works signed out: it shows the category and a masked address, and turns only that category off', async () => {
    const token = tokenFor(userId, 'payments');
    const state = await t.app.inject({ method: 'GET', url: `/api/mail/unsubscribe?token=${token}` });
    expect(state.statusCode).toBe(200);
    expect(state.json()).toEqual({ category: 'payments', label: 'Payments', description: expect.any(String), maskedEmail: `p•••@example.com`, enabled: true });
    const off = await t.app.inject({ method: 'POST', url: '/api/mail/unsubscribe', headers: ORIGIN, payload: { token, enabled: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json().enabled).toBe(false);
    const after = await prefs();
    expect(after.preferences.map((p: { category: string; enabled: boolean }) => [p.category, p.enabled])).toEqual([
      ['payments', false],
      ['balance', true],
      ['webhooks', true],
    ]);
    // ... and back on from the same page
    expect((await t.app.inject({ method: 'POST', url: '/api/mail/unsubscribe', headers: ORIGIN, payload: { token, enabled: true } })).json().enabled).toBe(true);
    const audit = await t.ctx.db.selectFrom('audit_log').select(['action', 'actor_label']).where('subject_id', '=', userId).where('action', 'like', 'mail.%').execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['mail.category_off', 'mail.category_on']);
  });

  it('RFC 8058 one-click: a POST without cookie or Origin (a mail provider) turns the category off; a GET changes nothing', async () => {
    const token = tokenFor(userId, 'webhooks');
    expect((await t.app.inject({ method: 'GET', url: `/api/mail/one-click/${token}` })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await prefs()).preferences.find((p: { category: string }) => p.category === 'webhooks').enabled).toBe(true);
    const res = await t.app.inject({ method: 'POST', url: `/api/mail/one-click/${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(res.statusCode).toBe(204);
    expect((await prefs()).preferences.find((p: { category: string }) => p.category === 'webhooks').enabled).toBe(false);
    const multipart = await t.app.inject({
      method: 'POST',
      url: `/api/mail/one-click/${tokenFor(userId, 'balance')}`,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
    });
    expect(multipart.statusCode).toBe(204);
  });

  it('a tampered, forged or security token is refused with 404 and changes nothing', async () => {
    const other = await signIn(t.app, `victim-${dialect}@example.com`);
    expect(other).toBeTruthy();
    const victimId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', `victim-${dialect}@example.com`).executeTakeFirstOrThrow()).id;
    const mine = tokenFor(userId, 'balance');
    const [v, , c, mac] = mine.split('.');
    const swapped = [v, Buffer.from(victimId).toString('base64url'), c, mac].join('.');
    const security = [v, Buffer.from(victimId).toString('base64url'), 'security', mac].join('.');
    const wrongKey = unsubscribeToken(Buffer.alloc(32, 1), victimId, 'balance');
    for (const token of [swapped, security, wrongKey, `${mine}x`]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/mail/one-click/${token}` });
      expect(res.statusCode, token).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      expect((await t.app.inject({ method: 'GET', url: `/api/mail/unsubscribe?token=${token}` })).statusCode).toBe(404);
    }
    expect(await t.ctx.db.selectFrom('mail_preference').selectAll().where('user_id', '=', victimId).execute()).toEqual([]);
  });

  it('an administrator acting as the person cannot change their choices', async () => {
    const { impersonatingCookie } = await import('../../../../test/support/permissions');
    const acting = await impersonatingCookie(t, userId);
    const res = await t.app.inject({ method: 'PUT', url: '/api/user/email-preferences', headers: { cookie: acting, ...ORIGIN }, payload: { category: 'balance', enabled: false } });
    expect(res.statusCode).toBe(403);
  });
});
