import { describe, expect, it } from 'vitest';
import { accountKey, dedupeAccounts, importAny } from './index';
import { SECRET, totp } from './test-helpers';

describe('parseUriList and importAny', () => {
  it('skips blank lines and comments, reports bad lines without their secret', async () => {
    const text = [`# my codes`, '', `otpauth://totp/ACME:bob?secret=${SECRET}`, 'hello', `otpauth://totp/Bad:eve?secret=NOTBASE32!!`, `otpauth://hotp/H:x?secret=${SECRET}`].join('\r\n');
    const result = await importAny(text);
    expect(result.format).toBe('otpauth');
    expect(result.accounts).toEqual([totp({ accountName: 'bob' })]);
    expect(result.skipped).toEqual([
      { reason: 'Not an otpauth:// link.', label: 'line 4' },
      { reason: 'The secret is not valid base32 (letters A–Z and digits 2–7).', label: 'line 5 (Bad:eve)' },
      { reason: 'An HOTP account needs its counter.', label: 'line 6 (H:x)' },
    ]);
    expect(JSON.stringify(result.skipped)).not.toContain('NOTBASE32');
  });

  it('drops repeats within one import and says so', async () => {
    const line = `otpauth://totp/ACME:bob?secret=${SECRET}`;
    const result = await importAny(`${line}\n${line.replace('bob', 'BOB')}\n`);
    expect(result.accounts).toHaveLength(1);
    expect(result.skipped).toEqual([{ reason: 'Already in the list.', label: 'ACME: BOB' }]);
  });

  it('refuses what it cannot recognise', async () => {
    await expect(importAny('')).rejects.toThrow('There is nothing to import.');
    await expect(importAny('just some words')).rejects.toThrow(/not a backup this app can read/);
    await expect(importAny('{"hello": 1}')).rejects.toThrow(/not a backup this app can read/);
    await expect(importAny('{not json')).rejects.toThrow('The file is not valid JSON.');
  });

  it('dedupeAccounts also drops accounts already stored', () => {
    const result = dedupeAccounts([totp(), totp({ accountName: 'new' })], [accountKey(totp())]);
    expect(result.accounts.map((a) => a.accountName)).toEqual(['new']);
  });
});
