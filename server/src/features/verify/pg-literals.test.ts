import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../../../../test/support/services';
import { arrayParameter, textArrayLiteral } from './repo';

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

/**
 * The group's statements bind their arrays as PostgreSQL's array text, written by arrayParameter
 * instead of pg. PostgreSQL must read back exactly the values sent, whatever the text holds.
 */
describe.skipIf(!inject('postgresAvailable'))('verify: array parameters read back by PostgreSQL as sent [postgres]', () => {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  const hostile = ['', 'NULL', 'null', ' padded ', 'a,b', '{x}', '"quoted"', 'back\\slash\\', '\\"', "o'brien", 'naïve ✓ 😀', 'tab\tnew\nline', ')); drop table business; --'];

  it('text, nulls among them, each element exactly as sent', async () => {
    const values = [...hostile, null, 'after null'];
    const { rows } = await client.query<{ v: Array<string | null> }>('select $1::text[] as v', [arrayParameter(values)]);
    expect(rows[0]!.v).toEqual(values);
  });

  it('bigints, doubles and booleans as their types', async () => {
    const { rows } = await client.query<{ b: string[]; d: number[]; t: boolean[] }>('select $1::bigint[] as b, $2::double precision[] as d, $3::boolean[] as t', [
      arrayParameter([0, 10, -5, 9_007_199_254_740_991]),
      arrayParameter([1.25, 0, -0.5, 123.45]),
      arrayParameter([true, false, true]),
    ]);
    expect(rows[0]).toEqual({ b: ['0', '10', '-5', '9007199254740991'], d: [1.25, 0, -0.5, 123.45], t: [true, false, true] });
  });

  it('an empty array, and a value that is not an element is refused', async () => {
    const { rows } = await client.query<{ v: string[] }>('select $1::text[] as v', [arrayParameter([])]);
    expect(rows[0]!.v).toEqual([]);
    expect(() => arrayParameter([{} as unknown as string])).toThrow(/not an array element/);
  });

  it('writes what pg writes for text with neither a quote nor a backslash', () => {
    expect(arrayParameter(['a', null, 'b c'])).toBe('{"a",NULL,"b c"}');
  });
});
