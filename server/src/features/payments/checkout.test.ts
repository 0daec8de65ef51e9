import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../test/fakes/razorpay';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { call, createBusiness, impersonate, signIn } from '../../../../test/support/payments';
import { balancePaise, expectError, unique } from '../../../../test/support/verify-api';
import { listAuditEntries } from '../audit/repo';
import { listLedger } from '../credits/repo';
import * as checkout from './checkout';
import { createRazorpayOrder } from './razorpay';

const WEBHOOK = '/api/payments/razorpay/webhook';

describeEachDialect('Razorpay checkout', (dialect) => {
  let t: TestApp;
  let off: TestApp;
  let fake: FakeRazorpay;

  beforeAll(async () => {
    fake = await startFakeRazorpay();
    [t, off] = await Promise.all([createTestApp(dialect, fake.env()), createTestApp(dialect)]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), off?.close()]);
    await fake?.stop();
  });

  const post = (url: string, cookie: string | undefined, payload?: unknown, headers?: Record<string, string>) => call(t.app, 'POST', url, cookie, payload, headers);
  const createOrder = async (cookie: string, amount: number | string = 5000) => {
    const res = await post('/api/business/create-order', cookie, { amount });
    if (res.statusCode !== 200) throw new Error(`create-order: ${res.statusCode} ${res.body}`);
    return res.json() as { id: string; amount: number; currency: string; keyId: string };
  };
  const sendWebhook = (hook: { body: string; headers: Record<string, string> }) =>
    t.app.inject({ method: 'POST', url: WEBHOOK, payload: hook.body, headers: hook.headers });
  const topUps = async (businessId: string) => (await listLedger(t.ctx.db, businessId)).filter((e) => e.kind === 'top_up');

  describe('switched off (no RAZORPAY_KEY_ID / RAZORPAY_KEY_SECRET)', () => {
    it('says so in the payment config and answers 501 not_configured on every Razorpay route', async () => {
      const biz = await createBusiness(off.app, 'Offline Co');
      expect((await call(off.app, 'GET', '/api/business/payment-config', biz.cookie)).json()).toMatchObject({ razorpay: false, razorpayKeyId: null });
      const order = await call(off.app, 'POST', '/api/business/create-order', biz.cookie, { amount: 5000 });
      expectError(order, 501, 'not_configured');
      expect(order.json().error.message).toMatch(/coming soon/i);
      const verify = await call(off.app, 'POST', '/api/business/verify-payment', biz.cookie, fake.pay('order_AAAAAAAAAAAAAA'));
      expectError(verify, 501, 'not_configured');
      const hook = fake.webhook('payment.captured', 'order_AAAAAAAAAAAAAA', 'pay_AAAAAAAAAAAAAA');
      expectError(await off.app.inject({ method: 'POST', url: WEBHOOK, payload: hook.body, headers: hook.headers }), 501, 'not_configured');
    });

    it('answers 501 on the webhook when only the webhook secret is missing', async () => {
      const noSecret = { ...t.ctx, config: { ...t.ctx.config, razorpay: { ...t.ctx.config.razorpay!, webhookSecret: undefined } } };
      const hook = fake.webhook('payment.captured', 'order_AAAAAAAAAAAAAA', 'pay_AAAAAAAAAAAAAA');
      await expect(checkout.handleWebhook(noSecret, Buffer.from(hook.body), hook.signature)).rejects.toMatchObject({ code: 'not_configured', status: 501 });
    });
  });

  describe('create-order', () => {
    it('creates the order server-side with basic auth, paise, a receipt and the business id; stores it', async () => {
      const biz = await createBusiness(t.app, 'Checkout Co');
      expect((await call(t.app, 'GET', '/api/business/payment-config', biz.cookie)).json()).toMatchObject({ razorpay: true, razorpayKeyId: fake.keyId });
      const order = await createOrder(biz.cookie, '10000.00');
      expect(order).toMatchObject({ id: expect.stringMatching(/^order_/), amount: 1_000_000, currency: 'INR', keyId: fake.keyId, packId: 'standard' });

      const sent = fake.requests.filter((r) => r.path === '/v1/orders').at(-1)!;
      expect(sent.authorization).toBe(`Basic ${Buffer.from(`${fake.keyId}:${fake.keySecret}`).toString('base64')}`);
      expect(sent.body).toMatchObject({ amount: 1_000_000, currency: 'INR', receipt: expect.stringMatching(/^rcpt_/), notes: { business_id: biz.businessId, pack_id: 'standard' } });

      const row = await t.ctx.db.selectFrom('razorpay_order').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ business_id: biz.businessId, status: 'created', payment_id: null, pack_id: 'standard' });
      expect(Number(row.amount_paise)).toBe(1_000_000);
    });

    it.each([
      [99, 'Invalid Amount: Minimum amount is ₹100.'],
      [0, 'Invalid Amount: Minimum amount is ₹100.'],
      [7000, 'Payments are accepted only in multiples of ₹5,000: choose ₹5,000, ₹10,000, ₹15,000 or ₹20,000.'],
      [25000, 'Payments are accepted only in multiples of ₹5,000: choose ₹5,000, ₹10,000, ₹15,000 or ₹20,000.'],
      ['abc', 'Invalid Amount: give rupees with at most two decimals, e.g. 5000 or 5000.00.'],
    ])('refuses amount %j with 400 and calls nobody', async (amount, message) => {
      const biz = await createBusiness(t.app, 'Bad Amount Co');
      const calls = fake.requests.length;
      const res = await post('/api/business/create-order', biz.cookie, { amount });
      expectError(res, 400, 'validation_failed');
      expect(res.json().error.message).toBe(message);
      expect(fake.requests.length).toBe(calls);
    });

    it('answers 502 "Order Creation Failed" when Razorpay fails or refuses our key, and stores nothing', async () => {
      const biz = await createBusiness(t.app, 'Outage Co');
      fake.failNext(500);
      const res = await post('/api/business/create-order', biz.cookie, { amount: 5000 });
      expectError(res, 502, 'bad_gateway');
      expect(res.json().error.message).toBe('Order Creation Failed: Failed to create payment order. Please try again.');
      const wrongKey = { ...t.ctx.config.razorpay!, keySecret: 'wrong-secret-123' };
      await expect(createRazorpayOrder(wrongKey, { amountPaise: 500_000, receipt: 'r1', notes: {} })).rejects.toMatchObject({ code: 'bad_gateway' });
      await expect(createRazorpayOrder({ ...wrongKey, apiBase: 'http://127.0.0.1:9' }, { amountPaise: 500_000, receipt: 'r1', notes: {} })).rejects.toMatchObject({ code: 'bad_gateway' });
      expect(await t.ctx.db.selectFrom('razorpay_order').select('id').where('business_id', '=', biz.businessId).execute()).toEqual([]);
    });

    it('needs a signed-in user with a business, from our own pages, and refuses while impersonating', async () => {
      expectError(await post('/api/business/create-order', undefined, { amount: 5000 }), 401, 'unauthorized');
      const noBusiness = await signIn(t.app, `${unique('nobiz')}@example.com`);
      expectError(await post('/api/business/create-order', noBusiness, { amount: 5000 }), 404, 'not_found');
      expectError(await post('/api/business/verify-payment', noBusiness, fake.pay('order_AAAAAAAAAAAAAA')), 404, 'not_found');
      const biz = await createBusiness(t.app, 'Impersonated Buyer');
      const evil = { origin: 'https://evil.example' };
      expectError(await post('/api/business/create-order', biz.cookie, { amount: 5000 }, evil), 403, 'forbidden_origin');
      expectError(await post('/api/business/verify-payment', biz.cookie, fake.pay('order_AAAAAAAAAAAAAA'), evil), 403, 'forbidden_origin');
      await impersonate(t.ctx, biz.email);
      const res = await post('/api/business/create-order', biz.cookie, { amount: 5000 });
      expectError(res, 403, 'impersonation_forbidden');
      expectError(await post('/api/business/verify-payment', biz.cookie, fake.pay('order_AAAAAAAAAAAAAA')), 403, 'impersonation_forbidden');
    });
  });

  describe('verify-payment', () => {
    it('credits a properly signed payment once; a replay of the same payment is answered but not credited again', async () => {
      const biz = await createBusiness(t.app, 'Paid Co');
      const order = await createOrder(biz.cookie);
      const paid = fake.pay(order.id);
      const res = await post('/api/business/verify-payment', biz.cookie, paid);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'paid',
        credited: true,
        orderId: order.id,
        paymentId: paid.razorpay_payment_id,
        amount: '5000.00',
        balance: '5000.00',
        verificationsLeft: 50_000,
      });
      for (let i = 0; i < 3; i++) {
        const replay = await post('/api/business/verify-payment', biz.cookie, paid);
        expect(replay.statusCode).toBe(200);
        expect(replay.json()).toMatchObject({ credited: false, balance: '5000.00' });
      }
      expect(await topUps(biz.businessId)).toMatchObject([{ reference: paid.razorpay_payment_id, amountPaise: 500_000, actorLabel: biz.email }]);
      const audits = (await listAuditEntries(t.ctx.db, { subjectId: biz.businessId })).filter((a) => a.action === 'payment.razorpay_credited');
      expect(audits).toHaveLength(1);
      expect(audits[0]!.details).toMatchObject({ order_id: order.id, payment_id: paid.razorpay_payment_id, via: 'checkout' });
      const notes = (await call(t.app, 'GET', '/api/business/notifications', biz.cookie)).json();
      expect(notes.notifications).toMatchObject([{ kind: 'payment.succeeded', title: 'Payment Successful', message: '₹5,000 added: 50,000 verifications.' }]);
    });

    it('refuses forged, mismatched and malformed signatures (400) and credits nothing', async () => {
      const biz = await createBusiness(t.app, 'Forged Co');
      const order = await createOrder(biz.cookie);
      const genuine = fake.pay(order.id);
      const otherPayment = fake.pay(order.id);
      for (const body of [
        fake.forge(order.id),
        { ...genuine, razorpay_payment_id: otherPayment.razorpay_payment_id },
        { ...genuine, razorpay_signature: genuine.razorpay_signature.toUpperCase().replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
        { ...genuine, razorpay_signature: '' },
        { ...genuine, razorpay_signature: genuine.razorpay_signature.slice(0, 63) },
        { ...genuine, razorpay_signature: `${genuine.razorpay_signature}00` },
      ]) {
        const res = await post('/api/business/verify-payment', biz.cookie, body);
        expectError(res, 400, 'invalid_signature');
        expect(res.json().error.message).toBe('Payment Verification Failed: Payment verification failed. Please contact support.');
      }
      expectError(await post('/api/business/verify-payment', biz.cookie, { ...genuine, razorpay_order_id: 'not-an-order' }), 400, 'validation_failed');
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
      // The genuine one still works afterwards (signatures are compared case-insensitively as hex).
      expect((await post('/api/business/verify-payment', biz.cookie, { ...genuine, razorpay_signature: genuine.razorpay_signature.toUpperCase() })).json()).toMatchObject({ credited: true });
    });

    it("never credits a business for another business's order, nor an order we did not create (404)", async () => {
      const owner = await createBusiness(t.app, 'Order Owner');
      const thief = await createBusiness(t.app, 'Order Thief');
      const order = await createOrder(owner.cookie);
      const paid = fake.pay(order.id);
      const res = await post('/api/business/verify-payment', thief.cookie, paid);
      expectError(res, 404, 'not_found');
      expect(await balancePaise(t.ctx, thief.businessId)).toBe(0);
      expect(await balancePaise(t.ctx, owner.businessId)).toBe(0);
      // An order made at Razorpay directly (not through us), signed correctly.
      const stray = await createRazorpayOrder(t.ctx.config.razorpay!, { amountPaise: 500_000, receipt: 'stray', notes: {} });
      expectError(await post('/api/business/verify-payment', thief.cookie, fake.pay(stray.id)), 404, 'not_found');
      // The owner is credited normally.
      expect((await post('/api/business/verify-payment', owner.cookie, paid)).json()).toMatchObject({ credited: true, balance: '5000.00' });
    });

    it('refuses a payment id replayed against a second order (409), and a second payment for a paid order (409)', async () => {
      const biz = await createBusiness(t.app, 'Replay Co');
      const first = await createOrder(biz.cookie);
      const second = await createOrder(biz.cookie);
      const paid = fake.pay(first.id);
      expect((await post('/api/business/verify-payment', biz.cookie, paid)).json()).toMatchObject({ credited: true });
      // Same payment id, signed for the other order (as Razorpay would sign it): still credited once.
      const replayed = fake.pay(second.id, paid.razorpay_payment_id);
      const res = await post('/api/business/verify-payment', biz.cookie, replayed);
      expectError(res, 409, 'conflict');
      expect(res.json().error.message).toBe('This payment was already credited.');
      // A different payment for the first (already paid) order.
      const again = await post('/api/business/verify-payment', biz.cookie, fake.pay(first.id));
      expectError(again, 409, 'conflict');
      expect(again.json().error.message).toBe('This order was already paid with another payment.');
      expect(await topUps(biz.businessId)).toHaveLength(1);
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(500_000);
      const row = await t.ctx.db.selectFrom('razorpay_order').select(['status', 'payment_id']).where('id', '=', second.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'created', payment_id: null });
    });

    it('credits once when the same payment is verified many times at once', async () => {
      const biz = await createBusiness(t.app, 'Burst Co');
      const order = await createOrder(biz.cookie);
      const paid = fake.pay(order.id);
      const results = await Promise.all(Array.from({ length: 5 }, () => post('/api/business/verify-payment', biz.cookie, paid)));
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(results.filter((r) => r.json().credited)).toHaveLength(1);
      expect(await topUps(biz.businessId)).toHaveLength(1);
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(500_000);
    });
  });

  describe('webhook', () => {
    it('credits a captured payment the browser never reported, once, whichever events and reports follow', async () => {
      const biz = await createBusiness(t.app, 'Closed Tab Co');
      const order = await createOrder(biz.cookie, 15000);
      const paid = fake.pay(order.id);
      const captured = await sendWebhook(fake.webhook('payment.captured', order.id, paid.razorpay_payment_id));
      expect(captured.statusCode).toBe(200);
      expect(captured.json()).toEqual({ received: true, credited: true });
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(1_500_000);

      // Razorpay also sends order.paid, and retries; the browser comes back late.
      expect((await sendWebhook(fake.webhook('order.paid', order.id, paid.razorpay_payment_id))).json()).toEqual({ received: true, credited: false });
      expect((await sendWebhook(fake.webhook('payment.captured', order.id, paid.razorpay_payment_id))).json()).toEqual({ received: true, credited: false });
      expect((await post('/api/business/verify-payment', biz.cookie, paid)).json()).toMatchObject({ credited: false, balance: '15000.00' });

      expect(await topUps(biz.businessId)).toMatchObject([{ reference: paid.razorpay_payment_id, actorLabel: 'razorpay:webhook' }]);
      const row = await t.ctx.db.selectFrom('razorpay_order').select(['status', 'payment_id', 'paid_via']).where('id', '=', order.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'paid', payment_id: paid.razorpay_payment_id, paid_via: 'webhook' });
    });

    it('credits through order.paid alone too', async () => {
      const biz = await createBusiness(t.app, 'Order Paid Co');
      const order = await createOrder(biz.cookie, 20000);
      expect((await sendWebhook(fake.webhook('order.paid', order.id, fake.pay(order.id).razorpay_payment_id))).json()).toEqual({ received: true, credited: true });
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(2_000_000);
    });

    it('refuses forged, missing and stale signatures (400) and credits nothing', async () => {
      const biz = await createBusiness(t.app, 'Webhook Forgery Target');
      const order = await createOrder(biz.cookie);
      const paymentId = fake.pay(order.id).razorpay_payment_id;
      const forged = fake.webhook('payment.captured', order.id, paymentId, { secret: 'guessed-webhook-secret' });
      expectError(await sendWebhook(forged), 400, 'invalid_signature');
      const genuine = fake.webhook('payment.captured', order.id, paymentId);
      const { 'x-razorpay-signature': _omit, ...unsigned } = genuine.headers;
      expectError(await sendWebhook({ body: genuine.body, headers: unsigned }), 400, 'invalid_signature');
      // A genuine signature over a different body (an attacker edits the amount or the order).
      const edited = genuine.body.replace(order.id, 'order_SomeoneElses01');
      expectError(await sendWebhook({ body: edited, headers: genuine.headers }), 400, 'invalid_signature');
      // Re-serialised JSON (whitespace changed) no longer matches: the raw bytes are what is signed.
      expectError(await sendWebhook({ body: JSON.stringify(JSON.parse(genuine.body), null, 1), headers: genuine.headers }), 400, 'invalid_signature');
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
      expect((await sendWebhook(genuine)).json()).toEqual({ received: true, credited: true });
    });

    it('acknowledges but ignores other events, unknown orders and amounts that do not match the order', async () => {
      const biz = await createBusiness(t.app, 'Ignored Co');
      const order = await createOrder(biz.cookie);
      const paymentId = fake.pay(order.id).razorpay_payment_id;
      expect((await sendWebhook(fake.webhook('payment.failed', order.id, paymentId, { payment: { status: 'failed' } }))).json()).toMatchObject({ credited: false, ignored: 'event payment.failed' });
      expect((await sendWebhook(fake.webhook('payment.captured', order.id, paymentId, { payment: { status: 'authorized' } }))).json()).toMatchObject({ credited: false });
      expect((await sendWebhook(fake.webhook('payment.captured', 'order_NotOursAtAll01', 'pay_NotOursAtAll0001'))).json()).toMatchObject({ credited: false, ignored: 'unknown order' });
      const short = await sendWebhook(fake.webhook('payment.captured', order.id, paymentId, { payment: { amount: 100 } }));
      expect(short.json()).toMatchObject({ credited: false, ignored: 'amount does not match the order' });
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
      const [mismatch] = (await listAuditEntries(t.ctx.db, { subjectId: biz.businessId })).filter((a) => a.action === 'payment.razorpay_mismatch');
      expect(mismatch).toMatchObject({ details: { order_id: order.id, payment_id: paymentId, amount_paise: 100, expected_paise: 500_000 } });
    });

    it('answers 400 to a signed body that is not JSON or not a Razorpay event', async () => {
      const { createHmac } = await import('node:crypto');
      for (const body of ['not json', '{"payload":{}}']) {
        const signature = createHmac('sha256', fake.webhookSecret).update(body).digest('hex');
        const res = await sendWebhook({ body, headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature } });
        expect(res.statusCode).toBe(400);
      }
    });

    it('is not a cookie route: needs no session and is not refused for its Origin', async () => {
      const biz = await createBusiness(t.app, 'No Cookie Co');
      const order = await createOrder(biz.cookie);
      const hook = fake.webhook('payment.captured', order.id, fake.pay(order.id).razorpay_payment_id);
      const res = await t.app.inject({ method: 'POST', url: WEBHOOK, payload: hook.body, headers: { ...hook.headers, origin: 'https://razorpay.example' } });
      expect(res.json()).toEqual({ received: true, credited: true });
    });

    it('the webhook and the browser racing for one payment credit it exactly once', async () => {
      for (let round = 0; round < 3; round++) {
        const biz = await createBusiness(t.app, `Racing Reports ${round}`);
        const order = await createOrder(biz.cookie);
        const paid = fake.pay(order.id);
        const hook = fake.webhook('payment.captured', order.id, paid.razorpay_payment_id);
        const [browser, server, browser2] = await Promise.all([
          post('/api/business/verify-payment', biz.cookie, paid),
          sendWebhook(hook),
          post('/api/business/verify-payment', biz.cookie, paid),
        ]);
        expect([browser.statusCode, server.statusCode, browser2.statusCode]).toEqual([200, 200, 200]);
        expect([browser.json().credited, server.json().credited, browser2.json().credited].filter(Boolean)).toHaveLength(1);
        expect(await topUps(biz.businessId)).toHaveLength(1);
        expect(await balancePaise(t.ctx, biz.businessId)).toBe(500_000);
      }
    });
  });
});
