import type { AppContext } from '../../context';
import { registerAttachment, type AttachmentRef } from '../mail/outbox';
import { renderReceiptPdf } from './pdf';
import * as repo from './repo';
import { receiptFileName } from './service';

/**
 * The receipt PDF as a mail attachment: the outbox row stores only `{ kind: 'receipt', ref: <receipt id> }`
 * and the worker makes the PDF from the committed (frozen) receipt row when it sends the mail, so a
 * retry attaches the same file. Imported by mail/attachment-kinds.ts.
 */
export const RECEIPT_ATTACHMENT_KIND = 'receipt';

export function receiptAttachment(receiptId: string): AttachmentRef {
  return { kind: RECEIPT_ATTACHMENT_KIND, ref: receiptId };
}

registerAttachment(RECEIPT_ATTACHMENT_KIND, async (ctx: AppContext, receiptId: string) => {
  const receipt = await repo.findReceiptById(ctx.db, receiptId);
  if (!receipt) throw new Error(`receipt ${receiptId} does not exist`);
  return { filename: receiptFileName(receipt), contentType: 'application/pdf', content: Buffer.from(await renderReceiptPdf(receipt)) };
});
