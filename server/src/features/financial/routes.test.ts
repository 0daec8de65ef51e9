import { adminWithFreshMfa } from '../../../../test/support/admin';
import { verifiedAdminSession } from '../../../../test/support/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import {
  call,
  createBusiness,
  impersonate,
  signInAsAdmin,
  signInWithRole,
  submitPayment,
} from '../../../../test/support/payments';
import { balancePaise, bearer, expectError, totpCode, unique } from '../../../../test/support/verify-api';
import { listAuditEntries } from '../audit/repo';
import { isUniqueViolation } from '../../db/errors';
import type { AppError } from '../../lib/errors';
import { appendCredit, listLedger } from '../credits/repo';
import { decidePending } from '../payments/repo';
import { setUserRole } from '../users/service';
import { approvePayment, startOfIstDay } from './service';

const DENIED = "You don't have permission to access this area.";

describeEachDialect('financial manager desk', (dialect) => {
  let t: TestApp;
  let fm: { cookie: string; email: string; userId: string };
  let fm2: { cookie: string; email: string; userId: string };
  let admin: { cookie: string; email: string; userId: string };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [fm, fm2, admin] = await Promise.all([
      signInWithRole(t.ctx, t.app, 'financial_manager'),
      signInWithRole(t.ctx, t.app, 'financial_manager'),
      signInAsAdmin(t.ctx, t.app),
    ]);
  });
  afterAll(async () => t?.close());

  const get = (url: string, cookie?: string) => call(t.app, 'GET', url, cookie);
  const post = (url: string, cookie: string | undefined, payload?: unknown, headers?: Record<string, string>) => call(t.app, 'POST', url, cookie, payload, headers);
  const approve = (id: string, cookie = fm.cookie, payload?: unknown) => post(`/api/financial/approve-payment/${id}`, cookie, payload);
  const reject = (id: string, cookie = fm.cookie, payload?: unknown) => post(`/api/financial/reject-payment/${id}`, cookie, payload);
  const ledgerFor = async (businessId: string) => (await listLedger(t.ctx.db, businessId)).filter((e) => e.kind === 'top_up');

  describe('access', () => {
    const routes: Array<['GET' | 'POST', string]> = [
      ['GET', '/api/financial/pending-approvals'],
      ['GET', '/api/financial/stats'],
      ['GET', '/api/financial/recent'],
      ['POST', '/api/financial/approve-payment/pmt_x'],
      ['POST', '/api/financial/reject-payment/pmt_x'],
    ];

    it('answers 401 signed out and 403 with the spec message to a regular user or business', async () => {
      const biz = await createBusiness(t.app, 'Curious Co');
      for (const [method, url] of routes) {
        expectError(await call(t.app, method, url, undefined, method === 'POST' ? { reason: 'x' } : undefined), 401, 'unauthorized');
        const denied = await call(t.app, method, url, biz.cookie, method === 'POST' ? { reason: 'x' } : undefined);
        expectError(denied, 403, 'forbidden');
        expect(denied.json().error.message).toBe(DENIED);
      }
    });

    const READS = ['/api/financial/pending-approvals', '/api/financial/stats', '/api/financial/recent', '/api/financial/contact-messages'];

    it('opens every read to a financial manager as they are, and to the administrator only with a fresh MFA', async () => {
      for (const url of READS) expect((await get(url, fm.cookie)).statusCode, url).toBe(200);
      // The admin's cookie alone (stolen, or a session not verified in the last 30 minutes) reads nothing.
      for (const url of READS) expectError(await get(url, admin.cookie), 403, 'mfa_required');
      const verified = await verifiedAdminSession(t);
      for (const url of READS) expect((await get(url, verified)).statusCode, url).toBe(200);
    });

    it('closes the desk at once when the role is taken away, and opens it when given (same session)', async () => {
      const person = await signInWithRole(t.ctx, t.app, 'financial_manager');
      const biz = await createBusiness(t.app, 'Role Loss Co');
      const payment = await submitPayment(t.app, biz.cookie);
      expect((await get('/api/financial/pending-approvals', person.cookie)).statusCode).toBe(200);

      await setUserRole(t.ctx.db, t.ctx.config.adminEmail, { email: person.email, role: 'user' }, { userId: null, label: 'test' });
      const denied = await get('/api/financial/pending-approvals', person.cookie);
      expectError(denied, 403, 'forbidden');
      expect(denied.json().error.message).toBe(DENIED);
      expectError(await approve(payment.id, person.cookie), 403, 'forbidden');
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);

      await setUserRole(t.ctx.db, t.ctx.config.adminEmail, { email: person.email, role: 'financial_manager' }, { userId: null, label: 'test' });
      expect((await get('/api/financial/pending-approvals', person.cookie)).statusCode).toBe(200);
    });

    it('refuses desk decisions from another site (foreign Origin → 403)', async () => {
      const biz = await createBusiness(t.app, 'CSRF Target');
      const payment = await submitPayment(t.app, biz.cookie);
      expectError(await post(`/api/financial/approve-payment/${payment.id}`, fm.cookie, {}, { origin: 'https://evil.example' }), 403, 'forbidden_origin');
      expectError(await post(`/api/financial/reject-payment/${payment.id}`, fm.cookie, { reason: 'x' }, { origin: 'https://evil.example' }), 403, 'forbidden_origin');
      expect((await get('/api/business/payment-requests', biz.cookie)).json()[0].status).toBe('pending');
    });

    it('refuses approvals and rejections while an administrator impersonates a financial manager', async () => {
      const person = await signInWithRole(t.ctx, t.app, 'financial_manager');
      const biz = await createBusiness(t.app, 'Impersonation Target');
      const payment = await submitPayment(t.app, biz.cookie);
      await impersonate(t.ctx, person.email, admin.userId);
      const res = await approve(payment.id, person.cookie);
      expectError(res, 403, 'impersonation_forbidden');
      expect(res.json().error.message).toBe('Payments cannot be approved or rejected while impersonating a user.');
      expectError(await reject(payment.id, person.cookie, { reason: 'nope' }), 403, 'impersonation_forbidden');
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
    });

    it('does not let a financial manager decide a payment for their own business', async () => {
      const own = await signInWithRole(t.ctx, t.app, 'financial_manager');
      const created = await call(t.app, 'POST', '/api/business/create', own.cookie, { companyName: 'Self Dealing Pvt Ltd' });
      expect(created.statusCode).toBe(201);
      const payment = await submitPayment(t.app, own.cookie);
      expectError(await approve(payment.id, own.cookie), 403, 'forbidden');
      expectError(await reject(payment.id, own.cookie, { reason: 'x' }), 403, 'forbidden');
      expect((await approve(payment.id, fm.cookie)).statusCode).toBe(200);
    });
  });

  describe('pending approvals, stats and recent', () => {
    it('lists pending payments oldest first with the business, method, amount, reference, UTR, notes and payee account', async () => {
      const biz = await createBusiness(t.app, 'Queue Co');
      const first = await submitPayment(t.app, biz.cookie, { notes: 'From our ICICI account' });
      const second = await submitPayment(t.app, biz.cookie, { paymentMethod: 'bank_transfer' });
      const list = (await get('/api/financial/pending-approvals', fm.cookie)).json() as Array<Record<string, unknown>>;
      const ours = list.filter((p) => p.businessId === biz.businessId);
      expect(ours.map((p) => p.id)).toEqual([first.id, second.id]);
      expect(ours[0]).toEqual({
        id: first.id,
        businessId: biz.businessId,
        companyName: 'Queue Co',
        businessEmail: biz.email,
        paymentMethod: 'UPI',
        amount: '5000.00',
        packId: 'basic',
        paymentReference: first.paymentReference,
        verificationCode: expect.stringMatching(/^[2-9A-HJKMNP-Z]{6}$/),
        utr: first.utr,
        notes: 'From our ICICI account',
        bankAccountDetails: 'UPI sixdigit.demo@invalid (Sixdigit Demo Payee — do not pay)',
        status: 'pending',
        reason: null,
        decisionNotes: null,
        processedBy: null,
        processedAt: null,
        createdAt: expect.any(String),
        duplicateUtr: [],
      });
      expect(ours[1]).toMatchObject({ paymentMethod: 'Bank transfer', bankAccountDetails: expect.stringContaining('Demo Bank') });
      // Oldest first across the whole queue.
      const times = list.map((p) => p.createdAt as string);
      expect([...times].sort()).toEqual(times);
    });

    it('counts pending approvals, their total and today\'s approvals; open messages are 0 until the contact desk exists', async () => {
      const before = (await get('/api/financial/stats', fm.cookie)).json();
      expect(Object.keys(before).sort()).toEqual(['openMessages', 'pendingApprovals', 'todayApprovals', 'todayApprovedAmount', 'totalAmount']);
      expect(before.openMessages).toBe(0);
      const biz = await createBusiness(t.app, 'Stats Co');
      const a = await submitPayment(t.app, biz.cookie);
      const b = await submitPayment(t.app, biz.cookie);
      const mid = (await get('/api/financial/stats', fm.cookie)).json();
      expect(mid.pendingApprovals).toBe(before.pendingApprovals + 2);
      expect(Number(mid.totalAmount)).toBe(Number(before.totalAmount) + 10_000);
      expect((await approve(a.id)).statusCode).toBe(200);
      expect((await reject(b.id, fm.cookie, { reason: 'Not received' })).statusCode).toBe(200);
      const after = (await get('/api/financial/stats', fm2.cookie)).json();
      expect(after).toMatchObject({
        pendingApprovals: before.pendingApprovals,
        totalAmount: before.totalAmount,
        todayApprovals: before.todayApprovals + 1,
        todayApprovedAmount: (Number(before.todayApprovedAmount) + 5000).toFixed(2),
        openMessages: 0,
      });
    });

    it('starts "today" at midnight India time', () => {
      expect(startOfIstDay(new Date('2026-03-10T18:29:59.999Z')).toISOString()).toBe('2026-03-09T18:30:00.000Z');
      expect(startOfIstDay(new Date('2026-03-10T18:30:00.000Z')).toISOString()).toBe('2026-03-10T18:30:00.000Z');
      expect(startOfIstDay(new Date('2026-03-10T00:00:00.000Z')).toISOString()).toBe('2026-03-09T18:30:00.000Z');
    });

    it('shows the recently processed payments, newest first, 5 by default, with the decision', async () => {
      const biz = await createBusiness(t.app, 'Recent Co');
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const p = await submitPayment(t.app, biz.cookie);
        ids.push(p.id);
        if (i % 2 === 0) expect((await approve(p.id, fm.cookie, { notes: `ok ${i}` })).statusCode).toBe(200);
        else expect((await reject(p.id, fm2.cookie, { reason: `bad ${i}` })).statusCode).toBe(200);
      }
      const recent = (await get('/api/financial/recent', fm.cookie)).json() as Array<Record<string, unknown>>;
      expect(recent).toHaveLength(5);
      expect(recent.map((r) => r.id)).toEqual(ids.slice(1).reverse());
      expect(recent[0]).toMatchObject({ status: 'rejected', reason: 'bad 5', processedBy: fm2.email, processedAt: expect.any(String) });
      expect(recent[1]).toMatchObject({ status: 'approved', reason: null, decisionNotes: 'ok 4', processedBy: fm.email });
      expect((await get('/api/financial/recent?limit=2', fm.cookie)).json()).toHaveLength(2);
      expectError(await get('/api/financial/recent?limit=0', fm.cookie), 400, 'validation_failed');
      expectError(await get('/api/financial/recent?limit=51', fm.cookie), 400, 'validation_failed');
    });
  });

  describe('approving', () => {
    it('credits once: status, ledger row, balance, audit entry and notification; the business can spend it at once', async () => {
      const biz = await createBusiness(t.app, 'Approved Co');
      const payment = await submitPayment(t.app, biz.cookie);
      const res = await approve(payment.id, fm.cookie, { notes: '  Seen on the HDFC statement  ' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: payment.id, status: 'approved', decisionNotes: 'Seen on the HDFC statement', processedBy: fm.email, balance: '5000.00' });

      const [entry, ...more] = await ledgerFor(biz.businessId);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ kind: 'top_up', reference: payment.id, amountPaise: 500_000, actorLabel: fm.email });
      const row = await t.ctx.db.selectFrom('payment_request').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'approved', ledger_entry_id: entry!.id, processed_by_user_id: fm.userId });

      const [audit] = await listAuditEntries(t.ctx.db, { subjectId: payment.id });
      expect(audit).toMatchObject({
        action: 'payment.approved',
        actorUserId: fm.userId,
        actorLabel: fm.email,
        details: { business_id: biz.businessId, amount_paise: 500_000, utr: payment.utr, ledger_entry_id: entry!.id, balance_after_paise: 500_000, notes: 'Seen on the HDFC statement' },
      });

      const profile = (await get('/api/business/profile', biz.cookie)).json();
      expect(profile).toMatchObject({ balance: '5000.00', verificationsLeft: 50_000 });
      expect((await get('/api/business/payment-requests', biz.cookie)).json()[0]).toMatchObject({ status: 'approved', processedAt: expect.any(String) });
      expect((await get('/api/business/notifications', biz.cookie)).json().unreadCount).toBe(1);

      // Spend through the public API.
      const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      const verify = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { secret, token: totpCode(secret) } });
      expect(verify.statusCode).toBe(200);
      expect(verify.json()).toMatchObject({ verified: true, balance: '4999.90' });
    });

    it('accepts an approval without a body and lets the administrator approve — only with a fresh MFA', async () => {
      const biz = await createBusiness(t.app, 'Admin Approved');
      const payment = await submitPayment(t.app, biz.cookie);
      const send = (cookie: string) => t.app.inject({ method: 'POST', url: `/api/financial/approve-payment/${payment.id}`, headers: { cookie, origin: 'http://localhost:5000' } });
      expectError(await send(admin.cookie), 403, 'mfa_required');
      expectError(await reject(payment.id, admin.cookie, { reason: 'not without MFA' }), 403, 'mfa_required');
      const { cookie } = await adminWithFreshMfa(t.app);
      const res = await send(cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'approved', decisionNotes: null, processedBy: admin.email });
    });

    it('refuses approving twice and approving a rejected payment (409); unknown ids are 404', async () => {
      const biz = await createBusiness(t.app, 'Twice Co');
      const p1 = await submitPayment(t.app, biz.cookie);
      expect((await approve(p1.id)).statusCode).toBe(200);
      const again = await approve(p1.id, fm2.cookie);
      expectError(again, 409, 'conflict');
      expect(again.json().error.message).toBe('This payment was already approved; its credit was added once.');
      expectError(await reject(p1.id, fm2.cookie, { reason: 'changed my mind' }), 409, 'conflict');

      const p2 = await submitPayment(t.app, biz.cookie);
      expect((await reject(p2.id, fm.cookie, { reason: 'No such UTR' })).statusCode).toBe(200);
      const approveRejected = await approve(p2.id);
      expectError(approveRejected, 409, 'conflict');
      expect(approveRejected.json().error.message).toBe('This payment was already rejected and can no longer be approved or rejected.');
      expectError(await reject(p2.id, fm.cookie, { reason: 'again' }), 409, 'conflict');

      expectError(await approve('pmt_doesnotexist'), 404, 'not_found');
      expectError(await reject('pmt_doesnotexist', fm.cookie, { reason: 'x' }), 404, 'not_found');
      expect(await ledgerFor(biz.businessId)).toHaveLength(1);
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(500_000);
    });

    it('two concurrent approvals credit exactly once: one 200, one 409', async () => {
      for (let round = 0; round < 3; round++) {
        const biz = await createBusiness(t.app, `Race ${round}`);
        const payment = await submitPayment(t.app, biz.cookie);
        const results = await Promise.all([approve(payment.id, fm.cookie), approve(payment.id, fm2.cookie)]);
        expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
        expect(await ledgerFor(biz.businessId)).toHaveLength(1);
        expect(await balancePaise(t.ctx, biz.businessId)).toBe(500_000);
        const audits = (await listAuditEntries(t.ctx.db, { subjectId: payment.id })).filter((a) => a.action === 'payment.approved');
        expect(audits).toHaveLength(1);
        const notes = await t.ctx.db.selectFrom('notification').select('id').where('business_id', '=', biz.businessId).execute();
        expect(notes).toHaveLength(1);
      }
    });

    it('honours a decision committed between the desk\'s check and its update (conditional UPDATE), and the ledger refuses a second credit', async () => {
      const biz = await createBusiness(t.app, 'Interleaved Co');
      const payment = await submitPayment(t.app, biz.cookie);
      // Another desk decides inside a transaction that is still open…
      const other = await t.ctx.db.startTransaction().execute();
      const decided = await decidePending(other, payment.id, { status: 'rejected', reason: 'decided elsewhere' }, { userId: null, label: 'other desk' }, new Date());
      expect(decided?.status).toBe('rejected');
      // …while this approval starts (on SQLite it waits for the one connection; on PostgreSQL
      // it passes the status check and then waits on the row lock of the UPDATE).
      const approval = approvePayment(t.ctx, payment.id, {}, { userId: fm.userId, label: fm.email });
      const settled = approval.then(
        () => 'approved',
        (err: AppError) => err.code,
      );
      await new Promise((r) => setTimeout(r, 50));
      await other.commit().execute();
      expect(await settled).toBe('conflict');
      expect(await ledgerFor(biz.businessId)).toEqual([]);
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);

      // Belt and braces: a second top_up for a request that was credited is refused by the ledger's unique index.
      const p2 = await submitPayment(t.app, biz.cookie);
      expect((await approve(p2.id)).statusCode).toBe(200);
      await expect(
        t.ctx.db.transaction().execute((trx) =>
          appendCredit(trx, { id: 'led_duplicate_test_0001', businessId: biz.businessId, amountPaise: 500_000, kind: 'top_up', reference: p2.id, reason: 'again', actorLabel: 'test' }, new Date()),
        ),
      ).rejects.toSatisfy(isUniqueViolation);
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(500_000);
    });

    it('an approval racing a rejection: exactly one decision wins', async () => {
      const biz = await createBusiness(t.app, 'Tug of War');
      const payment = await submitPayment(t.app, biz.cookie);
      const [a, r] = await Promise.all([approve(payment.id, fm.cookie), reject(payment.id, fm2.cookie, { reason: 'Duplicate' })]);
      expect([a.statusCode, r.statusCode].sort()).toEqual([200, 409]);
      const status = (await get('/api/business/payment-requests', biz.cookie)).json()[0].status;
      expect(status).toBe(a.statusCode === 200 ? 'approved' : 'rejected');
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(a.statusCode === 200 ? 500_000 : 0);
    });

    it('refuses notes that are too long or hold NUL (400) and changes nothing', async () => {
      const biz = await createBusiness(t.app, 'Notes Co');
      const payment = await submitPayment(t.app, biz.cookie);
      expectError(await approve(payment.id, fm.cookie, { notes: 'n'.repeat(1001) }), 400, 'validation_failed');
      expectError(await approve(payment.id, fm.cookie, { notes: 'a\u0000b' }), 400, 'validation_failed');
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
    });
  });

  describe('rejecting', () => {
    it.each([undefined, {}, { reason: '' }, { reason: '   \n\t ' }])('needs a reason: %j → 400 and the payment stays pending', async (payload) => {
      const biz = await createBusiness(t.app, `No Reason ${unique('r')}`);
      const payment = await submitPayment(t.app, biz.cookie);
      const res = await reject(payment.id, fm.cookie, payload);
      expectError(res, 400, 'validation_failed');
      expect(res.json().error.message).toBe('A reason is required to reject a payment.');
      expect((await get('/api/business/payment-requests', biz.cookie)).json()[0].status).toBe('pending');
    });

    it('keeps the trimmed reason, audits it, notifies the business and credits nothing', async () => {
      const biz = await createBusiness(t.app, 'Rejected Co');
      const payment = await submitPayment(t.app, biz.cookie);
      const res = await reject(payment.id, fm.cookie, { reason: '  The UTR does not appear on our statement  ' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'rejected', reason: 'The UTR does not appear on our statement', processedBy: fm.email });
      expect((await get('/api/business/payment-requests', biz.cookie)).json()[0]).toMatchObject({ status: 'rejected', reason: 'The UTR does not appear on our statement' });
      const [audit] = await listAuditEntries(t.ctx.db, { subjectId: payment.id });
      expect(audit).toMatchObject({ action: 'payment.rejected', actorLabel: fm.email, details: { reason: 'The UTR does not appear on our statement' } });
      expect((await get('/api/business/notifications', biz.cookie)).json().notifications[0]).toMatchObject({ kind: 'payment.rejected', title: 'Payment rejected' });
      expect(await ledgerFor(biz.businessId)).toEqual([]);
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
      expectError(await reject(payment.id, fm.cookie, { reason: 'r'.repeat(501) }), 400, 'validation_failed');
    });

    it('does not confuse one business\'s payment with another\'s (ids are global, decisions are per request)', async () => {
      const a = await createBusiness(t.app, 'Alpha');
      const b = await createBusiness(t.app, 'Beta');
      const pa = await submitPayment(t.app, a.cookie);
      const pb = await submitPayment(t.app, b.cookie);
      expect((await approve(pa.id)).statusCode).toBe(200);
      expect(await balancePaise(t.ctx, a.businessId)).toBe(500_000);
      expect(await balancePaise(t.ctx, b.businessId)).toBe(0);
      expect((await get('/api/business/payment-requests', b.cookie)).json()[0]).toMatchObject({ id: pb.id, status: 'pending' });
      // A business cannot reach the desk to decide its own or anyone's payment.
      expectError(await approve(pb.id, b.cookie), 403, 'forbidden');
    });
  });
  describe('a UTR quoted by two businesses', () => {
    /** Two businesses claim one UTR (the real payer after a squatter): both pending. */
    async function conflictingPair(label: string) {
      const first = await createBusiness(t.app, `${label} First`);
      const second = await createBusiness(t.app, `${label} Second`);
      const a = await submitPayment(t.app, first.cookie);
      const b = await submitPayment(t.app, second.cookie, { utr: a.utr });
      return { first, second, a, b };
    }

    it('shows both claims to the desk, each flagged with the other (pending approvals and the CLI list)', async () => {
      const { first, second, a, b } = await conflictingPair('Flag');
      const lonely = await submitPayment(t.app, (await createBusiness(t.app, 'Flag Alone')).cookie);
      const pending = (await get('/api/financial/pending-approvals', fm.cookie)).json() as Array<{ id: string; duplicateUtr: Array<{ id: string; businessId: string; status: string }> }>;
      const byId = new Map(pending.map((p) => [p.id, p]));
      expect(byId.get(a.id)!.duplicateUtr).toEqual([{ id: b.id, businessId: second.businessId, companyName: 'Flag Second', status: 'pending' }]);
      expect(byId.get(b.id)!.duplicateUtr).toEqual([{ id: a.id, businessId: first.businessId, companyName: 'Flag First', status: 'pending' }]);
      expect(byId.get(lonely.id)!.duplicateUtr).toEqual([]);
    });

    it('credits only one of them: approving the second is refused (409) and nothing more is credited', async () => {
      const { first, second, a, b } = await conflictingPair('Once');
      expect((await approve(b.id)).statusCode).toBe(200);
      const refused = await approve(a.id, fm2.cookie);
      expectError(refused, 409, 'conflict');
      expect(refused.json().error.message).toContain(b.id);
      expect(await balancePaise(t.ctx, second.businessId)).toBe(500_000);
      expect(await balancePaise(t.ctx, first.businessId)).toBe(0);
      expect(await ledgerFor(first.businessId)).toEqual([]);
      // The loser stays pending, marked as conflicting with an approved claim, until the desk rejects it.
      const pending = (await get('/api/financial/pending-approvals', fm.cookie)).json() as Array<{ id: string; duplicateUtr: Array<{ status: string }> }>;
      expect(pending.find((p) => p.id === a.id)!.duplicateUtr).toEqual([expect.objectContaining({ id: b.id, status: 'approved' })]);
      expect((await reject(a.id, fm.cookie, { reason: 'The UTR belongs to another business' })).statusCode).toBe(200);
    });

    it('credits only one when two desks approve the two claims at the same moment', async () => {
      const { first, second, a, b } = await conflictingPair('Race');
      const results = await Promise.all([approve(a.id, fm.cookie), approve(b.id, fm2.cookie)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const total = (await balancePaise(t.ctx, first.businessId)) + (await balancePaise(t.ctx, second.businessId));
      expect(total).toBe(500_000);
      const approved = await t.ctx.db.selectFrom('payment_request').select('id').where('utr', '=', a.utr).where('status', '=', 'approved').execute();
      expect(approved).toHaveLength(1);
    });

    it('lets the desk approve one after rejecting the other', async () => {
      const { second, a, b } = await conflictingPair('Settle');
      expect((await reject(a.id, fm.cookie, { reason: 'Not on the statement for this business' })).statusCode).toBe(200);
      expect((await approve(b.id)).statusCode).toBe(200);
      expect(await balancePaise(t.ctx, second.businessId)).toBe(500_000);
    });
  });
});
