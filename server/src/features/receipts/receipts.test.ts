import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../test/fakes/razorpay';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { ORIGIN, call, createBusiness, impersonate, signIn, signInWithRole, submitPayment } from '../../../../test/support/payments';
import type { TestBusiness } from '../../../../test/support/verify-api';
import { readPdf } from '../../../../test/support/pdf';
import { expectError, unique } from '../../../../test/support/verify-api';
import type { Config } from '../../config';
import { newId } from '../../lib/ids';
import { listLedger } from '../credits/repo';
import { approvePayment } from '../financial/service';
import * as repo from './repo';
import { issueReceipt, receiptNumber } from './service';

/** A GST-registered payee in Karnataka (29); the GSTIN's check character is right (common/gst.test.ts). */
const KARNATAKA_PAYEE: Pick<Config, 'payee' | 'gst'> = {
  payee: { upiId: 'collections@hdfcbank', name: 'Sixdigit Technologies Pvt Ltd', bankDetails: 'HDFC Bank · A/c 50200012345678', demo: false },
  gst: { gstin: '29AAGCB7383J1Z4', state: '29', sac: '998315', address: '80 Feet Road, Koramangala, Bengaluru 560034' },
};
const UNREGISTERED_PAYEE: Pick<Config, 'payee' | 'gst'> = { payee: KARNATAKA_PAYEE.payee, gst: undefined };
const MAHARASHTRA_GSTIN = '27AAPFU0939F1ZV';

describeEachDialect('receipts', (dialect) => {
  let t: TestApp;
  let fake: FakeRazorpay;
  let desk: { cookie: string; email: string; userId: string };

  beforeAll(async () => {
    fake = await startFakeRazorpay();
    t = await createTestApp(dialect, fake.env());
    desk = await signInWithRole(t.ctx, t.app, 'financial_manager');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  const get = (url: string, cookie?: string) => call(t.app, 'GET', url, cookie);
  // as the dashboard sends it: same-site, with its Origin
  const put = (url: string, cookie: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'PUT', url, payload: body as object, headers: { ...(cookie ? { cookie } : {}), origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...headers } });
  const deskActor = () => ({ userId: desk.userId, label: desk.email });
  const setBilling = async (biz: TestBusiness, body: Record<string, unknown>) => {
    const res = await put('/api/business/billing', biz.cookie, { gstin: null, billingState: null, billingAddress: null, ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const downloadPdf = async (biz: TestBusiness, receiptId: string) => {
    const res = await get(`/api/business/receipts/${receiptId}.pdf`, biz.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return readPdf(res.rawPayload);
  };
  /** Issues a receipt for a made-up credit of this business, as a crediting service would. */
  const issueFor = (businessId: string, config: Pick<Config, 'payee' | 'gst'>, amountPaise: number, issuedAt = new Date()) =>
    t.ctx.db.transaction().execute((trx) =>
      issueReceipt(trx, {
        config,
        businessId,
        ledgerEntryId: newId('led'),
        payment: { kind: 'test_payment', id: newId('tp') },
        method: 'upi',
        methodLabel: 'UPI',
        paymentReference: `SD${unique('ref').slice(-8).toUpperCase()}`,
        transactionId: 'UTR123456789012',
        amountPaise,
        issuedAt,
      }),
    );

  describe('issued with every credited payment', () => {
    it('a bank/UPI approval issues a numbered receipt in its transaction, listed with the payment and downloadable', async () => {
      const biz = await createBusiness(t.app, 'Ledger Books Pvt Ltd');
      await setBilling(biz, { billingAddress: '12 MG Road\nBengaluru 560001', billingState: '29' });
      const payment = await submitPayment(t.app, biz.cookie);
      const rejected = await submitPayment(t.app, biz.cookie);
      await call(t.app, 'POST', `/api/financial/reject-payment/${rejected.id}`, desk.cookie, { reason: 'No such UTR on our statement' });
      const pending = await submitPayment(t.app, biz.cookie);
      expect((await call(t.app, 'POST', `/api/financial/approve-payment/${payment.id}`, desk.cookie, {})).statusCode).toBe(200);

      const history = (await get('/api/business/payments', biz.cookie)).json() as Array<Record<string, any>>;
      const byId = new Map(history.map((h) => [h.id, h]));
      expect(byId.get(pending.id)).toMatchObject({ status: 'pending', amount: '5000.00', method: 'UPI', receipt: null });
      expect(byId.get(rejected.id)).toMatchObject({ status: 'rejected', receipt: null });
      const approved = byId.get(payment.id)!;
      expect(approved).toMatchObject({ status: 'approved', amount: '5000.00', reference: payment.paymentReference, transactionId: payment.utr });
      expect(approved.receipt.number).toMatch(/^SD\/\d{4}-\d{2}\/\d{6}$/);

      const [ledger] = (await listLedger(t.ctx.db, biz.businessId)).filter((e) => e.kind === 'top_up');
      const stored = await repo.findReceipt(t.ctx.db, approved.receipt.id, biz.businessId);
      expect(stored).toMatchObject({ ledgerEntryId: ledger!.id, amountPaise: 500_000, creditsAdded: 50_000, paymentKind: 'payment_request', paymentId: payment.id });

      const pdf = await downloadPdf(biz, approved.receipt.id);
      expect(pdf.pages).toBe(1);
      for (const figure of [approved.receipt.number, 'RECEIPT', 'Ledger Books Pvt Ltd', '12 MG Road, Bengaluru 560001', biz.email, 'Rs. 5,000.00', '50,000 verifications', payment.utr, payment.paymentReference, 'No GST was charged']) {
        expect(pdf.text).toContain(figure);
      }
      // The test app has no PAYEE_UPI_ID: the demo payee is named, and no tax is shown.
      expect(pdf.text).toContain('Sixdigit Demo Payee');
      expect(pdf.text).not.toMatch(/GST @/);
    });

    it('a card payment credited through Razorpay issues one receipt, however often it is reported', async () => {
      const biz = await createBusiness(t.app, 'Card Payer Co');
      const order = (await call(t.app, 'POST', '/api/business/create-order', biz.cookie, { amount: 5000 })).json();
      const paid = fake.pay(order.id);
      await call(t.app, 'POST', '/api/business/verify-payment', biz.cookie, paid);
      await call(t.app, 'POST', '/api/business/verify-payment', biz.cookie, paid);
      const history = (await get('/api/business/payments', biz.cookie)).json() as Array<Record<string, any>>;
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ id: order.id, status: 'paid', method: 'Card/UPI (Razorpay)', amount: '5000.00', transactionId: paid.razorpay_payment_id });
      const pdf = await downloadPdf(biz, history[0]!.receipt.id);
      expect(pdf.text).toContain(history[0]!.receipt.number);
      expect(pdf.text).toContain(`Payment ID ${paid.razorpay_payment_id}`);
    });
  });

  describe('numbers', () => {
    it('50 concurrent approvals take 50 distinct consecutive numbers of the year, one per credit', async () => {
      const owners = await Promise.all(Array.from({ length: 5 }, (_, i) => createBusiness(t.app, `Concurrent ${i} Ltd`)));
      const payments = [];
      for (const owner of owners) for (let i = 0; i < 10; i++) payments.push(await submitPayment(t.app, owner.cookie));
      const now = new Date();
      const results = await Promise.all(payments.map((p) => approvePayment(t.ctx, p.id, {}, deskActor(), now)));
      expect(results).toHaveLength(50);

      const receipts = (await Promise.all(owners.map((o) => repo.listReceipts(t.ctx.db, o.businessId, 100)))).flat();
      expect(receipts).toHaveLength(50);
      const sequences = receipts.map((r) => r.sequence).sort((a, b) => a - b);
      expect(new Set(sequences).size).toBe(50);
      expect(sequences.at(-1)! - sequences[0]!).toBe(49);
      expect(new Set(receipts.map((r) => r.ledgerEntryId)).size).toBe(50);
      // and the whole year so far has no gap: 1 … n
      const year = await repo.sequencesOfYear(t.ctx.db, receipts[0]!.financialYear);
      expect(year).toEqual(Array.from({ length: year.length }, (_, i) => i + 1));
      expect(receipts.every((r) => r.number === receiptNumber(r.financialYear, r.sequence))).toBe(true);
    });

    it('a credit that rolls back gives its number back: the next receipt takes it', async () => {
      const biz = await createBusiness(t.app, 'Rollback Co');
      const at = new Date('2034-06-01T06:00:00Z');
      const first = await issueFor(biz.businessId, UNREGISTERED_PAYEE, 10_000, at);
      await expect(
        t.ctx.db.transaction().execute(async (trx) => {
          await issueReceipt(trx, {
            config: UNREGISTERED_PAYEE,
            businessId: biz.businessId,
            ledgerEntryId: newId('led'),
            payment: { kind: 'test_payment', id: newId('tp') },
            method: 'upi',
            methodLabel: 'UPI',
            paymentReference: 'SDROLLBACK',
            transactionId: null,
            amountPaise: 10_000,
            issuedAt: at,
          });
          throw new Error('the credit failed after the receipt was issued');
        }),
      ).rejects.toThrow('the credit failed');
      const next = await issueFor(biz.businessId, UNREGISTERED_PAYEE, 10_000, at);
      expect([first.number, next.number]).toEqual(['SD/2034-35/000001', 'SD/2034-35/000002']);
    });

    it('the series turns over at midnight IST: 31 March continues the old year, 1 April starts 000001', async () => {
      const biz = await createBusiness(t.app, 'Year End Co');
      const march = await issueFor(biz.businessId, UNREGISTERED_PAYEE, 10_000, new Date('2031-03-31T18:29:00Z'));
      const march2 = await issueFor(biz.businessId, UNREGISTERED_PAYEE, 10_000, new Date('2031-03-31T18:29:30Z'));
      const april = await issueFor(biz.businessId, UNREGISTERED_PAYEE, 10_000, new Date('2031-03-31T18:30:00Z'));
      expect([march.number, march2.number, april.number]).toEqual(['SD/2030-31/000001', 'SD/2030-31/000002', 'SD/2031-32/000001']);
    });
  });

  describe('tax invoices (PAYEE_GSTIN set)', () => {
    it('same state: CGST + SGST, exact to the paisa, on the PDF', async () => {
      const biz = await createBusiness(t.app, 'Bengaluru Buyer Pvt Ltd');
      await setBilling(biz, { gstin: '29AAGCB7383J1Z4', billingAddress: '5 Residency Road, Bengaluru 560025' });
      const receipt = await issueFor(biz.businessId, KARNATAKA_PAYEE, 500_000);
      expect(receipt).toMatchObject({ taxablePaise: 423_728, cgstPaise: 38_136, sgstPaise: 38_136, igstPaise: 0, sac: '998315' });
      expect(receipt.buyer).toMatchObject({ state: '29', gstin: '29AAGCB7383J1Z4' });
      const pdf = await downloadPdf(biz, receipt.id);
      for (const figure of ['TAX INVOICE', 'GSTIN 29AAGCB7383J1Z4', '998315', 'Taxable value Rs. 4,237.28', 'CGST @ 9% Rs. 381.36', 'SGST @ 9% Rs. 381.36', 'Total (GST inclusive) Rs. 5,000.00', 'Place of supply: 29 · Karnataka']) {
        expect(pdf.text).toContain(figure);
      }
      expect(pdf.text).not.toContain('IGST');
    });

    it('another state: IGST 18%, exact to the paisa', async () => {
      const biz = await createBusiness(t.app, 'Mumbai Buyer LLP');
      await setBilling(biz, { gstin: MAHARASHTRA_GSTIN, billingState: '27' });
      const receipt = await issueFor(biz.businessId, KARNATAKA_PAYEE, 500_000);
      expect(receipt).toMatchObject({ taxablePaise: 423_729, cgstPaise: 0, sgstPaise: 0, igstPaise: 76_271 });
      const pdf = await downloadPdf(biz, receipt.id);
      expect(pdf.text).toContain('IGST @ 18% Rs. 762.71');
      expect(pdf.text).toContain('Taxable value Rs. 4,237.29');
      expect(pdf.text).not.toContain('CGST');
    });

    it('a buyer with no state is charged IGST; without PAYEE_GSTIN the receipt has no tax at all', async () => {
      const biz = await createBusiness(t.app, 'Stateless Buyer');
      const invoice = await issueFor(biz.businessId, KARNATAKA_PAYEE, 99_900);
      expect(invoice).toMatchObject({ taxablePaise: 84_661, igstPaise: 15_239, cgstPaise: 0 });
      expect((await downloadPdf(biz, invoice.id)).text).toContain('not given by the buyer (IGST charged)');
      const plain = await issueFor(biz.businessId, UNREGISTERED_PAYEE, 99_900);
      expect(plain).toMatchObject({ taxablePaise: 99_900, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, sac: null, payee: { gstin: null } });
    });

    it('keeps what it was issued with: later edits of the billing details change only later receipts', async () => {
      const biz = await createBusiness(t.app, 'Moving House Ltd');
      await setBilling(biz, { gstin: '29AAGCB7383J1Z4', billingAddress: 'Old Address 1, Bengaluru 560001' });
      const before = await issueFor(biz.businessId, KARNATAKA_PAYEE, 500_000);
      await setBilling(biz, { gstin: MAHARASHTRA_GSTIN, billingAddress: 'New Address 2, Mumbai 400001' });
      await t.ctx.db.updateTable('business').set({ company_name: 'Renamed Ltd' }).where('id', '=', biz.businessId).execute();
      const after = await issueFor(biz.businessId, KARNATAKA_PAYEE, 500_000);

      const old = await downloadPdf(biz, before.id);
      expect(old.text).toContain('Old Address 1, Bengaluru 560001');
      expect(old.text).toContain('Moving House Ltd');
      expect(old.text).toContain('CGST @ 9% Rs. 381.36');
      const fresh = await downloadPdf(biz, after.id);
      expect(fresh.text).toContain('New Address 2, Mumbai 400001');
      expect(fresh.text).toContain('Renamed Ltd');
      expect(fresh.text).toContain('IGST @ 18% Rs. 762.71');
    });
  });

  describe('billing details', () => {
    it('reads and saves them; the GSTIN is read as typed and gives the state', async () => {
      const biz = await createBusiness(t.app, 'Billing Co');
      expect((await get('/api/business/billing', biz.cookie)).json()).toEqual({ companyName: 'Billing Co', gstin: null, billingState: null, billingAddress: null, taxInvoices: false });
      const saved = await setBilling(biz, { gstin: ' 27aapfu0939f1zv ', billingAddress: '  Plot 4,\n  Andheri East  ' });
      expect(saved).toEqual({ companyName: 'Billing Co', gstin: MAHARASHTRA_GSTIN, billingState: '27', billingAddress: 'Plot 4, Andheri East', taxInvoices: false });
      expect(await setBilling(biz, { billingState: '07' })).toMatchObject({ gstin: null, billingState: '07', billingAddress: null });
    });

    it('refuses a GSTIN with a wrong check character, a state other than the GSTIN’s, and an unknown state', async () => {
      const biz = await createBusiness(t.app, 'Typo Co');
      const typo = await put('/api/business/billing', biz.cookie, { gstin: '27AAPFU0939F1ZW', billingState: null, billingAddress: null });
      expectError(typo, 400, 'validation_failed');
      expect(typo.body).toContain('check it for a typo');
      expectError(await put('/api/business/billing', biz.cookie, { gstin: MAHARASHTRA_GSTIN, billingState: '29', billingAddress: null }), 400, 'validation_failed');
      expectError(await put('/api/business/billing', biz.cookie, { gstin: null, billingState: '99', billingAddress: null }), 400, 'validation_failed');
      expectError(await put('/api/business/billing', biz.cookie, { gstin: null, billingState: null, billingAddress: 'x'.repeat(301) }), 400, 'validation_failed');
      expect((await get('/api/business/billing', biz.cookie)).json()).toMatchObject({ gstin: null, billingState: null });
    });

    it('is the owner’s: refused signed out, from another site, while impersonating, and without a business', async () => {
      const body = { gstin: null, billingState: '29', billingAddress: null };
      expectError(await get('/api/business/billing'), 401, 'unauthorized');
      expectError(await put('/api/business/billing', undefined, body), 401, 'unauthorized');
      const biz = await createBusiness(t.app, 'Guarded Co');
      expectError(await put('/api/business/billing', biz.cookie, body, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }), 403, 'forbidden_origin');
      const nobody = await signIn(t.app, `${unique('nobiz')}@example.com`);
      expectError(await get('/api/business/billing', nobody), 404, 'not_found');
      expectError(await put('/api/business/billing', nobody, body), 404, 'not_found');
      await impersonate(t.ctx, biz.email);
      expectError(await put('/api/business/billing', biz.cookie, body), 403, 'impersonation_forbidden');
      expect((await get('/api/business/billing', biz.cookie)).statusCode).toBe(200);
    });
  });

  describe('who can read payments and receipts', () => {
    it('lists only the caller’s payments; another business’s receipt is a 404, a malformed id a 400', async () => {
      const [alice, mallory] = await Promise.all([createBusiness(t.app, 'Alice Ltd'), createBusiness(t.app, 'Mallory Ltd')]);
      const receipt = await issueFor(alice.businessId, UNREGISTERED_PAYEE, 10_000);
      expect((await get('/api/business/payments', alice.cookie)).json().map((p: { receipt: { id: string } | null }) => p.receipt?.id)).toContain(receipt.id);
      expect((await get('/api/business/payments', mallory.cookie)).json()).toEqual([]);
      expectError(await get(`/api/business/receipts/${receipt.id}.pdf`, mallory.cookie), 404, 'not_found');
      expectError(await get(`/api/business/receipts/rct_doesnotexist.pdf`, alice.cookie), 404, 'not_found');
      expectError(await get(`/api/business/receipts/${encodeURIComponent("rct_x' or 1=1")}.pdf`, alice.cookie), 400, 'validation_failed');
      expectError(await get(`/api/business/receipts/${receipt.id}.pdf`), 401, 'unauthorized');
      expectError(await get('/api/business/payments'), 401, 'unauthorized');
      const nobody = await signIn(t.app, `${unique('nobiz')}@example.com`);
      expectError(await get('/api/business/payments', nobody), 404, 'not_found');
      const res = await get(`/api/business/receipts/${receipt.id}.pdf`, alice.cookie);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="sixdigit-receipt-${receipt.number.replaceAll('/', '-')}.pdf"`);
      expect(res.headers['cache-control']).toBe('private, no-store');
    });
  });
});
