import { LOW_BALANCE_THRESHOLD_PAISE } from '@common/pricing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../test/fakes/razorpay';
import { ORIGIN as SITE, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { call, createBusiness, signIn, signInWithRole, submitPayment } from '../../../../test/support/payments';
import { impersonatingCookie } from '../../../../test/support/permissions';
import type { ParsedMail } from 'mailparser';
import { formatRupees } from '@common/pricing';
import { mailsTo, startSmtp, type TestSmtp } from '../../../../test/support/smtp';
import { SoftAuthenticator } from '../../../../test/support/webauthn';
import { createHook, currentCode, failedCheck, grant, startReceiver, type Receiver } from '../../../../test/support/webhooks';
import { createSender } from '../webhooks/sender';
import { WebhookWorker } from '../webhooks/worker';
import { createMailTransport } from './transport';
import { MailWorker } from './worker';

/**
 * Every mail of issue 22 item 2, caused through the product's own routes and workers, sent by the
 * mail worker to a real SMTP server: each arrives once, to the right person, with its subject and
 * the figures in its text.
 */
describeEachDialect('what is e-mailed, and when', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let fake: FakeRazorpay;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    fake = await startFakeRazorpay();
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE: 'true', ...fake.env() });
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await fake?.stop();
  });

  /** Runs the mail worker (clock a little ahead: mails queued just now are due) and answers the mails to `address`. */
  const deliver = async (address: string, at = new Date(Date.now() + 1000)) => {
    const transport = createMailTransport(t.ctx.config);
    await new MailWorker(t.ctx, { transport, now: () => at }).runOnce();
    transport.close();
    // A batch is sent side by side: order them by when they were queued (their Date header).
    return mailsTo(smtp, address).sort((a, b) => (a.date?.getTime() ?? 0) - (b.date?.getTime() ?? 0));
  };
  const hasListUnsubscribe = (m: ParsedMail) => /^List-Unsubscribe:\s*</m.test(smtp.received.find((r) => r.mail === m)!.raw);
  const subjects = async (address: string) => (await deliver(address)).map((m) => m.subject);
  const userIdOf = async (email: string) => (await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  /** The credited payment's receipt: its number in the text, its PDF attached once. */
  function expectReceiptAttached(mail: ParsedMail) {
    const number = /Receipt: +(SD\/\d{4}-\d{2}\/\d{6})/.exec(mail.text ?? '')?.[1];
    expect(number, mail.text).toBeDefined();
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf!.contentType).toBe('application/pdf');
    expect(pdf!.filename).toMatch(/\.pdf$/);
    expect(pdf!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }

  describe('payments', () => {
    it('top-up submitted (reference, amount, what happens next), then approved (credits, new balance)', async () => {
      const biz = await createBusiness(t.app, 'Mail Approve Co');
      const request = await submitPayment(t.app, biz.cookie);
      const [submitted] = await deliver(biz.email);
      expect(submitted!.subject).toBe(`Top-up ${request.paymentReference} received: ₹5,000`);
      expect(submitted!.text).toContain(request.paymentReference);
      expect(submitted!.text).toContain('₹5,000.00');
      expect(submitted!.text).toContain(`UTR ${request.utr}`);
      expect(submitted!.text).toContain('What happens next');
      const desk = await signInWithRole(t.ctx, t.app, 'financial_manager');
      const approved = await call(t.app, 'POST', `/api/financial/approve-payment/${request.id}`, desk.cookie, {});
      expect(approved.statusCode, approved.body).toBe(200);
      const mails = await deliver(biz.email);
      expect(mails.map((m) => m.subject).sort()).toEqual([`Top-up ${request.paymentReference} approved: ₹5,000 added`, `Top-up ${request.paymentReference} received: ₹5,000`]);
      const approvedMail = mails.find((m) => m.subject!.includes('approved'))!;
      expect(approvedMail.text).toContain('Credits added:');
      expect(approvedMail.text).toContain('₹5,000.00 (50,000 verifications)');
      expect(hasListUnsubscribe(approvedMail)).toBe(true);
      expectReceiptAttached(approvedMail);
    });

    it('rejected, with the reason', async () => {
      const biz = await createBusiness(t.app, 'Mail Reject Co');
      const request = await submitPayment(t.app, biz.cookie);
      const desk = await signInWithRole(t.ctx, t.app, 'financial_manager');
      const rejected = await call(t.app, 'POST', `/api/financial/reject-payment/${request.id}`, desk.cookie, { reason: 'No credit with this UTR reached our account.' });
      expect(rejected.statusCode, rejected.body).toBe(200);
      const mails = await deliver(biz.email);
      expect(mails.map((m) => m.subject).sort()).toEqual([`Top-up ${request.paymentReference} received: ₹5,000`, `Top-up ${request.paymentReference} was not approved`].sort());
      expect(mails.find((m) => m.subject!.endsWith('not approved'))!.text).toContain('> No credit with this UTR reached our account.');
    });

    it('card payment credited', async () => {
      const biz = await createBusiness(t.app, 'Mail Card Co');
      const order = await call(t.app, 'POST', '/api/business/create-order', biz.cookie, { amount: 5000 });
      expect(order.statusCode, order.body).toBe(200);
      const paid = fake.pay(order.json().id);
      const verified = await call(t.app, 'POST', '/api/business/verify-payment', biz.cookie, paid);
      expect(verified.statusCode, verified.body).toBe(200);
      // The signed webhook reporting the same payment credits nothing more, and mails nothing more.
      const hook = fake.webhook('payment.captured', order.json().id, paid.razorpay_payment_id);
      await t.app.inject({ method: 'POST', url: '/api/payments/razorpay/webhook', payload: hook.body, headers: hook.headers });
      const mails = await deliver(biz.email);
      expect(mails.map((m) => m.subject)).toEqual(['Card payment received: ₹5,000 added']);
      expect(mails[0]!.text).toContain(paid.razorpay_payment_id);
      expectReceiptAttached(mails[0]!);
    });
  });

  describe('balance', () => {
    it('low balance when a check first takes it under the threshold, at most once a day; depleted when it runs out', async () => {
      const biz = await createBusiness(t.app, 'Mail Low Co');
      await grant(t.ctx, biz.businessId, LOW_BALANCE_THRESHOLD_PAISE + 10);
      for (let i = 0; i < 3; i++) expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(200);
      const low = await deliver(biz.email);
      expect(low.map((m) => m.subject)).toEqual([`Low balance: ${formatRupees(LOW_BALANCE_THRESHOLD_PAISE - 10)} left for Mail Low Co`]);
      expect(low[0]!.text).toContain(`under your threshold of ${formatRupees(LOW_BALANCE_THRESHOLD_PAISE)}`);
      // Topped up and crossing again the same day: no second low-balance mail.
      await grant(t.ctx, biz.businessId, 100);
      for (let i = 0; i < 12; i++) expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(200);
      expect(await subjects(biz.email)).toHaveLength(1);

      const empty = await createBusiness(t.app, 'Mail Empty Co');
      await grant(t.ctx, empty.businessId, 20);
      for (let i = 0; i < 2; i++) expect((await failedCheck(t.app, empty.apiKey)).statusCode).toBe(200);
      expect((await failedCheck(t.app, empty.apiKey)).statusCode).toBe(402);
      // Granted under the line: no crossing, so only the depletion is mailed.
      expect(await subjects(empty.email)).toEqual(['Mail Empty Co: balance used up, verifications are refused']);
    });
  });

  it('a webhook endpoint switched off after a day of failures', async () => {
    const biz = await createBusiness(t.app, 'Mail Hooks Co');
    await grant(t.ctx, biz.businessId, 100_000);
    const receiver = await startReceiver(() => 500);
    receivers.push(receiver);
    const hook = await createHook(t.app, biz.cookie, { url: receiver.url, events: ['verification.failed'] });
    expect((await failedCheck(t.app, biz.apiKey)).statusCode).toBe(200);
    const start = new Date(Date.now() + 1000);
    let clock = start;
    const worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 2000, allowPrivate: true }), now: () => clock });
    await worker.runOnce();
    clock = new Date(start.getTime() + t.ctx.config.webhookDisableAfterMs + 60_000);
    await worker.runOnce();
    const row = await t.ctx.db.selectFrom('webhook').select('is_active').where('id', '=', hook.id).executeTakeFirstOrThrow();
    expect(Boolean(row.is_active)).toBe(false);
    const mails = await deliver(biz.email, new Date(clock.getTime() + 1000));
    expect(mails.map((m) => m.subject)).toEqual(['A webhook endpoint was switched off']);
    expect(mails[0]!.text).toContain(receiver.url);
    expect(mails[0]!.text).toContain('Every delivery failed for');
  });

  describe('contact', () => {
    it('a signed-out sender gets the acknowledgement with the reference, and Luna’s answer by e-mail', async () => {
      const email = `visitor-${dialect}@example.com`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        headers: { origin: SITE, 'sec-fetch-site': 'same-origin' },
        payload: { email, category: 'technical', subject: 'How do I verify a code?', message: 'Which endpoint checks a TOTP code?' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const reference = res.json().reference as string;
      const mails = await deliver(email);
      expect(mails.map((m) => m.subject).sort()).toEqual([`Re: How do I verify a code? (${reference})`, `We received your message (${reference})`]);
      expect(mails.find((m) => m.subject!.startsWith('We received'))!.text).toContain(reference);
      const answer = mails.find((m) => m.subject!.startsWith('Re:'))!;
      expect(answer.text).toContain('drafted by Luna');
      expect(answer.text!.length).toBeGreaterThan(200);
    });

    it('the desk’s resolution goes by e-mail to a signed-out sender; a signed-in sender gets only the acknowledgement', async () => {
      const email = `asker-${dialect}@example.com`;
      const sent = await t.app.inject({ method: 'POST', url: '/api/contact', headers: { origin: SITE, 'sec-fetch-site': 'same-origin' }, payload: { email, category: 'general', subject: 'Invoices', message: 'Do you send invoices?' } });
      expect(sent.statusCode, sent.body).toBe(201);
      const id = sent.json().message.id as string;
      const desk = await signInWithRole(t.ctx, t.app, 'financial_manager');
      const closed = await call(t.app, 'POST', `/api/financial/close-message/${id}`, desk.cookie, { resolution: 'Yes: every credited payment gets a receipt by e-mail.' });
      expect(closed.statusCode, closed.body).toBe(200);
      const mails = await deliver(email);
      expect(mails.map((m) => m.subject).sort()).toEqual([`Re: Invoices (${sent.json().reference})`, `We received your message (${sent.json().reference})`]);
      expect(mails.find((m) => m.subject!.startsWith('Re:'))!.text).toContain('> Yes: every credited payment gets a receipt by e-mail.');

      const member = `member-${dialect}@example.com`;
      const cookie = await signIn(t.app, member);
      const mine = await call(t.app, 'POST', '/api/contact', cookie, { category: 'general', subject: 'Hello', message: 'Just saying hello to the team.' });
      expect(mine.statusCode, mine.body).toBe(201);
      await call(t.app, 'POST', `/api/financial/close-message/${mine.json().message.id}`, desk.cookie, { resolution: 'Hello to you.' });
      expect(await subjects(member)).toEqual([`We received your message (${mine.json().reference})`]);
    });
  });

  it('the impersonation notice, when the administrator stops acting as the person', async () => {
    const biz = await createBusiness(t.app, 'Mail Watched Co');
    const acting = await impersonatingCookie(t, await userIdOf(biz.email));
    const stopped = await post(t.app, '/api/admin/impersonation/stop', acting, {});
    expect(stopped.statusCode, stopped.body).toBe(200);
    const mails = await deliver(biz.email);
    expect(mails.map((m) => m.subject)).toEqual(['An administrator viewed your account']);
    expect(mails[0]!.text).toContain('admin@example.com');
    expect(hasListUnsubscribe(mails[0]!)).toBe(false);
  });

  describe('security notices', () => {
    it('second factor on, backup codes regenerated, second factor off', async () => {
      const email = `secure-${dialect}@example.com`;
      const cookie = await signIn(t.app, email);
      const setup = await call(t.app, 'POST', '/api/user/setup-totp', cookie, {});
      expect(setup.statusCode, setup.body).toBe(201);
      const { secret, backupCodes } = setup.json() as { secret: string; backupCodes: string[] };
      expect((await call(t.app, 'POST', '/api/user/confirm-totp', cookie, { code: currentCode(secret) })).statusCode).toBe(200);
      const regenerated = await call(t.app, 'POST', '/api/user/totp-backup-codes', cookie, { backupCode: backupCodes[0] });
      expect(regenerated.statusCode, regenerated.body).toBe(200);
      const fresh = regenerated.json().backupCodes as string[];
      expect((await call(t.app, 'POST', '/api/user/disable-totp', cookie, { backupCode: fresh[0] })).statusCode).toBe(200);
      const mails = await deliver(email);
      expect(mails.map((m) => m.subject).sort()).toEqual(['New backup codes were made for your account', 'Two-step sign-in is on', 'Two-step sign-in was turned off']);
      expect(mails.some(hasListUnsubscribe)).toBe(false);
      expect(mails.every((m) => m.text!.includes('cannot be turned off'))).toBe(true);
    });

    it('passkey added and removed', async () => {
      const email = `keys-${dialect}@example.com`;
      const cookie = await signIn(t.app, email);
      const authenticator = new SoftAuthenticator(SITE, new URL(SITE).hostname);
      const options = await post(t.app, '/api/user/passkeys/registration-options', cookie, {});
      const added = await post(t.app, '/api/user/passkeys', cookie, { name: 'Pixel 9', response: await authenticator.register(options.json()) });
      expect(added.statusCode, added.body).toBe(201);
      const removed = await t.app.inject({ method: 'DELETE', url: `/api/user/passkeys/${added.json().passkey.id}`, headers: { origin: SITE, 'sec-fetch-site': 'same-origin', cookie } });
      expect(removed.statusCode, removed.body).toBeLessThan(300);
      expect((await subjects(email)).sort()).toEqual(['Passkey added: Pixel 9', 'Passkey removed: Pixel 9']);
    });

    it('sign-in from a new kind of device, not from one already used, nor the first sign-in', async () => {
      const email = `devices-${dialect}@example.com`;
      const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
      const signInWith = (userAgent: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login/local',
          payload: new URLSearchParams({ email, name: 'Device Person' }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', 'user-agent': userAgent },
        });
      expect((await signInWith(firefox)).statusCode).toBe(303);
      expect((await signInWith(firefox.replace('140.0', '141.0'))).statusCode).toBe(303); // an update is not a new device
      expect(await subjects(email)).toEqual([]);
      expect((await signInWith('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1')).statusCode).toBe(303);
      const mails = await deliver(email);
      expect(mails.map((m) => m.subject)).toEqual(['New sign-in to your Sixdigit account']);
      expect(mails[0]!.text).toContain('Safari 18 on iOS 18');
    });
  });
});
