import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminWithFreshMfa } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { call, createBusiness, signIn, signInAsAdmin, signInWithRole } from '../../../../test/support/payments';
import { expectError } from '../../../../test/support/verify-api';

let address = 0;
/** Each anonymous sender from their own address, so the per-address limit only trips where meant. */
const from = () => `10.88.0.${++address}`;

describeEachDialect('contact desk', (dialect) => {
  let t: TestApp;
  let fm: { cookie: string };
  let adminCookie: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    fm = await signInWithRole(t.ctx, t.app, 'financial_manager');
    ({ cookie: adminCookie } = await adminWithFreshMfa(t.app));
  });
  afterAll(async () => t?.close());

  const send = (body: Record<string, unknown>, cookie?: string, remoteAddress = from()) =>
    t.app.inject({ method: 'POST', url: '/api/contact', remoteAddress, headers: { origin: 'http://localhost:5000', ...(cookie ? { cookie } : {}) }, payload: body });

  describe('sending', () => {
    it('routes each category as DESIGN §8 says: technical answered by Luna at once, payment open for the desk, refund to the admin, general open', async () => {
      const expected = { technical: 'assigned_to_luna', payment: 'open', refund: 'escalated', general: 'open' } as const;
      for (const [category, status] of Object.entries(expected)) {
        const res = await send({ email: `${category}@example.com`, category, subject: `About ${category}`, message: 'What does a 402 mean for my API calls?' });
        expect(res.statusCode, category).toBe(201);
        const body = res.json();
        expect(body.reference).toMatch(/^SD-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
        expect(body.message).toMatchObject({ category, status });
        if (category === 'technical') {
          expect(body.message.lunaResponse).toContain('insufficient_credits');
          expect(body.message.escalatedTo).toBe('luna');
        } else expect(body.message.lunaResponse).toBeNull();
        if (category === 'refund') expect(body.message.escalatedTo).toBe('admin');
      }
    });

    it('validates every field with a clear message', async () => {
      for (const [body, field] of [
        [{ category: 'general', subject: 'x', message: 'y' }, 'email'],
        [{ email: 'not-an-email', subject: 'x', message: 'y' }, 'email'],
        [{ email: 'a@example.com', subject: ' ', message: 'y' }, 'subject'],
        [{ email: 'a@example.com', subject: 'x', message: '' }, 'message'],
        [{ email: 'a@example.com', subject: 'x', message: 'y', category: 'complaint' }, 'category'],
        [{ email: 'a@example.com', subject: 'x'.repeat(201), message: 'y' }, 'subject'],
      ] as const) {
        const res = await send(body);
        expectError(res, 400, 'validation_failed');
        expect(res.json().error.message, JSON.stringify(body)).toContain(field);
      }
      const missing = await send({ email: 'a@example.com', subject: '', message: '' });
      expect(missing.json().error.message).toContain('Please fill in subject and message');
    });

    it('limits one address to 5 messages in 10 minutes, and one account to 10 an hour', async () => {
      const ip = '10.99.0.1';
      for (let i = 0; i < 5; i++) expect((await send({ email: 'flood@example.com', subject: `s${i}`, message: 'm' }, undefined, ip)).statusCode).toBe(201);
      expectError(await send({ email: 'flood@example.com', subject: 's6', message: 'm' }, undefined, ip), 429, 'rate_limited');

      const cookie = await signIn(t.app, 'chatty@example.com');
      for (let i = 0; i < 10; i++) expect((await send({ subject: `s${i}`, message: 'm' }, cookie)).statusCode).toBe(201);
      const eleventh = await send({ subject: 's11', message: 'm' }, cookie);
      expectError(eleventh, 429, 'rate_limited');
      expect(eleventh.headers['retry-after']).toBe('3600');
    });
  });

  describe('reading', () => {
    it('shows a signed-in sender their own messages (their e-mail, not a typed one), and nobody else\'s', async () => {
      const owner = await createBusiness(t.app, 'Sender Co');
      const res = await send({ email: 'spoofed@example.com', category: 'payment', subject: 'UTR not credited', message: 'Paid yesterday' }, owner.cookie);
      expect(res.statusCode).toBe(201);
      const mine = (await call(t.app, 'GET', '/api/contact/mine', owner.cookie)).json().messages;
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ subject: 'UTR not credited', status: 'open' });
      const desk = (await call(t.app, 'GET', '/api/financial/contact-messages?status=open', fm.cookie)).json().messages;
      expect(desk.find((m: { id: string }) => m.id === mine[0].id)).toMatchObject({ email: owner.email, companyName: 'Sender Co', priority: 'urgent' });

      const other = await signIn(t.app, 'nosy@example.com');
      expect((await call(t.app, 'GET', '/api/contact/mine', other)).json().messages).toEqual([]);
      expect((await call(t.app, 'GET', '/api/contact/mine', undefined)).statusCode).toBe(401);
    });

    it('shows the status by reference only together with the sender\'s e-mail', async () => {
      const sent = (await send({ email: 'Asker@Example.com', category: 'technical', subject: 'Webhook signature', message: 'How do I verify a webhook signature?' })).json();
      const ok = await t.app.inject({ method: 'GET', url: `/api/contact/status?reference=${sent.reference.toLowerCase()}&email=asker@example.com` });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().message).toMatchObject({ reference: sent.reference, status: 'assigned_to_luna' });
      expect(ok.json().message.lunaResponse).toContain('HMAC-SHA256');
      expect(ok.json().message).not.toHaveProperty('email');
      expectError(await t.app.inject({ method: 'GET', url: `/api/contact/status?reference=${sent.reference}&email=someone@else.com` }), 404, 'not_found');
      expectError(await t.app.inject({ method: 'GET', url: '/api/contact/status?reference=SD-AAAA-AAAA&email=asker@example.com' }), 404, 'not_found');
    });
  });

  describe('the financial desk', () => {
    it('filters, escalates to Luna or the admin, closes with notes once, counts open messages from the rows; all audited', async () => {
      const before = (await call(t.app, 'GET', '/api/financial/stats', fm.cookie)).json().openMessages;
      const a = (await send({ email: 'pay@example.com', category: 'payment', subject: 'Double charge', message: 'I was charged twice' })).json().message;
      const b = (await send({ email: 'gen@example.com', category: 'general', subject: 'How do webhooks retry?', message: 'How do retries work for webhooks?' })).json().message;
      expect((await call(t.app, 'GET', '/api/financial/stats', fm.cookie)).json().openMessages).toBe(before + 2);

      const toAdmin = await call(t.app, 'POST', `/api/financial/escalate-message/${a.id}`, fm.cookie, { escalationType: 'admin' });
      expect(toAdmin.json().message).toMatchObject({ status: 'escalated', escalatedTo: 'admin' });
      const queue = (await call(t.app, 'GET', '/api/admin/dashboard', adminCookie)).json().escalatedMessages;
      expect(queue.items.map((m: { id: string }) => m.id)).toContain(a.id);
      const escalated = (await call(t.app, 'GET', '/api/financial/contact-messages?status=escalated', fm.cookie)).json().messages;
      expect(escalated.map((m: { id: string }) => m.id)).toContain(a.id);
      expect(escalated.every((m: { status: string }) => m.status === 'escalated')).toBe(true);

      const toLuna = await call(t.app, 'POST', `/api/financial/escalate-message/${b.id}`, fm.cookie, { escalationType: 'luna' });
      expect(toLuna.json().message).toMatchObject({ status: 'assigned_to_luna', escalatedTo: 'luna' });
      expect(toLuna.json().message.lunaResponse).toContain('retried');

      expectError(await call(t.app, 'POST', `/api/financial/close-message/${a.id}`, fm.cookie, { resolution: '   ' }), 400, 'validation_failed');
      const closed = await call(t.app, 'POST', `/api/financial/close-message/${a.id}`, fm.cookie, { resolution: 'Refunded the duplicate top-up' });
      expect(closed.json().message).toMatchObject({ status: 'closed', resolution: 'Refunded the duplicate top-up' });
      expectError(await call(t.app, 'POST', `/api/financial/close-message/${a.id}`, fm.cookie, { resolution: 'again' }), 409, 'conflict');
      expectError(await call(t.app, 'POST', `/api/financial/escalate-message/${a.id}`, fm.cookie, { escalationType: 'luna' }), 409, 'conflict');
      expectError(await call(t.app, 'POST', '/api/financial/close-message/msg_missing', fm.cookie, { resolution: 'x' }), 404, 'not_found');
      expect((await call(t.app, 'GET', '/api/financial/stats', fm.cookie)).json().openMessages).toBe(before + 1);

      const actions = (await t.ctx.db.selectFrom('audit_log').select('action').where('subject_id', 'in', [a.id, b.id]).execute()).map((r) => r.action);
      expect(actions).toEqual(expect.arrayContaining(['contact.submitted', 'contact.escalated', 'contact.closed']));
    });

    it('is for financial managers and the admin (with fresh MFA, reads included); others get 401/403', async () => {
      const msg = (await send({ email: 'authz@example.com', category: 'general', subject: 'Hi', message: 'Hello' })).json().message;
      expect((await call(t.app, 'GET', '/api/financial/contact-messages', undefined)).statusCode).toBe(401);
      const user = await signIn(t.app, 'plain-user@example.com');
      expectError(await call(t.app, 'GET', '/api/financial/contact-messages', user), 403, 'forbidden');
      expectError(await call(t.app, 'POST', `/api/financial/close-message/${msg.id}`, user, { resolution: 'x' }), 403, 'forbidden');

      const admin = await signInAsAdmin(t.ctx, t.app);
      expectError(await call(t.app, 'GET', '/api/financial/contact-messages', admin.cookie), 403, 'mfa_required');
      expect((await call(t.app, 'GET', '/api/financial/contact-messages', adminCookie)).statusCode).toBe(200);
      expectError(await call(t.app, 'POST', `/api/financial/close-message/${msg.id}`, admin.cookie, { resolution: 'no MFA' }), 403, 'mfa_required');
      expect((await call(t.app, 'POST', `/api/financial/close-message/${msg.id}`, adminCookie, { resolution: 'Answered by e-mail' })).statusCode).toBe(200);
    });
  });
});
