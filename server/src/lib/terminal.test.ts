import { describe, expect, it } from 'vitest';
import { printable, printableLines } from './terminal';

describe('printable (tenant text on an operator terminal)', () => {
  it.each([
    ['clear screen', 'Acme\u001b[2J\u001b[H', 'Acme\\u001b[2J\\u001b[H'],
    ['window title (OSC)', '\u001b]0;pwned\u0007Co', '\\u001b]0;pwned\\u0007Co'],
    ['C1 CSI', 'A\u009b2JB', 'A\\u009b2JB'],
    ['carriage return overwrite', 'Good Co\rEvil', 'Good Co\\u000dEvil'],
    ['forged next line', 'Co\nID  STATUS', 'Co\\u000aID  STATUS'],
    ['backspace and DEL', 'ab\u0008\u007fc', 'ab\\u0008\\u007fc'],
    ['NUL and tab', 'a\u0000\tb', 'a\\u0000\\u0009b'],
    ['bidi override', 'invoice\u202Etxt.exe', 'invoice\\u202etxt.exe'],
    ['line separator', 'a\u2028b', 'a\\u2028b'],
  ])('escapes %s', (_name, input, shown) => {
    expect(printable(input)).toBe(shown);
  });

  it('leaves ordinary text, accents, rupee signs and emoji alone', () => {
    const text = 'Café Ünïcode ₹5,000.00 — 漢字 🚀 "quoted" \\ back';
    expect(printable(text)).toBe(text);
  });

  it('never lets an escape character through, for any code unit', () => {
    for (let c = 0; c < 0x3000; c++) {
      const out = printable(`x${String.fromCharCode(c)}y`);
      // eslint-disable-next-line no-control-regex
      expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });

  it('printableLines keeps our own line breaks but escapes everything else', () => {
    expect(printableLines('line one\nline \u001b[31mtwo\u001b[0m')).toBe('line one\nline \\u001b[31mtwo\\u001b[0m');
  });
});
