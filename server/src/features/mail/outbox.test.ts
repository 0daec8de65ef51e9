import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, testConfig, type TestApp } from '../../../../test/support/db';
import { mailsTo, startSmtp, type TestSmtp } from '../../../../test/support/smtp';
import { toNumber } from '../../db/normalize';
import { queueMail, registerAttachment } from './outbox';
import * as repo from './repo';
import { createMailTransport, type MailTransport } from './transport';
import { MAIL_LEASE_MS, MAIL_RETRY_DELAYS_MS, MailWorker } from './worker';

/**
 * The outbox against a real SMTP server: a mail is sent if and only if its event's transaction
 * commits, once; an outage or a crash delays it but loses nothing; a repeat carries the same
 * Message-ID; without SMTP_URL it becomes an .eml file.
 */
/** A moment just after now: mails queued (at the real time) in a test are due for its worker. */
const soon = () => new Date(Date.now() + 1000);
const testNote = async (_ctx: unknown, ref: string) => ({ filename: `${ref}.txt`, contentType: 'text/plain', content: Buffer.from(`made for ${ref}`) });

describeEachDialect('mail outbox', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let clock: Date;
  const transports: MailTransport[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, MAIL_FROM: 'Sixdigit <billing@sixdigit.example>' });
  });
  afterEach(async () => {
    smtp.received.splice(0);
    smtp.answer = 'accept';
    await smtp.start();
    await t.ctx.db.deleteFrom('mail_outbox').execute();
    transports.splice(0).forEach((tr) => tr.close());
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const worker = (transport?: MailTransport) => {
    const tr = transport ?? createMailTransport(t.ctx.config);
    transports.push(tr);
    return new MailWorker(t.ctx, { transport: tr, now: () => clock });
  };
  const userId = async (email: string) => {
    await signIn(t.app, email);
    return (await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  };
  const rows = () => t.ctx.db.selectFrom('mail_outbox').select(['id', 'status', 'attempt_count', 'last_error']).orderBy('created_at').execute();
  const attempts = (mailId: string) => t.ctx.db.selectFrom('mail_attempt').select(['attempt_number', 'outcome']).where('mail_id', '=', mailId).orderBy('attempt_number').execute();

  it('sends a committed mail once, with both parts from one template, the sender, a Message-ID and List-Unsubscribe; a rolled-back one never', async () => {
    clock = soon();
    const email = `owner-${dialect}@example.com`;
    const id = await userId(email);
    await t.ctx.db
      .transaction()
      .execute(async (trx) => {
        await queueMail(trx, { to: { userId: id }, template: 'topup_rejected', data: { reference: 'SD-LOST', amountPaise: 100, reason: 'x' } });
        throw new Error('the event failed');
      })
      .catch(() => {});
    const mailId = await t.ctx.db.transaction().execute((trx) =>
      queueMail(trx, { to: { userId: id }, template: 'topup_approved', data: { reference: 'SD-ABC123', amountPaise: 500_000, creditedPaise: 500_000, balancePaise: 512_340, receiptNumber: 'SD/2026-27/000001' } }),
    );
    expect(mailId).toMatch(/^mail_/);
    const w = worker();
    expect(await w.runOnce()).toBe(1);
    expect(await w.runOnce()).toBe(0);

    const [mail] = mailsTo(smtp, email);
    expect(smtp.received).toHaveLength(1);
    expect(mail!.subject).toBe('Top-up SD-ABC123 approved: ₹5,000 added');
    expect(mail!.from?.value).toEqual([{ name: 'Sixdigit', address: 'billing@sixdigit.example' }]);
    expect(mail!.messageId).toBe(`<${mailId}@localhost>`);
    expect(mail!.text).toContain('New balance:');
    expect(mail!.text).toContain('₹5,123.40 (51,234 verifications)');
    expect(mail!.html).toContain('₹5,123.40');
    expect(mail!.headers.get('auto-submitted')).toBe('auto-generated');
    const unsubscribe = String(mail!.headers.get('list-unsubscribe') ?? (mail!.headers.get('list') as { unsubscribe?: { url: string } })?.unsubscribe?.url);
    expect(unsubscribe).toMatch(/^<?http:\/\/localhost:5000\/api\/mail\/one-click\/u1\./);
    expect(smtp.received[0]!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(mail!.text).toContain('http://localhost:5000/email/unsubscribe?token=u1.');
    expect((await rows()).map((r) => r.status)).toEqual(['sent']);
    expect(await attempts(mailId!)).toEqual([{ attempt_number: 1, outcome: 'sent' }]);
  });

  it('security notices carry no List-Unsubscribe and are sent even to someone who turned every optional mail off', async () => {
    clock = soon();
    const email = `sec-${dialect}@example.com`;
    const id = await userId(email);
    for (const category of ['payments', 'balance', 'webhooks']) await repo.setPreference(t.ctx.db, id, category, false, clock);
    await queueMail(t.ctx.db, { to: { userId: id }, template: 'backup_codes_regenerated', data: { at: clock.toISOString() } });
    await queueMail(t.ctx.db, { to: { userId: id }, template: 'balance_depleted', data: { companyName: 'Off Ltd' } });
    await worker().runOnce();
    const mails = mailsTo(smtp, email);
    expect(mails.map((m) => m.subject)).toEqual(['New backup codes were made for your account']);
    expect(mails[0]!.headers.has('list-unsubscribe')).toBe(false);
    expect(mails[0]!.text).toContain('cannot be turned off');
    expect((await rows()).map((r) => r.status).sort()).toEqual(['sent', 'suppressed']);
  });

  it('escapes every interpolated value in the HTML part, and a newline in data cannot add a header', async () => {
    clock = soon();
    await queueMail(t.ctx.db, {
      to: { email: 'visitor@example.com' },
      template: 'contact_answer',
      data: { reference: 'C-1', subject: 'Hi\r\nBcc: victim@example.com', answer: '<script>alert(1)</script> & <a href="javascript:x">x</a>', from: 'desk' },
    });
    await worker().runOnce();
    const [received] = smtp.received;
    expect(received!.rcptTo).toEqual(['visitor@example.com']);
    expect(received!.mail.subject).toBe('Re: Hi Bcc: victim@example.com (C-1)');
    expect(received!.mail.html).not.toContain('<script>');
    expect(received!.mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;a href=&quot;javascript:x&quot;&gt;');
    expect(received!.mail.text).toContain('> <script>alert(1)</script>');
  });

  it('SMTP down for a while: attempts are recorded with backoff, and the mails arrive once after it returns', async () => {
    const start = soon();
    clock = start;
    await smtp.stop();
    for (const n of [1, 2, 3]) await queueMail(t.ctx.db, { to: { email: `outage-${n}@example.com` }, template: 'balance_depleted', data: { companyName: `Outage ${n}` } });
    const w = worker();
    expect(await w.runOnce()).toBe(3);
    expect((await rows()).map((r) => [r.status, toNumber(r.attempt_count)])).toEqual(Array(3).fill(['pending', 1]));
    // Not due again before the backoff.
    clock = new Date(start.getTime() + MAIL_RETRY_DELAYS_MS[0]! - 1);
    expect(await w.runOnce()).toBe(0);
    clock = new Date(start.getTime() + MAIL_RETRY_DELAYS_MS[0]! + 1);
    expect(await w.runOnce()).toBe(3); // still down: second attempt fails too
    await smtp.start();
    clock = new Date(clock.getTime() + MAIL_RETRY_DELAYS_MS[1]! + 1);
    expect(await w.runOnce()).toBe(3);
    expect(smtp.received.map((r) => r.rcptTo[0]).sort()).toEqual(['outage-1@example.com', 'outage-2@example.com', 'outage-3@example.com']);
    const after = await rows();
    expect(after.map((r) => [r.status, toNumber(r.attempt_count)])).toEqual(Array(3).fill(['sent', 3]));
    expect((await attempts(after[0]!.id)).map((a) => a.outcome)).toEqual(['retry', 'retry', 'sent']);
    expect(await w.runOnce()).toBe(0);
  });

  it('a temporary refusal (451) is retried; a permanent one (550) is given up at once', async () => {
    clock = soon();
    smtp.answer = 'temporary';
    await queueMail(t.ctx.db, { to: { email: 'later@example.com' }, template: 'balance_depleted', data: { companyName: 'Later' } });
    await worker().runOnce();
    expect((await rows())[0]).toMatchObject({ status: 'pending' });
    expect((await rows())[0]!.last_error).toContain('451');
    await t.ctx.db.deleteFrom('mail_outbox').execute();
    smtp.answer = 'permanent';
    const id = await queueMail(t.ctx.db, { to: { email: 'nobody@example.com' }, template: 'balance_depleted', data: { companyName: 'Nobody' } });
    await worker().runOnce();
    clock = new Date(clock.getTime() + 86_400_000);
    expect(await worker().runOnce()).toBe(0);
    expect((await rows())[0]).toMatchObject({ status: 'failed' });
    expect(await attempts(id!)).toEqual([{ attempt_number: 1, outcome: 'failed' }]);
    expect(smtp.received).toHaveLength(0);
  });

  it('a worker that dies before the SMTP server accepted: the next worker sends after the lease, exactly once', async () => {
    const start = soon();
    clock = start;
    await queueMail(t.ctx.db, { to: { email: 'crash-before@example.com' }, template: 'balance_depleted', data: { companyName: 'Crash' } });
    const dying: MailTransport = { send: () => new Promise(() => {}), close: () => {} };
    void worker(dying).runOnce();
    for (let i = 0; i < 100 && (await rows())[0]?.status !== 'sending'; i++) await new Promise((r) => setTimeout(r, 10));
    const fresh = worker();
    clock = new Date(start.getTime() + MAIL_LEASE_MS - 1);
    expect(await fresh.runOnce()).toBe(0);
    clock = new Date(start.getTime() + MAIL_LEASE_MS + 1);
    expect(await fresh.runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ status: 'sent' });
    expect(toNumber((await rows())[0]!.attempt_count)).toBe(2);
  });

  it('the documented window: a worker that dies after the SMTP server accepted but before marking it sent makes one repeat, with the same Message-ID', async () => {
    const start = soon();
    clock = start;
    const id = await queueMail(t.ctx.db, { to: { email: 'crash-after@example.com' }, template: 'balance_depleted', data: { companyName: 'Window' } });
    const real = createMailTransport(t.ctx.config);
    transports.push(real);
    const acceptedThenDied: MailTransport = { send: async (m) => (await real.send(m), new Promise(() => {})), close: () => {} };
    void worker(acceptedThenDied).runOnce();
    await smtp.waitFor(1);
    clock = new Date(start.getTime() + MAIL_LEASE_MS + 1);
    expect(await worker().runOnce()).toBe(1);
    expect(smtp.received.map((r) => r.mail.messageId)).toEqual([`<${id}@localhost>`, `<${id}@localhost>`]);
    expect(smtp.received[0]!.mail.date?.toISOString()).toBe(smtp.received[1]!.mail.date?.toISOString());
  });

  it('attachments: bytes stored with the row, and a reference rendered at send time by its registered renderer', async () => {
    clock = soon();
    registerAttachment('test-note', testNote);
    await queueMail(t.ctx.db, {
      to: { email: 'files@example.com' },
      template: 'balance_depleted',
      data: { companyName: 'Files' },
      attachments: [
        { filename: 'stored.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.7 stored') },
        { kind: 'test-note', ref: 'R-42' },
      ],
    });
    await worker().runOnce();
    const [mail] = mailsTo(smtp, 'files@example.com');
    expect(mail!.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([
      ['stored.pdf', 'application/pdf', '%PDF-1.7 stored'],
      ['R-42.txt', 'text/plain', 'made for R-42'],
    ]);
  });

  it('a reference to an attachment kind nobody registered is retried, not sent without its file', async () => {
    clock = soon();
    await queueMail(t.ctx.db, { to: { email: 'nofile@example.com' }, template: 'balance_depleted', data: { companyName: 'X' }, attachments: [{ kind: 'never-registered', ref: '1' }] });
    await worker().runOnce();
    expect((await rows())[0]).toMatchObject({ status: 'pending' });
    expect((await rows())[0]!.last_error).toContain('never-registered');
    expect(smtp.received).toHaveLength(0);
  });

  it('upkeep deletes finished mails after the retention, never a queued one', async () => {
    const { runUpkeep, MAIL_RETENTION_DAYS } = await import('../upkeep/service');
    const old = new Date(Date.now() - (MAIL_RETENTION_DAYS + 1) * 86_400_000);
    const sent = await queueMail(t.ctx.db, { to: { email: 'old@example.com' }, template: 'balance_depleted', data: { companyName: 'Old' }, now: old });
    const waiting = await queueMail(t.ctx.db, { to: { email: 'old-waiting@example.com' }, template: 'balance_depleted', data: { companyName: 'Old' }, now: old });
    await t.ctx.db.updateTable('mail_outbox').set({ status: 'sent' }).where('id', '=', sent!).execute();
    await t.ctx.db.insertInto('mail_attempt').values({ id: 'mat_old', mail_id: sent!, attempt_number: 1, outcome: 'sent', smtp_response: '250', created_at: old }).execute();
    const report = await runUpkeep(t.ctx);
    expect(report?.mails).toBe(1);
    expect((await rows()).map((r) => r.id)).toEqual([waiting]);
    expect(await attempts(sent!)).toEqual([]);
  });

  it('a dedupe key queues at most one mail', async () => {
    clock = soon();
    const key = `balance_low:biz:${clock.toISOString().slice(0, 10)}`;
    const first = await queueMail(t.ctx.db, { to: { email: 'once@example.com' }, template: 'balance_low', data: { companyName: 'Once', balancePaise: 900, thresholdPaise: 1000 }, dedupeKey: key });
    const second = await queueMail(t.ctx.db, { to: { email: 'once@example.com' }, template: 'balance_low', data: { companyName: 'Once', balancePaise: 800, thresholdPaise: 1000 }, dedupeKey: key });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    await worker().runOnce();
    expect(smtp.received).toHaveLength(1);
  });
});

describeEachDialect('mail without SMTP_URL', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sixdigit-mail-'));
    t = await createTestApp(dialect, { DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes each mail as an .eml file under DATA_DIR/mail with one log line naming it, and a repeat replaces the file', async () => {
    expect(t.ctx.config.mail.smtpUrl).toBeUndefined();
    const lines: Array<{ msg: string; file: string }> = [];
    const logger = { info: (obj: object, msg: string) => lines.push({ msg, file: (obj as { file: string }).file }), warn: () => {}, error: () => {} };
    const id = await queueMail(t.ctx.db, { to: { email: 'dev@example.com' }, template: 'topup_submitted', data: { reference: 'SD-DEV1', amountPaise: 250_000, method: 'UPI', reviewHours: '2–4 hours' } });
    const transport = createMailTransport(t.ctx.config, logger);
    await new MailWorker(t.ctx, { transport, logger }).runOnce();
    const dir = join(dataDir, 'mail');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`-${id}\\.eml$`));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toContain(files[0]);
    const parsed = await simpleParser(readFileSync(join(dir, files[0]!)));
    expect(parsed.subject).toBe('Top-up SD-DEV1 received: ₹2,500');
    expect(parsed.text).toContain('What happens next');
    expect(parsed.to && 'text' in parsed.to ? parsed.to.text : '').toBe('dev@example.com');
    // The same mail sent again (a crash before the mark) overwrites its file.
    await t.ctx.db.updateTable('mail_outbox').set({ status: 'pending' }).execute();
    await new MailWorker(t.ctx, { transport, logger }).runOnce();
    expect(readdirSync(dir)).toEqual(files);
    expect(existsSync(join(dir, `${files[0]}.tmp`))).toBe(false);
  });
});

it('production refuses to start without SMTP_URL', () => {
  const production = {
    NODE_ENV: 'production',
    OIDC_CLIENT_ID: 'client',
    APP_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    ADMIN_EMAIL: 'admin@example.com',
    PUBLIC_URL: 'https://sixdigit.example.com',
  };
  expect(() => testConfig(production)).toThrow(/SMTP_URL: required in production/);
  expect(testConfig({ ...production, SMTP_URL: 'smtps://user:pass@smtp.example.com:465' }).mail.smtpUrl).toBe('smtps://user:pass@smtp.example.com:465');
  expect(() => testConfig({ SMTP_URL: 'http://smtp.example.com' })).toThrow(/SMTP_URL/);
  expect(() => testConfig({ MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM/);
  expect(testConfig({ PUBLIC_URL: 'https://sixdigit.example.com' }).mail.from).toBe('Sixdigit <no-reply@sixdigit.example.com>');
});
