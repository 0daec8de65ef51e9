/**
 * Text for an operator's terminal. Tenant-supplied strings (company names, e-mails, reasons,
 * UTRs) may carry ANSI/VT escapes or other control characters that would clear the screen,
 * rewrite earlier lines or retitle the window. Every C0 and C1 control (ESC and CSI included,
 * which disarms every escape sequence), DEL, the line/paragraph separators and the bidi
 * overrides used to make text read differently than it is, are shown as \uXXXX instead.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const shown = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** One value (a cell, a name): every control character escaped, newlines too (a value is one line). */
export function printable(text: string): string {
  return text.replace(UNSAFE, shown);
}

/** A whole block of output we wrote ourselves: our own line breaks stay, any other control is escaped. */
export function printableLines(text: string): string {
  return text.replace(UNSAFE_EXCEPT_NEWLINE, shown);
}
