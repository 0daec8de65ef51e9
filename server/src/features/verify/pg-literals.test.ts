import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { textArrayLiteral } from './repo';

/**
 * The careful way's group reads write text as literals (the simple protocol takes no parameters). Text
 * with no quote and no backslash skips pg's escapeLiteral; the literal must be exactly the one
 * escapeLiteral writes, for every kind of text.
 */
describe('verify: text written as PostgreSQL literals', () => {
  const client = { escapeLiteral: (value: string) => pg.escapeLiteral(value) } as pg.ClientBase;
  const samples = [
    'plain',
    '',
    'user_42@example.com',
    "o'brien",
    "''",
    'back\\slash',
    "x\\'; update business set balance_paise = 0; --",
    '$$ $tag$ E\'\\\\\'',
    'naïve ✓ "double" 😀',
    'tab\tnew\nline\rreturn',
    'ver_01JD8Z6Q2W3E4R5T6Y7U8I9O0P',
  ];

  it.each(samples)('writes %j exactly as pg.escapeLiteral does', (value) => {
    expect(textArrayLiteral(client, [value])).toBe(`array[${pg.escapeLiteral(value)}]::text[]`);
  });

  it('writes null as null and refuses a value that is not text', () => {
    expect(textArrayLiteral(client, [null, 'a'])).toBe("array[null,'a']::text[]");
    expect(() => textArrayLiteral(client, [42 as unknown as string])).toThrow(/not a text value/);
  });
});
