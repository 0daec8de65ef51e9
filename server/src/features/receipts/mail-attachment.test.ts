import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { createBusiness } from '../../../../test/support/payments';
import { readPdf } from '../../../../test/support/pdf';
import { mailsTo, startSmtp, type TestSmtp } from '../../../../test/support/smtp';
import { newId } from '../../lib/ids';
import { queueMail } from '../mail/outbox';
import { createMailTransport } from '../mail/transport';
import { MailWorker } from '../mail/worker';
import { receiptAttachment } from './mail-attachment';
import { renderReceiptPdf } from './pdf';
import * as repo from './repo';
import { issueReceipt } from './service';

describeEachDialect('the receipt as a mail attachment', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, MAIL_FROM: 'Sixdigit <billing@sixdigit.example>' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('is queued by reference in the crediting transaction and arrives as the receipt PDF', async () => {
    const biz = await createBusiness(t.app, 'Mailed Receipt Ltd');
    const receipt = await t.ctx.db.transaction().execute(async (trx) => {
      const issued = await issueReceipt(trx, {
        config: t.ctx.config,
        businessId: biz.businessId,
        ledgerEntryId: newId('led'),
        payment: { kind: 'test_payment', id: newId('tp') },
        method: 'bank_transfer',
        methodLabel: 'Bank transfer',
        paymentReference: 'SDMAILED01',
        transactionId: 'UTR998877665544',
        amountPaise: 250_000,
        issuedAt: new Date(),
      });
      await queueMail(trx, {
        to: { email: biz.email },
        template: 'topup_approved',
        data: { reference: 'SDMAILED01', amountPaise: 250_000, creditedPaise: 250_000, balancePaise: 250_000, receiptNumber: issued.number },
        attachments: [receiptAttachment(issued.id)],
      });
      return issued;
    });
    const transport = createMailTransport(t.ctx.config);
    try {
      await new MailWorker(t.ctx, { transport, now: () => new Date(Date.now() + 1000) }).runOnce();
    } finally {
      transport.close();
    }
    const [mail] = mailsTo(smtp, biz.email);
    expect(mail!.attachments).toHaveLength(1);
    const [pdf] = mail!.attachments;
    expect(pdf!.filename).toBe(`sixdigit-receipt-${receipt.number.replaceAll('/', '-')}.pdf`);
    expect(pdf!.contentType).toBe('application/pdf');
    const { text } = await readPdf(new Uint8Array(pdf!.content));
    for (const figure of [receipt.number, 'Mailed Receipt Ltd', 'Rs. 2,500.00', 'UTR998877665544', '25,000 verifications']) expect(text).toContain(figure);
  });

  it('renders the same bytes every time, so a retried mail carries the same file', async () => {
    const biz = await createBusiness(t.app, 'Same Bytes Ltd');
    const issued = await t.ctx.db.transaction().execute((trx) =>
      issueReceipt(trx, {
        config: t.ctx.config,
        businessId: biz.businessId,
        ledgerEntryId: newId('led'),
        payment: { kind: 'test_payment', id: newId('tp') },
        method: 'upi',
        methodLabel: 'UPI',
        paymentReference: 'SDSAME0001',
        transactionId: null,
        amountPaise: 10_000,
        issuedAt: new Date(),
      }),
    );
    const stored = (await repo.findReceiptById(t.ctx.db, issued.id))!;
    expect(Buffer.from(await renderReceiptPdf(stored)).equals(Buffer.from(await renderReceiptPdf(stored)))).toBe(true);
  });
});
