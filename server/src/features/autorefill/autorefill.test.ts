import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../test/fakes/razorpay';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { call, createBusiness, newUtr } from '../../../../test/support/payments';
import { balancePaise, bearer, expectError, fund, totpCode } from '../../../../test/support/verify-api';
import { mailsTo, startSmtp, type TestSmtp } from '../../../../test/support/smtp';
import { approvePayment } from '../financial/service';
import { createMailTransport } from '../mail/transport';
import { MailWorker } from '../mail/worker';
import { AutoRefillWorker } from './worker';

const WEBHOOK = '/api/payments/razorpay/webhook';
const BASIC = 500_000;

type Biz = Awaited<ReturnType<typeof createBusiness>>;

describeEachDialect('Auto-refill', (dialect) => {
  let t: TestApp;
  let bank: TestApp;
  let fake: FakeRazorpay;
  let smtp: TestSmtp;

  beforeAll(async () => {
    [fake, smtp] = await Promise.all([startFakeRazorpay(), startSmtp()]);
    [t, bank] = await Promise.all([createTestApp(dialect, fake.env({ SMTP_URL: smtp.url })), createTestApp(dialect, { SMTP_URL: smtp.url })]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), bank?.close()]);
    await Promise.all([fake?.stop(), smtp?.close()]);
  });

  /** Sends what the outbox holds through the real SMTP server; the mails that arrived for `email`. */
  async function mailsFor(app: TestApp, email: string) {
    await new MailWorker(app.ctx, { transport: createMailTransport(app.ctx.config) }).runOnce();
    return mailsTo(smtp, email);
  }

  const profile = async (app: TestApp, biz: Biz) => (await call(app.app, 'GET', '/api/business/profile', biz.cookie)).json();
  const refills = (app: TestApp, businessId: string) => app.ctx.db.selectFrom('auto_refill').selectAll().where('business_id', '=', businessId).orderBy('created_at').execute();
  const chargesFor = (businessId: string) => fake.recurringCharges.filter((p) => p.notes.business_id === businessId);
  const sendWebhook = (hook: { body: string; headers: Record<string, string> }) => t.app.inject({ method: 'POST', url: WEBHOOK, payload: hook.body, headers: hook.headers });

  /** Sets the threshold 50–59 verifications under the balance, so 200 checks cross it once. */
  async function thresholdJustUnder(app: TestApp, biz: Biz, packId = 'basic') {
    const balance = await balancePaise(app.ctx, biz.businessId);
    const thresholdRupees = Math.floor(balance / 100) - 5;
    const res = await call(app.app, 'PUT', '/api/business/auto-refill', biz.cookie, { enabled: true, thresholdRupees, packId });
    expect(res.statusCode, res.body).toBe(200);
    return thresholdRupees * 100;
  }

  /** n verifications at once through the public API (stateless checks: each one debits 10 paise). */
  async function verifyConcurrently(app: TestApp, biz: Biz, n: number) {
    await app.ctx.db.updateTable('business').set({ rate_limit_per_minute: 100_000 }).where('id', '=', biz.businessId).execute();
    const answers = await Promise.all(
      Array.from({ length: n }, () => {
        const secret = new Secret({ size: 20 }).base32;
        return app.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { secret, token: totpCode(secret) } });
      }),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200)).toEqual([]);
  }

  /** Saves a card mandate through Razorpay's recurring flow: customer + authorisation order, paid in checkout. */
  async function saveMandate(biz: Biz, method: 'card' | 'upi' = 'card', options: { confirmed?: boolean } = {}) {
    const start = await call(t.app, 'POST', '/api/business/auto-refill/mandate', biz.cookie, { method, packId: 'basic', thresholdRupees: 1000 });
    expect(start.statusCode, start.body).toBe(200);
    const order = start.json();
    const paid = fake.authorise(order.orderId, options);
    const confirm = await call(t.app, 'POST', '/api/business/auto-refill/mandate/confirm', biz.cookie, {
      razorpay_order_id: paid.razorpay_order_id,
      razorpay_payment_id: paid.razorpay_payment_id,
      razorpay_signature: paid.razorpay_signature,
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    return { order, paid, profile: confirm.json() };
  }

  describe('with Razorpay: the saved card or UPI mandate is charged', () => {
    it('saves the mandate as Razorpay documents it: customer, authorisation order with a token block, token read from the payment', async () => {
      const biz = await createBusiness(t.app, 'Mandate Co');
      const before = await balancePaise(t.ctx, biz.businessId);
      const { order, paid, profile: after } = await saveMandate(biz);

      expect(order).toMatchObject({ amount: BASIC, currency: 'INR', keyId: fake.keyId, method: 'card', customerId: expect.stringMatching(/^cust_/) });
      const customerCall = fake.requests.find((r) => r.path === '/v1/customers' && (r.body as { notes?: { business_id?: string } }).notes?.business_id === biz.businessId);
      expect(customerCall?.body).toMatchObject({ email: biz.email, fail_existing: '0' });
      const authOrder = fake.orders.get(order.orderId)!;
      expect(authOrder).toMatchObject({ customer_id: order.customerId, method: 'card', token: { max_amount: 2_000_000, frequency: 'as_presented' } });

      // The authorising payment bought the pack through the one credit path, and switched auto-refill on.
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(before + BASIC);
      expect(after.autoRefill).toMatchObject({ enabled: true, mode: 'razorpay', thresholdPaise: 100_000, packId: 'basic', offReason: null, mandate: { method: 'card', status: 'active', label: 'Visa •••• 1111' } });
      const mandate = await t.ctx.db.selectFrom('auto_refill_mandate').selectAll().where('business_id', '=', biz.businessId).executeTakeFirstOrThrow();
      expect(mandate).toMatchObject({ customer_id: order.customerId, token_id: paid.tokenId, status: 'active' });

      // Reporting the same payment again credits nothing more.
      const again = await call(t.app, 'POST', '/api/business/auto-refill/mandate/confirm', biz.cookie, { razorpay_order_id: paid.razorpay_order_id, razorpay_payment_id: paid.razorpay_payment_id, razorpay_signature: paid.razorpay_signature });
      expect(again.statusCode).toBe(200);
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(before + BASIC);
    });

    it('activates a UPI mandate when Razorpay confirms its token later (token.confirmed webhook)', async () => {
      const biz = await createBusiness(t.app, 'Upi Later Co');
      const { paid, profile: pending } = await saveMandate(biz, 'upi', { confirmed: false });
      expect(pending.autoRefill).toMatchObject({ enabled: false, mandate: { method: 'upi', status: 'pending' } });
      expect((await sendWebhook(fake.confirmToken(paid.tokenId))).statusCode).toBe(200);
      expect((await profile(t, biz)).autoRefill).toMatchObject({ enabled: true, mandate: { method: 'upi', status: 'active' } });
    });

    it('refuses to switch auto-refill on without a saved mandate, a forged checkout result, and another business’s order', async () => {
      const biz = await createBusiness(t.app, 'No Mandate Co');
      const refused = await call(t.app, 'PUT', '/api/business/auto-refill', biz.cookie, { enabled: true, thresholdRupees: 500, packId: 'basic' });
      expectError(refused, 409, 'conflict');
      expect(refused.json().error.message).toMatch(/Save a card or UPI mandate first/);

      const start = (await call(t.app, 'POST', '/api/business/auto-refill/mandate', biz.cookie, { method: 'card', packId: 'basic', thresholdRupees: 500 })).json();
      const forged = fake.forge(start.orderId);
      expectError(await call(t.app, 'POST', '/api/business/auto-refill/mandate/confirm', biz.cookie, forged), 400, 'invalid_signature');

      const other = await createBusiness(t.app, 'Other Co');
      const paid = fake.authorise(start.orderId);
      const stolen = await call(t.app, 'POST', '/api/business/auto-refill/mandate/confirm', other.cookie, { razorpay_order_id: paid.razorpay_order_id, razorpay_payment_id: paid.razorpay_payment_id, razorpay_signature: paid.razorpay_signature });
      expectError(stolen, 404, 'not_found');
      expect((await profile(t, biz)).autoRefill.enabled).toBe(false);
    });

    it('charges the saved token once per crossing under 200 concurrent verifications, and credits on the signed webhook', async () => {
      const biz = await createBusiness(t.app, 'Crossing Co');
      await saveMandate(biz);
      const threshold = await thresholdJustUnder(t, biz);
      const before = await balancePaise(t.ctx, biz.businessId);

      await verifyConcurrently(t, biz, 200);
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(before - 2_000);
      expect(before - 2_000).toBeLessThan(threshold);
      expect(chargesFor(biz.businessId)).toHaveLength(0); // nothing is charged on the verification path

      // Two workers (two instances) at once: one claims it.
      await Promise.all([new AutoRefillWorker(t.ctx).runOnce(), new AutoRefillWorker(t.ctx).runOnce()]);
      await new AutoRefillWorker(t.ctx).runOnce();
      const charges = chargesFor(biz.businessId);
      expect(charges).toHaveLength(1);
      expect(charges[0]).toMatchObject({ amount: BASIC, recurring: true, status: 'created' });
      const rows = await refills(t, biz.businessId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'charging', mode: 'razorpay', order_id: charges[0]!.order_id, payment_id: charges[0]!.id });

      // Razorpay captures it and says so, signed: credited once (the same path as checkout).
      expect((await sendWebhook(fake.capture(charges[0]!.id))).json()).toMatchObject({ credited: true });
      expect((await sendWebhook(fake.capture(charges[0]!.id))).json()).toMatchObject({ credited: false });
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(before - 2_000 + BASIC);
      expect((await refills(t, biz.businessId))[0]).toMatchObject({ status: 'credited' });
      expect((await profile(t, biz)).autoRefill.lastRefill).toMatchObject({ status: 'credited', amount: '5000.00' });
      const charged = (await mailsFor(t, biz.email)).filter((m) => m.subject?.startsWith('Auto-refill:'));
      expect(charged.map((m) => m.subject)).toEqual(['Auto-refill: ₹5,000 charged to your Visa •••• 1111']);
      expect(charged[0]!.text).toContain(charges[0]!.id);
      expect(charged[0]!.text).toContain('below your auto-refill threshold');

      // A new crossing is a new refill.
      await thresholdJustUnder(t, biz);
      await verifyConcurrently(t, biz, 200);
      await new AutoRefillWorker(t.ctx).runOnce();
      expect(chargesFor(biz.businessId)).toHaveLength(2);
      expect(await refills(t, biz.businessId)).toHaveLength(2);
    });

    it('a refused charge turns auto-refill off and the dashboard says why', async () => {
      const biz = await createBusiness(t.app, 'Refused Co');
      await saveMandate(biz);
      await thresholdJustUnder(t, biz);
      await verifyConcurrently(t, biz, 60);
      fake.refuseNextRecurring('The token is not active');
      await new AutoRefillWorker(t.ctx).runOnce();

      expect(chargesFor(biz.businessId)).toHaveLength(0);
      const { autoRefill } = await profile(t, biz);
      expect(autoRefill).toMatchObject({ enabled: false, offReason: expect.stringContaining('The token is not active'), lastRefill: { status: 'failed' } });
      const notes = (await call(t.app, 'GET', '/api/business/notifications', biz.cookie)).json();
      expect(notes.notifications[0]).toMatchObject({ kind: 'auto_refill.failed', title: 'Auto-refill switched off' });
      const [mail, ...more] = await mailsFor(t, biz.email);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe('Auto-refill is off: the ₹5,000 charge failed');
      expect(mail!.text).toContain('The token is not active');

      // Off means off: the next crossing starts nothing; turning it on again clears the reason.
      await verifyConcurrently(t, biz, 10);
      expect(await refills(t, biz.businessId)).toHaveLength(1);
      const on = await call(t.app, 'PUT', '/api/business/auto-refill', biz.cookie, { enabled: true, thresholdRupees: 100, packId: 'basic' });
      expect(on.json().autoRefill).toMatchObject({ enabled: true, offReason: null });
    });

    it('a charge the bank declines later (payment.failed) turns auto-refill off with the bank’s reason', async () => {
      const biz = await createBusiness(t.app, 'Declined Co');
      await saveMandate(biz);
      await thresholdJustUnder(t, biz);
      await verifyConcurrently(t, biz, 60);
      await new AutoRefillWorker(t.ctx).runOnce();
      const [charge] = chargesFor(biz.businessId);
      const before = await balancePaise(t.ctx, biz.businessId);
      expect((await sendWebhook(fake.decline(charge!.id, 'Payment failed due to insufficient balance in the account.'))).statusCode).toBe(200);
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(before);
      expect((await profile(t, biz)).autoRefill).toMatchObject({ enabled: false, offReason: expect.stringContaining('insufficient balance'), lastRefill: { status: 'failed' } });
    });

    it('retries a gateway outage later, and never charges twice when an earlier attempt reached Razorpay', async () => {
      const biz = await createBusiness(t.app, 'Outage Co');
      await saveMandate(biz);
      await thresholdJustUnder(t, biz);
      await verifyConcurrently(t, biz, 60);
      fake.failNext(503);
      const now = Date.now();
      await new AutoRefillWorker(t.ctx).runOnce(); // the 503 answers the charge's order
      let [row] = await refills(t, biz.businessId);
      expect(row).toMatchObject({ attempts: 1, payment_id: null });
      expect(chargesFor(biz.businessId)).toHaveLength(0);
      await new AutoRefillWorker(t.ctx, { now: () => new Date(now + 31 * 60_000) }).runOnce();
      expect(chargesFor(biz.businessId)).toHaveLength(1);

      // A worker that died after Razorpay took the charge but before recording it: the next one asks first.
      await t.ctx.db.updateTable('auto_refill').set({ payment_id: null, locked_until: null, next_attempt_at: new Date(now) }).where('business_id', '=', biz.businessId).execute();
      await new AutoRefillWorker(t.ctx, { now: () => new Date(now + 32 * 60_000) }).runOnce();
      expect(chargesFor(biz.businessId)).toHaveLength(1);
      [row] = await refills(t, biz.businessId);
      expect(row).toMatchObject({ status: 'charging', payment_id: chargesFor(biz.businessId)[0]!.id });
    });

    it('credits a captured charge whose webhook never came, by asking Razorpay once it is overdue', async () => {
      const biz = await createBusiness(t.app, 'Lost Webhook Co');
      await saveMandate(biz);
      await thresholdJustUnder(t, biz);
      await verifyConcurrently(t, biz, 60);
      await new AutoRefillWorker(t.ctx).runOnce();
      const [charge] = chargesFor(biz.businessId);
      fake.capture(charge!.id); // Razorpay captured it; its webhook is lost
      const before = await balancePaise(t.ctx, biz.businessId);
      const now = Date.now();
      await new AutoRefillWorker(t.ctx, { now: () => new Date(now + 5 * 60_000) }).runOnce();
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(before); // not overdue yet
      await new AutoRefillWorker(t.ctx, { now: () => new Date(now + 16 * 60_000) }).runOnce();
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(before + BASIC);
      expect((await refills(t, biz.businessId))[0]).toMatchObject({ status: 'credited', payment_id: charge!.id });
      // The webhook arriving late credits nothing more.
      expect((await sendWebhook(fake.capture(charge!.id))).json()).toMatchObject({ credited: false });
      expect(await balancePaise(t.ctx, biz.businessId)).toBe(before + BASIC);
      expect(chargesFor(biz.businessId)).toHaveLength(1);
    });

    it('a mandate the bank cancels (token.cancelled) turns auto-refill off and says why; nothing is charged at the next crossing', async () => {
      const biz = await createBusiness(t.app, 'Cancelled Co');
      const { paid } = await saveMandate(biz);
      expect((await sendWebhook(fake.revokeToken(paid.tokenId, 'token.cancelled'))).statusCode).toBe(200);
      const { autoRefill } = await profile(t, biz);
      expect(autoRefill).toMatchObject({ enabled: false, offReason: expect.stringContaining('was cancelled'), mandate: { status: 'revoked' } });
      expectError(await call(t.app, 'PUT', '/api/business/auto-refill', biz.cookie, { enabled: true, thresholdRupees: 100, packId: 'basic' }), 409, 'conflict');
    });

    it('removes the mandate: the token is deleted at Razorpay and auto-refill goes off', async () => {
      const biz = await createBusiness(t.app, 'Remove Co');
      const { paid } = await saveMandate(biz);
      const res = await call(t.app, 'DELETE', '/api/business/auto-refill/mandate', biz.cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().autoRefill).toMatchObject({ enabled: false, mandate: null });
      expect(fake.tokens.has(paid.tokenId)).toBe(false);
    });
  });

  describe('without Razorpay: a bank/UPI top-up request', () => {
    it('makes exactly one request per crossing, none while one is open, a fresh one after it is paid', async () => {
      const biz = await createBusiness(bank.app, 'Bank Refill Co');
      await fund(bank.ctx, biz.businessId, 200_000);
      expect((await profile(bank, biz)).autoRefill.mode).toBe('bank');
      await thresholdJustUnder(bank, biz, 'standard');
      await verifyConcurrently(bank, biz, 200);
      await Promise.all([new AutoRefillWorker(bank.ctx).runOnce(), new AutoRefillWorker(bank.ctx).runOnce()]);

      let rows = await refills(bank, biz.businessId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ mode: 'bank', status: 'open', pack_id: 'standard' });
      const refs = await bank.ctx.db.selectFrom('payment_reference').selectAll().where('business_id', '=', biz.businessId).execute();
      expect(refs).toHaveLength(1);
      const { lastRefill } = (await profile(bank, biz)).autoRefill;
      expect(lastRefill).toMatchObject({ status: 'open', amount: '10000.00', request: { paymentReference: refs[0]!.reference, amount: '10000.00', qrCodeImageUrl: expect.stringMatching(/^data:image\/png;base64,/) } });
      expect(lastRefill.request.upiUri).toContain(`tn=${refs[0]!.reference}`);
      const notes = (await call(bank.app, 'GET', '/api/business/notifications', biz.cookie)).json();
      expect(notes.notifications[0]).toMatchObject({ kind: 'auto_refill.request', message: expect.stringContaining(refs[0]!.reference) });
      // E-mailed to the owner: the reference, the amount, and the UPI QR as a PNG.
      const [mail, ...more] = await mailsFor(bank, biz.email);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe(`Auto-refill: please pay ₹10,000 (reference ${refs[0]!.reference})`);
      expect(mail!.text).toContain(refs[0]!.reference);
      expect(mail!.text).toContain('₹10,000.00');
      expect(mail!.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`upi-qr-${refs[0]!.reference}.png`, 'image/png']]);
      expect(mail!.attachments[0]!.content.subarray(1, 4).toString()).toBe('PNG');

      // Another crossing while it is open: nothing new.
      await thresholdJustUnder(bank, biz, 'standard');
      await verifyConcurrently(bank, biz, 100);
      await new AutoRefillWorker(bank.ctx).runOnce();
      expect(await refills(bank, biz.businessId)).toHaveLength(1);
      expect(await mailsFor(bank, biz.email)).toHaveLength(1);

      // The owner pays it and the desk approves: the request is done; the next crossing opens a new one.
      const claim = await call(bank.app, 'POST', '/api/business/payment-requests', biz.cookie, { paymentReference: refs[0]!.reference, utr: newUtr(), amount: 10000, paymentMethod: 'upi' });
      expect(claim.statusCode, claim.body).toBe(201);
      await approvePayment(bank.ctx, claim.json().id, {}, { userId: null, label: 'desk test' });
      expect((await refills(bank, biz.businessId))[0]).toMatchObject({ status: 'credited' });
      await thresholdJustUnder(bank, biz, 'standard');
      await verifyConcurrently(bank, biz, 100);
      await new AutoRefillWorker(bank.ctx).runOnce();
      rows = await refills(bank, biz.businessId);
      expect(rows.map((r) => r.status)).toEqual(['credited', 'open']);
      expect(rows[1]!.reference_id).not.toBe(rows[0]!.reference_id);
    });

    it('closes an unpaid request when its reference expires, so a later crossing issues a fresh one', async () => {
      const biz = await createBusiness(bank.app, 'Expiry Co');
      await fund(bank.ctx, biz.businessId, 200_000);
      await thresholdJustUnder(bank, biz);
      await verifyConcurrently(bank, biz, 60);
      await new AutoRefillWorker(bank.ctx).runOnce();
      await new AutoRefillWorker(bank.ctx, { now: () => new Date(Date.now() + 8 * 86_400_000) }).runOnce();
      expect((await refills(bank, biz.businessId))[0]).toMatchObject({ status: 'expired' });
    });

    it('refuses the mandate routes (no Razorpay here)', async () => {
      const biz = await createBusiness(bank.app, 'No Card Co');
      expectError(await call(bank.app, 'POST', '/api/business/auto-refill/mandate', biz.cookie, { method: 'card', packId: 'basic', thresholdRupees: 500 }), 501, 'not_configured');
    });
  });
});
