import { TOP_UP_PACKS } from '@common/pricing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { call, createBusiness, impersonate, newUtr, qrOptions, signIn, submitPayment } from '../../../../test/support/payments';
import { expectError, unique } from '../../../../test/support/verify-api';
import { DEMO_PAYEE } from '../../config';
import { listAuditEntries } from '../audit/repo';
import { readQrCodes } from '../authenticator/qr-image';
import { approvePayment, rejectPayment } from '../financial/service';
import * as service from './service';

const CLI = { userId: null, label: 'cli:test' };

describeEachDialect('bank/UPI top-ups, business side', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const get = (url: string, cookie?: string) => call(t.app, 'GET', url, cookie);
  const post = (url: string, cookie: string | undefined, payload?: unknown, headers?: Record<string, string>) => call(t.app, 'POST', url, cookie, payload, headers);

  describe('gates', () => {
    it('answers 401 to every route when signed out', async () => {
      for (const url of ['/api/business/static-qr-options', '/api/business/payment-requests', '/api/business/notifications', '/api/business/payment-config']) {
        expectError(await get(url), 401, 'unauthorized');
      }
      expectError(await post('/api/business/payment-requests', undefined, { paymentReference: 'SXD-X', utr: newUtr(), amount: 5000 }), 401, 'unauthorized');
      expectError(await post('/api/business/notifications/ntf_x/read', undefined), 401, 'unauthorized');
    });

    it('answers 404 before the user has a business', async () => {
      const cookie = await signIn(t.app, `${unique('nobiz')}@example.com`);
      for (const url of ['/api/business/static-qr-options', '/api/business/payment-requests', '/api/business/notifications']) {
        expectError(await get(url, cookie), 404, 'not_found');
      }
      expectError(await post('/api/business/payment-requests', cookie, { paymentReference: 'SXD-X', utr: newUtr(), amount: 5000 }), 404, 'not_found');
    });

    it('refuses the QR options and submissions while an administrator impersonates the user (403)', async () => {
      const biz = await createBusiness(t.app, 'Impersonated Co');
      const { option1 } = await qrOptions(t.app, biz.cookie);
      await impersonate(t.ctx, biz.email);
      const options = await get('/api/business/static-qr-options', biz.cookie);
      expectError(options, 403, 'impersonation_forbidden');
      expect(options.json().error.message).toBe('Payments and credit purchases are disabled while impersonating a user.');
      expectError(await post('/api/business/payment-requests', biz.cookie, { paymentReference: option1.paymentReference, utr: newUtr(), amount: 5000 }), 403, 'impersonation_forbidden');
      expect((await t.ctx.db.selectFrom('payment_request').select('id').where('business_id', '=', biz.businessId).execute()).length).toBe(0);
    });

    it('refuses a submission from another site (foreign Origin → 403)', async () => {
      const biz = await createBusiness(t.app, 'Origin Co');
      const { option1 } = await qrOptions(t.app, biz.cookie);
      const res = await post('/api/business/payment-requests', biz.cookie, { paymentReference: option1.paymentReference, utr: newUtr(), amount: 5000 }, { origin: 'https://evil.example' });
      expectError(res, 403, 'forbidden_origin');
    });
  });

  describe('payment configuration and QR options', () => {
    it('says a fresh install has the demo payee, bank QR on and Razorpay off', async () => {
      const biz = await createBusiness(t.app, 'Config Co');
      expect((await get('/api/business/payment-config', biz.cookie)).json()).toEqual({
        razorpay: false,
        razorpayKeyId: null,
        bankQr: true,
        demo: true,
        minimumAmount: '100.00',
        referenceValidDays: 7,
      });
    });

    it('gives one option per top-up pack with a UPI QR, the demo payee and a recorded reference unique to this business', async () => {
      const biz = await createBusiness(t.app, 'QR Co');
      const before = Date.now();
      const options = await qrOptions(t.app, biz.cookie);
      expect(Object.keys(options)).toEqual(['option1', 'option2', 'option3', 'option4']);
      const list = Object.values(options);
      list.forEach((option, i) => {
        const pack = TOP_UP_PACKS[i]!;
        expect(option).toMatchObject({
          packId: pack.id,
          amount: `${pack.amountPaise / 100}.00`,
          verifications: pack.verifications,
          upiId: DEMO_PAYEE.upiId,
          merchantName: DEMO_PAYEE.name,
          demo: true,
          verificationCode: expect.stringMatching(/^[2-9A-HJKMNP-Z]{6}$/),
          paymentReference: expect.stringMatching(new RegExp(`^SXD-${biz.businessId.slice(4, 10).toUpperCase()}-[2-9A-HJKMNP-Z]{8}$`)),
          qrCodeImageUrl: expect.stringMatching(/^data:image\/png;base64,/),
        });
        expect(option.upiUri).toBe(
          `upi://pay?pa=sixdigit.demo@invalid&pn=Sixdigit%20Demo%20Payee%20%E2%80%94%20do%20not%20pay&am=${option.amount}&cu=INR&tn=${option.paymentReference}`,
        );
      });
      expect(new Set(list.map((o) => o.paymentReference)).size).toBe(4);

      // The QR image really holds the UPI payment URI.
      const png = Buffer.from(options.option2.qrCodeImageUrl.split(',')[1]!, 'base64');
      expect(await readQrCodes(png)).toEqual([options.option2.upiUri]);

      // Recorded, for this business, valid for 7 days.
      const rows = await t.ctx.db.selectFrom('payment_reference').selectAll().where('business_id', '=', biz.businessId).execute();
      expect(rows.map((r) => r.reference).sort()).toEqual(list.map((o) => o.paymentReference).sort());
      for (const row of rows) {
        const ttl = new Date(row.expires_at).getTime() - new Date(row.created_at).getTime();
        expect(ttl).toBe(7 * 86_400_000);
        expect(new Date(row.created_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
      }

      // Every request gets fresh references.
      const again = await qrOptions(t.app, biz.cookie);
      expect(Object.values(again).map((o) => o.paymentReference)).not.toContain(options.option1.paymentReference);
    });

    it('uses the configured payee, and a production server with only the demo payee offers no bank QR (501)', async () => {
      const biz = await createBusiness(t.app, 'Payee Co');
      const user = { id: (await t.ctx.db.selectFrom('business').select('owner_user_id').where('id', '=', biz.businessId).executeTakeFirstOrThrow()).owner_user_id, email: biz.email, firstName: null, lastName: null, profileImageUrl: null, role: 'user' as const, isAdmin: false };
      const payee = { upiId: 'collections@hdfcbank', name: 'Sixdigit Technologies', bankDetails: 'HDFC Bank · A/c 50200012345678 · IFSC HDFC0001234', demo: false };
      const configured = { ...t.ctx, config: { ...t.ctx.config, payee } };
      const options = await service.staticQrOptions(configured, user, null);
      expect(options.option4).toMatchObject({ upiId: 'collections@hdfcbank', merchantName: 'Sixdigit Technologies', bankAccountDetails: payee.bankDetails, demo: false, amount: '20000.00' });
      expect(options.option4!.upiUri).toMatch(/^upi:\/\/pay\?pa=collections@hdfcbank&pn=Sixdigit%20Technologies&am=20000\.00&cu=INR&tn=SXD-/);

      const productionDemo = { ...t.ctx, config: { ...t.ctx.config, isProduction: true } };
      await expect(service.staticQrOptions(productionDemo, user, null)).rejects.toMatchObject({ code: 'not_configured', status: 501 });
      expect(service.paymentConfig(productionDemo.config)).toMatchObject({ bankQr: false, demo: true });
      expect(service.paymentConfig({ ...productionDemo.config, payee })).toMatchObject({ bankQr: true, demo: false });
    });
  });

  describe('submitting a payment', () => {
    it('records a pending request for a reference we issued, which the business then sees, and audits it', async () => {
      const biz = await createBusiness(t.app, 'Payer Co');
      const { option2 } = await qrOptions(t.app, biz.cookie);
      const utr = newUtr();
      const res = await post('/api/business/payment-requests', biz.cookie, {
        paymentReference: ` ${option2.paymentReference.toLowerCase()} `,
        utr: ` ${utr.slice(0, 6).toLowerCase()} ${utr.slice(6)} `,
        amount: '10000.00',
        notes: '  Paid from the HDFC current account  ',
        paymentMethod: 'bank_transfer',
      });
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toMatchObject({
        id: expect.stringMatching(/^pmt_/),
        paymentReference: option2.paymentReference,
        utr,
        amount: '10000.00',
        packId: 'standard',
        verifications: 100_000,
        paymentMethod: 'Bank transfer',
        status: 'pending',
        reason: null,
        notes: 'Paid from the HDFC current account',
        processedAt: null,
      });
      const list = await get('/api/business/payment-requests', biz.cookie);
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual([created]);

      const [audit] = await listAuditEntries(t.ctx.db, { subjectId: created.id });
      expect(audit).toMatchObject({ action: 'payment.submitted', actorLabel: biz.email, details: { utr, amount_paise: 1_000_000, reference: option2.paymentReference } });
    });

    it.each([
      [99, 'Invalid Amount: Minimum amount is ₹100.'],
      [0, 'Invalid Amount: Minimum amount is ₹100.'],
      ['99.99', 'Invalid Amount: Minimum amount is ₹100.'],
      [-5000, 'Invalid Amount: give rupees with at most two decimals, e.g. 5000 or 5000.00.'],
      ['5000.001', 'Invalid Amount: give rupees with at most two decimals, e.g. 5000 or 5000.00.'],
      ['five thousand', 'Invalid Amount: give rupees with at most two decimals, e.g. 5000 or 5000.00.'],
      [10000, "The amount ₹10,000 does not match this reference's ₹5,000 pack."],
      [100, "The amount ₹100 does not match this reference's ₹5,000 pack."],
      [5000.5, "The amount ₹5,000.50 does not match this reference's ₹5,000 pack."],
    ])('refuses amount %j with 400: %s', async (amount, message) => {
      const biz = await createBusiness(t.app, 'Amount Co');
      const { option1 } = await qrOptions(t.app, biz.cookie);
      const res = await post('/api/business/payment-requests', biz.cookie, { paymentReference: option1.paymentReference, utr: newUtr(), amount });
      expectError(res, 400, 'validation_failed');
      expect(res.json().error.message).toBe(message);
    });

    it.each(['SHORT12345', 'A'.repeat(23), 'UTR-1234567890', 'UTR 12345678\u00e9', ''])('refuses the malformed UTR %j with 400', async (utr) => {
      const biz = await createBusiness(t.app, 'UTR Co');
      const { option1 } = await qrOptions(t.app, biz.cookie);
      expectError(await post('/api/business/payment-requests', biz.cookie, { paymentReference: option1.paymentReference, utr, amount: 5000 }), 400, 'validation_failed');
    });

    it('refuses missing fields, NUL characters and over-long notes with 400', async () => {
      const biz = await createBusiness(t.app, 'Body Co');
      const { option1 } = await qrOptions(t.app, biz.cookie);
      const good = { paymentReference: option1.paymentReference, utr: newUtr(), amount: 5000 };
      for (const payload of [{}, { ...good, utr: undefined }, { ...good, paymentReference: undefined }, { ...good, amount: undefined }, { ...good, notes: 'x\u0000y' }, { ...good, notes: 'n'.repeat(501) }, { ...good, paymentMethod: 'cash' }]) {
        expectError(await post('/api/business/payment-requests', biz.cookie, payload), 400, 'validation_failed');
      }
    });

    it('refuses a reference issued to another business, and an unknown one, alike (404)', async () => {
      const owner = await createBusiness(t.app, 'Owner Co');
      const other = await createBusiness(t.app, 'Other Co');
      const { option1 } = await qrOptions(t.app, owner.cookie);
      const foreign = await post('/api/business/payment-requests', other.cookie, { paymentReference: option1.paymentReference, utr: newUtr(), amount: 5000 });
      expectError(foreign, 404, 'not_found');
      const unknown = await post('/api/business/payment-requests', other.cookie, { paymentReference: 'SXD-ABCDEF-23456789', utr: newUtr(), amount: 5000 });
      expectError(unknown, 404, 'not_found');
      expect(foreign.json().error.message).toBe(unknown.json().error.message);
      // The owner can still use it.
      expect((await post('/api/business/payment-requests', owner.cookie, { paymentReference: option1.paymentReference, utr: newUtr(), amount: 5000 })).statusCode).toBe(201);
    });

    it('refuses an expired reference', async () => {
      const biz = await createBusiness(t.app, 'Late Co');
      const { option1 } = await qrOptions(t.app, biz.cookie);
      await t.ctx.db.updateTable('payment_reference').set({ expires_at: new Date(Date.now() - 1000) }).where('reference', '=', option1.paymentReference).execute();
      const res = await post('/api/business/payment-requests', biz.cookie, { paymentReference: option1.paymentReference, utr: newUtr(), amount: 5000 });
      expectError(res, 400, 'validation_failed');
      expect(res.json().error.message).toMatch(/^This payment reference expired on \d{4}-\d{2}-\d{2}\./);
    });

    it('refuses the same business quoting a UTR twice, in any spelling and even after a rejection (409)', async () => {
      const a = await createBusiness(t.app, 'First Payer');
      const first = await submitPayment(t.app, a.cookie);
      const optionsA = await qrOptions(t.app, a.cookie);
      for (const utr of [first.utr, ` ${first.utr.toLowerCase()} `]) {
        const res = await post('/api/business/payment-requests', a.cookie, { paymentReference: optionsA.option1.paymentReference, utr, amount: 5000 });
        expectError(res, 409, 'conflict');
        expect(res.json().error.message).toBe('You have already submitted this bank transaction id (UTR).');
      }
      await rejectPayment(t.ctx, first.id, { reason: 'No such credit on the statement' }, CLI);
      expectError(await post('/api/business/payment-requests', a.cookie, { paymentReference: optionsA.option1.paymentReference, utr: first.utr, amount: 5000 }), 409, 'conflict');
    });

    it("accepts a UTR another business already quoted as pending, answering exactly as for a fresh one (nothing revealed)", async () => {
      const squatter = await createBusiness(t.app, 'First Claimant');
      const payer = await createBusiness(t.app, 'Real Payer');
      const claimed = await submitPayment(t.app, squatter.cookie);
      const fresh = await submitPayment(t.app, payer.cookie);
      const options = await qrOptions(t.app, payer.cookie);
      const res = await post('/api/business/payment-requests', payer.cookie, { paymentReference: options.option2.paymentReference, utr: ` ${claimed.utr.toLowerCase()} `, amount: 10000 });
      expect(res.statusCode).toBe(201);
      const keys = (o: object) => Object.keys(o).sort();
      expect(keys(res.json())).toEqual(keys(fresh));
      expect(res.json()).toMatchObject({ status: 'pending', utr: claimed.utr });
      expect(JSON.stringify(res.json())).not.toContain(squatter.businessId);
      expect(JSON.stringify(res.json())).not.toMatch(/duplicate|conflict|already/i);
      // The business's own list says nothing about the other claim either.
      const own = (await call(t.app, 'GET', '/api/business/payment-requests', payer.cookie)).json() as Array<Record<string, unknown>>;
      expect(JSON.stringify(own)).not.toMatch(/duplicate|conflict|First Claimant/i);
    });

    it('lets exactly one of racing submissions of one UTR by one business in; another business racing it is not refused', async () => {
      const a = await createBusiness(t.app, 'Racer A');
      const b = await createBusiness(t.app, 'Racer B');
      const [oa, ob] = await Promise.all([qrOptions(t.app, a.cookie), qrOptions(t.app, b.cookie)]);
      const utr = newUtr();
      const results = await Promise.all([
        post('/api/business/payment-requests', a.cookie, { paymentReference: oa.option1.paymentReference, utr, amount: 5000 }),
        post('/api/business/payment-requests', a.cookie, { paymentReference: oa.option2.paymentReference, utr, amount: 10000 }),
        post('/api/business/payment-requests', b.cookie, { paymentReference: ob.option1.paymentReference, utr, amount: 5000 }),
      ]);
      expect(results.slice(0, 2).map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(results[2]!.statusCode).toBe(201);
      const rows = await t.ctx.db.selectFrom('payment_request').select(['business_id']).where('utr', '=', utr).execute();
      expect(rows.map((r) => r.business_id).sort()).toEqual([a.businessId, b.businessId].sort());
    });

    it('allows one live claim per reference; after a rejection the reference may be claimed again', async () => {
      const biz = await createBusiness(t.app, 'Retry Co');
      const first = await submitPayment(t.app, biz.cookie);
      const again = await post('/api/business/payment-requests', biz.cookie, { paymentReference: first.paymentReference, utr: newUtr(), amount: 5000 });
      expectError(again, 409, 'conflict');
      expect(again.json().error.message).toBe('A payment for this reference is already waiting for approval.');

      await rejectPayment(t.ctx, first.id, { reason: 'The UTR has a typo' }, CLI);
      const retry = await post('/api/business/payment-requests', biz.cookie, { paymentReference: first.paymentReference, utr: newUtr(), amount: 5000 });
      expect(retry.statusCode).toBe(201);

      await approvePayment(t.ctx, retry.json().id, {}, CLI);
      const afterApproval = await post('/api/business/payment-requests', biz.cookie, { paymentReference: first.paymentReference, utr: newUtr(), amount: 5000 });
      expectError(afterApproval, 409, 'conflict');
      expect(afterApproval.json().error.message).toBe('The payment for this reference was already approved.');

      const statuses = (await get('/api/business/payment-requests', biz.cookie)).json().map((r: { status: string; reason: string | null }) => [r.status, r.reason]);
      expect(statuses).toEqual([
        ['approved', null],
        ['rejected', 'The UTR has a typo'],
      ]);
    });

    it('lists only the business\'s own requests', async () => {
      const a = await createBusiness(t.app, 'Lister A');
      const b = await createBusiness(t.app, 'Lister B');
      const mine = await submitPayment(t.app, a.cookie);
      await submitPayment(t.app, b.cookie);
      expect((await get('/api/business/payment-requests', a.cookie)).json().map((r: { id: string }) => r.id)).toEqual([mine.id]);
    });
  });

  describe('notifications', () => {
    it('tells the business about approval and rejection; only its own notifications can be read', async () => {
      const biz = await createBusiness(t.app, 'Notified Co');
      const other = await createBusiness(t.app, 'Nosy Co');
      expect((await get('/api/business/notifications', biz.cookie)).json()).toEqual({ unreadCount: 0, notifications: [] });

      const approved = await submitPayment(t.app, biz.cookie);
      const rejected = await submitPayment(t.app, biz.cookie, { amount: 5000 });
      await approvePayment(t.ctx, approved.id, { notes: 'Matched on statement' }, CLI);
      await rejectPayment(t.ctx, rejected.id, { reason: 'Amount not received' }, CLI);

      const res = (await get('/api/business/notifications', biz.cookie)).json();
      expect(res.unreadCount).toBe(2);
      expect(res.notifications).toHaveLength(2);
      const byKind = Object.fromEntries(res.notifications.map((n: { kind: string }) => [n.kind, n]));
      expect(byKind['payment.approved']).toMatchObject({
        title: 'Payment approved',
        message: `Your payment ${approved.paymentReference} (UTR ${approved.utr}) was approved. ₹5,000 added: 50,000 verifications.`,
        subjectId: approved.id,
        read: false,
        readAt: null,
      });
      expect(byKind['payment.rejected']).toMatchObject({
        title: 'Payment rejected',
        message: `Your payment of ₹5,000 (${rejected.paymentReference}, UTR ${rejected.utr}) was rejected: Amount not received`,
        subjectId: rejected.id,
      });

      const id = byKind['payment.rejected'].id as string;
      expectError(await post(`/api/business/notifications/${id}/read`, other.cookie), 404, 'not_found');
      expectError(await post('/api/business/notifications/ntf_unknown/read', biz.cookie), 404, 'not_found');
      const read = await post(`/api/business/notifications/${id}/read`, biz.cookie);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ id, read: true, readAt: expect.any(String) });
      // Reading again keeps the first read time.
      expect((await post(`/api/business/notifications/${id}/read`, biz.cookie)).json().readAt).toBe(read.json().readAt);
      expect((await get('/api/business/notifications', biz.cookie)).json().unreadCount).toBe(1);
      expect((await get('/api/business/notifications', other.cookie)).json()).toEqual({ unreadCount: 0, notifications: [] });
    });
  });
});
