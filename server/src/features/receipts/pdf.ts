import { GST_RATE_PERCENT, gstStateName } from '@common/gst';
import { formatCountIndian, formatRupees } from '@common/pricing';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Receipt } from './repo';

/**
 * A receipt (or tax invoice) as an A4 PDF, made with pdf-lib from the frozen receipt row alone,
 * so the same receipt renders the same figures whenever it is downloaded or attached.
 */

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const INK = rgb(0.09, 0.1, 0.15);
const MUTED = rgb(0.42, 0.45, 0.5);
const RULE = rgb(0.87, 0.88, 0.91);
/** the product's primary indigo (web/src/styles.css --primary) */
const BRAND = rgb(0.31, 0.27, 0.9);
const BRAND_TINT = rgb(0.95, 0.95, 1);

/** "Rs. 5,000.00": the standard PDF fonts have no ₹ glyph, and an invoice shows every paisa. */
export function rupeesText(paise: number): string {
  return formatRupees(paise, { decimals: 'always' }).replace('₹', 'Rs. ');
}

/** "25 Nov 2026", the day in India. */
export function istDate(at: Date): string {
  return new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', day: '2-digit', month: 'short', year: 'numeric' }).format(at);
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/**
 * Helvetica (a standard PDF font, nothing embedded) encodes WinAnsi only: characters outside it
 * (Devanagari, emoji) would make pdf-lib throw, so they print as "?" rather than losing the receipt.
 */
function printable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  return Array.from(text.replace(/\s+/g, ' '), (ch) => (supported.has(ch.codePointAt(0)!) ? ch : '?')).join('');
}

/** Splits text into lines no wider than `width` (words longer than a line are cut). */
function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of printable(font, text).split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

class Writer {
  constructor(
    readonly page: PDFPage,
    readonly fonts: Fonts,
  ) {}

  text(text: string, x: number, y: number, opts: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; alignRight?: boolean } = {}) {
    const font = opts.bold ? this.fonts.bold : this.fonts.regular;
    const size = opts.size ?? 10;
    const safe = printable(font, text);
    const drawX = opts.alignRight ? x - font.widthOfTextAtSize(safe, size) : x;
    this.page.drawText(safe, { x: drawX, y, size, font, color: opts.color ?? INK });
  }

  /** A block of wrapped lines; answers the y below it. */
  block(lines: string[], x: number, y: number, width: number, opts: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb> } = {}): number {
    const size = opts.size ?? 10;
    const font = opts.bold ? this.fonts.bold : this.fonts.regular;
    for (const raw of lines) {
      for (const line of wrap(font, size, raw, width)) {
        this.text(line, x, y, opts);
        y -= size * 1.4;
      }
    }
    return y;
  }

  rule(y: number, x1 = MARGIN, x2 = A4[0] - MARGIN) {
    this.page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness: 0.75, color: RULE });
  }
}

export async function renderReceiptPdf(receipt: Receipt): Promise<Uint8Array> {
  const taxInvoice = receipt.payee.gstin !== null;
  const title = taxInvoice ? 'Tax invoice' : 'Receipt';
  const doc = await PDFDocument.create();
  doc.setTitle(`${title} ${receipt.number}`);
  doc.setAuthor(receipt.payee.name);
  doc.setSubject(`Payment of ${rupeesText(receipt.amountPaise)} by ${receipt.buyer.name}`);
  doc.setCreator('Sixdigit');
  doc.setProducer('Sixdigit (pdf-lib)');
  doc.setCreationDate(receipt.issuedAt);
  doc.setModificationDate(receipt.issuedAt);
  const page = doc.addPage(A4);
  const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  const w = new Writer(page, fonts);
  const [width, height] = A4;
  const right = width - MARGIN;
  const column = (width - 2 * MARGIN - 24) / 2;

  // Header band: the brand, the document's kind and number.
  page.drawRectangle({ x: 0, y: height - 96, width, height: 96, color: BRAND });
  w.text('Sixdigit', MARGIN, height - 52, { size: 22, bold: true, color: rgb(1, 1, 1) });
  w.text('TOTP verification API', MARGIN, height - 70, { size: 9, color: rgb(0.85, 0.86, 1) });
  w.text(title.toUpperCase(), right, height - 46, { size: 16, bold: true, color: rgb(1, 1, 1), alignRight: true });
  w.text(receipt.number, right, height - 64, { size: 11, color: rgb(1, 1, 1), alignRight: true });
  w.text(`Date ${istDate(receipt.issuedAt)}`, right, height - 79, { size: 9, color: rgb(0.85, 0.86, 1), alignRight: true });

  // Parties.
  let y = height - 130;
  w.text(taxInvoice ? 'SUPPLIER' : 'RECEIVED BY', MARGIN, y, { size: 8, bold: true, color: MUTED });
  w.text(taxInvoice ? 'BILLED TO' : 'RECEIVED FROM', MARGIN + column + 24, y, { size: 8, bold: true, color: MUTED });
  y -= 16;
  const payeeLines = [receipt.payee.details];
  if (receipt.payee.gstin) payeeLines.push(`GSTIN ${receipt.payee.gstin}`);
  if (receipt.payee.state) payeeLines.push(`State ${receipt.payee.state} · ${gstStateName(receipt.payee.state) ?? ''}`);
  const buyerLines: string[] = [];
  if (receipt.buyer.address) buyerLines.push(receipt.buyer.address);
  if (receipt.buyer.email) buyerLines.push(receipt.buyer.email);
  if (receipt.buyer.gstin) buyerLines.push(`GSTIN ${receipt.buyer.gstin}`);
  if (receipt.buyer.state) buyerLines.push(`State ${receipt.buyer.state} · ${gstStateName(receipt.buyer.state) ?? ''}`);
  const afterPayeeName = w.block([receipt.payee.name], MARGIN, y, column, { size: 11, bold: true });
  const afterBuyerName = w.block([receipt.buyer.name], MARGIN + column + 24, y, column, { size: 11, bold: true });
  const afterPayee = w.block(payeeLines, MARGIN, afterPayeeName - 2, column, { size: 9, color: MUTED });
  const afterBuyer = w.block(buyerLines, MARGIN + column + 24, afterBuyerName - 2, column, { size: 9, color: MUTED });
  y = Math.min(afterPayee, afterBuyer) - 14;
  if (taxInvoice) {
    const place = receipt.buyer.state ? `${receipt.buyer.state} · ${gstStateName(receipt.buyer.state) ?? ''}` : 'not given by the buyer (IGST charged)';
    w.text(`Place of supply: ${place}`, MARGIN, y, { size: 9 });
    y -= 20;
  }

  // The line: credits bought.
  page.drawRectangle({ x: MARGIN, y: y - 6, width: width - 2 * MARGIN, height: 22, color: BRAND_TINT });
  w.text('DESCRIPTION', MARGIN + 8, y, { size: 8, bold: true, color: MUTED });
  if (taxInvoice) w.text('SAC', MARGIN + 300, y, { size: 8, bold: true, color: MUTED });
  w.text(taxInvoice ? 'TAXABLE VALUE' : 'AMOUNT', right - 8, y, { size: 8, bold: true, color: MUTED, alignRight: true });
  y -= 26;
  w.text('Prepaid verification credits', MARGIN + 8, y, { size: 10, bold: true });
  if (receipt.sac) w.text(receipt.sac, MARGIN + 300, y, { size: 10 });
  w.text(rupeesText(receipt.taxablePaise), right - 8, y, { size: 10, alignRight: true });
  y -= 14;
  w.text(`Credits added: ${formatCountIndian(receipt.creditsAdded)} verifications`, MARGIN + 8, y, { size: 9, color: MUTED });
  y -= 16;
  w.rule(y);
  y -= 18;

  // Totals, right-aligned.
  const labelX = right - 200;
  const totalLine = (label: string, paise: number, bold = false) => {
    w.text(label, labelX, y, { size: bold ? 11 : 10, bold });
    w.text(rupeesText(paise), right - 8, y, { size: bold ? 11 : 10, bold, alignRight: true });
    y -= bold ? 20 : 16;
  };
  if (taxInvoice) {
    totalLine('Taxable value', receipt.taxablePaise);
    if (receipt.igstPaise > 0 || (receipt.cgstPaise === 0 && receipt.sgstPaise === 0)) {
      totalLine(`IGST @ ${GST_RATE_PERCENT}%`, receipt.igstPaise);
    } else {
      totalLine(`CGST @ ${GST_RATE_PERCENT / 2}%`, receipt.cgstPaise);
      totalLine(`SGST @ ${GST_RATE_PERCENT / 2}%`, receipt.sgstPaise);
    }
    w.rule(y + 8, labelX, right);
    y -= 4;
  }
  totalLine(taxInvoice ? 'Total (GST inclusive)' : 'Amount received', receipt.amountPaise, true);

  // Payment.
  y -= 10;
  w.text('PAYMENT', MARGIN, y, { size: 8, bold: true, color: MUTED });
  y -= 16;
  const paymentLines: [string, string][] = [
    ['Method', receipt.methodLabel],
    ['Reference', receipt.paymentReference],
  ];
  if (receipt.transactionId) paymentLines.push([receipt.method === 'upi' || receipt.method === 'bank_transfer' ? 'UTR' : 'Payment ID', receipt.transactionId]);
  paymentLines.push(['Amount paid', rupeesText(receipt.amountPaise)]);
  for (const [label, value] of paymentLines) {
    w.text(label, MARGIN, y, { size: 9, color: MUTED });
    w.block([value], MARGIN + 90, y, width - 2 * MARGIN - 90, { size: 9 });
    y -= 14;
  }

  // Footer.
  w.rule(MARGIN + 38);
  w.block(
    [
      taxInvoice
        ? 'Payment received with thanks. Computer-generated tax invoice; no signature required. Tax is not payable on reverse charge.'
        : 'Payment received with thanks. Computer-generated receipt; no signature required. No GST was charged.',
    ],
    MARGIN,
    MARGIN + 24,
    width - 2 * MARGIN,
    { size: 8, color: MUTED },
  );
  w.text(`${receipt.number} · issued ${istDate(receipt.issuedAt)} · ${receipt.id}`, MARGIN, MARGIN + 10, { size: 8, color: MUTED });

  return doc.save();
}
