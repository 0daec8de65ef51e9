/**
 * One description of a mail, two renderings: a plain-text part and an HTML part with the product's
 * look (inline styles only; mail clients drop <style> and external CSS). Templates never write HTML:
 * they return blocks of plain strings, and every string is escaped here, so a business name or a
 * contact message can never inject markup or links into a mail.
 */

export type Block =
  | { kind: 'paragraph'; text: string }
  /** label/value pairs: amounts, references, balances */
  | { kind: 'facts'; rows: Array<[string, string]> }
  | { kind: 'button'; label: string; url: string }
  /** someone's own words (a contact message, an answer), kept with their line breaks */
  | { kind: 'quote'; text: string }
  | { kind: 'note'; text: string };

export interface MailContent {
  subject: string;
  heading: string;
  blocks: Block[];
}

export interface Footer {
  /** why this person receives it */
  reason: string;
  /** the signed link that turns this category off, for mails a person may turn off */
  unsubscribeUrl?: string;
  preferencesUrl?: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export const p = (text: string): Block => ({ kind: 'paragraph', text });
export const facts = (rows: Array<[string, string]>): Block => ({ kind: 'facts', rows });
export const button = (label: string, url: string): Block => ({ kind: 'button', label, url });
export const quote = (text: string): Block => ({ kind: 'quote', text });
export const note = (text: string): Block => ({ kind: 'note', text });

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Only http(s) links get into a mail's href (a `javascript:` URL from data would be a link to code). */
function safeUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '#';
}

/** A subject is one line: a newline in data must never start a header of its own. */
function oneLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, ' ').replace(/\s{2,}/g, ' ').trim().slice(0, 200);
}

const COLOR = { text: '#1f2433', muted: '#6b7080', primary: '#4f46e5', border: '#e6e7ee', panel: '#f6f7fa', page: '#f3f4f8' };
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

function textBlock(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'facts': {
      const width = Math.max(...block.rows.map(([label]) => label.length));
      return block.rows.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`).join('\n');
    }
    case 'button':
      return `${block.label}: ${safeUrl(block.url)}`;
    case 'quote':
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`)
        .join('\n');
    case 'note':
      return block.text;
  }
}

function htmlBlock(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;font-size:15px;line-height:1.55;color:${COLOR.text}">${escapeHtml(block.text)}</p>`;
    case 'facts':
      return (
        `<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;margin:0 0 16px;border:1px solid ${COLOR.border};border-radius:8px;background:${COLOR.panel};border-collapse:separate">` +
        block.rows
          .map(
            ([label, value]) =>
              `<tr><td style="padding:8px 12px;font-size:13px;color:${COLOR.muted};white-space:nowrap;vertical-align:top">${escapeHtml(label)}</td>` +
              `<td style="padding:8px 12px;font-size:14px;color:${COLOR.text};font-weight:600;word-break:break-word">${escapeHtml(value)}</td></tr>`,
          )
          .join('') +
        '</table>'
      );
    case 'button':
      return (
        `<p style="margin:8px 0 20px"><a href="${escapeHtml(safeUrl(block.url))}" style="display:inline-block;padding:10px 18px;border-radius:8px;background:${COLOR.primary};color:#ffffff;font-size:14px;font-weight:600;text-decoration:none">` +
        `${escapeHtml(block.label)}</a></p>`
      );
    case 'quote':
      return `<div style="margin:0 0 16px;padding:10px 14px;border-left:3px solid ${COLOR.primary};background:${COLOR.panel};font-size:14px;line-height:1.55;color:${COLOR.text};white-space:pre-wrap">${escapeHtml(block.text)}</div>`;
    case 'note':
      return `<p style="margin:0 0 12px;font-size:13px;line-height:1.5;color:${COLOR.muted}">${escapeHtml(block.text)}</p>`;
  }
}

export function renderMail(content: MailContent, footer: Footer): RenderedMail {
  const subject = oneLine(content.subject);
  const footerLines = [
    footer.reason,
    ...(footer.unsubscribeUrl ? [`Stop these e-mails: ${footer.unsubscribeUrl}`] : []),
    ...(footer.preferencesUrl ? [`All e-mail settings: ${footer.preferencesUrl}`] : []),
  ];
  const text = [content.heading, '', ...content.blocks.map((b) => `${textBlock(b)}\n`), '-- ', 'Sixdigit', ...footerLines, ''].join('\n');

  const footerHtml = [
    escapeHtml(footer.reason),
    ...(footer.unsubscribeUrl ? [`<a href="${escapeHtml(footer.unsubscribeUrl)}" style="color:${COLOR.muted}">Stop these e-mails</a>`] : []),
    ...(footer.preferencesUrl ? [`<a href="${escapeHtml(footer.preferencesUrl)}" style="color:${COLOR.muted}">E-mail settings</a>`] : []),
  ].join(' &middot; ');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:${COLOR.page};font-family:${FONT}">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${COLOR.page}"><tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px">` +
    `<tr><td style="padding:0 4px 12px;font-size:17px;font-weight:700;color:${COLOR.text};letter-spacing:-0.01em"><span style="color:${COLOR.primary}">&#9679;</span> Sixdigit</td></tr>` +
    `<tr><td style="background:#ffffff;border:1px solid ${COLOR.border};border-radius:12px;padding:28px 28px 12px">` +
    `<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3;color:${COLOR.text}">${escapeHtml(content.heading)}</h1>` +
    content.blocks.map(htmlBlock).join('') +
    `</td></tr>` +
    `<tr><td style="padding:14px 4px;font-size:12px;line-height:1.5;color:${COLOR.muted}">${footerHtml}</td></tr>` +
    `</table></td></tr></table></body></html>`;
  return { subject, text, html };
}
