import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  INVALID_QR_MESSAGE,
  OtpauthError,
  QR_NOT_FOUND_MESSAGE,
  accountKey,
  base32Decode,
  base32Encode,
  codeExpiresAt,
  decryptAegisVault,
  decryptTwoFasBackup,
  dedupeAccounts,
  generateCode,
  importAny,
  parseAegisVault,
  parseBitwardenExport,
  parseMigrationUri,
  parseOtpauthUri,
  parseTwoFasBackup,
  parseUriList,
  secondsRemaining,
  toMigrationUris,
  toOtpauthUri,
  toUriList,
  validateAccount,
  type OtpAccount,
} from './otpauth';

const SECRET = 'JBSWY3DPEHPK3PXP';
const totp = (overrides: Partial<OtpAccount> = {}): OtpAccount => ({
  type: 'totp',
  issuer: 'ACME',
  accountName: 'alice@example.com',
  secret: SECRET,
  algorithm: 'SHA1',
  digits: 6,
  period: 30,
  counter: null,
  ...overrides,
});

/** The message an OtpauthError carries, or "ok" when nothing was thrown. */
function errorOf(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (err) {
    expect(err).toBeInstanceOf(OtpauthError);
    return (err as Error).message;
  }
}

describe('the module itself', () => {
  it('imports nothing from node: (the browser uses it too)', () => {
    const source = readFileSync(resolve(__dirname, 'otpauth.ts'), 'utf8');
    expect(source).not.toMatch(/from ['"]node:/);
    expect(source).not.toMatch(/require\(/);
  });

  it('exports the SPEC.md §5/§8 messages word for word', () => {
    expect(INVALID_QR_MESSAGE).toBe("Invalid QR Code: This doesn't appear to be a valid TOTP QR code.");
    expect(QR_NOT_FOUND_MESSAGE).toBe('QR Scan Failed: Could not read QR code from the image. Please try again or enter details manually.');
  });
});

describe('parseOtpauthUri', () => {
  it("reads Google's Key URI example", () => {
    expect(parseOtpauthUri(`otpauth://totp/Example:alice@google.com?secret=${SECRET}&issuer=Example`)).toEqual(
      totp({ issuer: 'Example', accountName: 'alice@google.com' }),
    );
  });

  it.each([
    ['%3A', `otpauth://totp/ACME%20Co%3Ajohn.doe@email.com?secret=${SECRET}&issuer=ACME%20Co`],
    ['%3a', `otpauth://totp/ACME%20Co%3ajohn.doe@email.com?secret=${SECRET}&issuer=ACME%20Co`],
    ['%3A without issuer parameter', `otpauth://totp/ACME%20Co%3Ajohn.doe@email.com?secret=${SECRET}`],
    ['a literal colon', `otpauth://totp/ACME%20Co:john.doe@email.com?secret=${SECRET}`],
  ])('splits the label on %s', (_name, uri) => {
    expect(parseOtpauthUri(uri)).toMatchObject({ issuer: 'ACME Co', accountName: 'john.doe@email.com' });
  });

  it('lets the issuer parameter win over the label prefix', () => {
    expect(parseOtpauthUri(`otpauth://totp/OldName:bob?secret=${SECRET}&issuer=NewName`)).toMatchObject({ issuer: 'NewName', accountName: 'bob' });
  });

  it('uses the label prefix when there is no issuer parameter (or it is empty)', () => {
    expect(parseOtpauthUri(`otpauth://totp/GitHub:bob?secret=${SECRET}`)).toMatchObject({ issuer: 'GitHub', accountName: 'bob' });
    expect(parseOtpauthUri(`otpauth://totp/GitHub:bob?secret=${SECRET}&issuer=`)).toMatchObject({ issuer: 'GitHub', accountName: 'bob' });
  });

  it('has no issuer when neither gives one', () => {
    expect(parseOtpauthUri(`otpauth://totp/bob?secret=${SECRET}`)).toMatchObject({ issuer: null, accountName: 'bob' });
  });

  it('trims spaces around the colon (encoded or not)', () => {
    expect(parseOtpauthUri(`otpauth://totp/ACME%20%3A%20%20bob?secret=${SECRET}`)).toMatchObject({ issuer: 'ACME', accountName: 'bob' });
    expect(parseOtpauthUri(`otpauth://totp/ACME :  bob?secret=${SECRET}`)).toMatchObject({ issuer: 'ACME', accountName: 'bob' });
  });

  it('keeps further colons in the account name', () => {
    expect(parseOtpauthUri(`otpauth://totp/ACME:a:b?secret=${SECRET}`)).toMatchObject({ issuer: 'ACME', accountName: 'a:b' });
  });

  it('keeps "+" in the label (plus addressing) but reads "+" in parameters as a space', () => {
    const account = parseOtpauthUri(`otpauth://totp/Air%20Canada:alice+2fa@example.com?secret=${SECRET}&issuer=Air+Canada`);
    expect(account).toMatchObject({ issuer: 'Air Canada', accountName: 'alice+2fa@example.com' });
    expect(parseOtpauthUri(`otpauth://totp/x?secret=${SECRET}&issuer=A%2BB`).issuer).toBe('A+B');
  });

  it('reads unicode names, percent-encoded or raw', () => {
    expect(parseOtpauthUri(`otpauth://totp/%E6%97%A5%E6%9C%AC%E9%8A%80%E8%A1%8C:%C3%BCser%20%F0%9F%94%91?secret=${SECRET}`)).toMatchObject({
      issuer: '日本銀行',
      accountName: 'üser 🔑',
    });
    expect(parseOtpauthUri(`otpauth://totp/Bänk:jürgen?secret=${SECRET}&issuer=B%C3%A4nk`)).toMatchObject({ issuer: 'Bänk', accountName: 'jürgen' });
  });

  it('names the account after its issuer when the label has no name', () => {
    expect(parseOtpauthUri(`otpauth://totp/ACME:?secret=${SECRET}`)).toMatchObject({ issuer: 'ACME', accountName: 'ACME' });
    expect(parseOtpauthUri(`otpauth://totp/?secret=${SECRET}&issuer=ACME`)).toMatchObject({ issuer: 'ACME', accountName: 'ACME' });
  });

  it('accepts the scheme and type in any case, parameters in any order and case', () => {
    expect(parseOtpauthUri(`OTPAUTH://TOTP/x?DIGITS=8&Secret=${SECRET}&Algorithm=sha512&PERIOD=60`)).toEqual(
      totp({ issuer: null, accountName: 'x', algorithm: 'SHA512', digits: 8, period: 60 }),
    );
  });

  it('normalises a secret with spaces, lower case and padding', () => {
    expect(parseOtpauthUri('otpauth://totp/x?secret=jbsw%20y3dp+ehpk%203pxp%3D%3D').secret).toBe(SECRET);
  });

  it('reads HOTP with its counter (0 included)', () => {
    expect(parseOtpauthUri(`otpauth://hotp/ACME:bob?secret=${SECRET}&counter=0`)).toEqual(totp({ type: 'hotp', accountName: 'bob', counter: 0 }));
    expect(parseOtpauthUri(`otpauth://hotp/ACME:bob?secret=${SECRET}&counter=10300`).counter).toBe(10300);
  });

  it('ignores parameters it does not know (image, codeDisplay…) and a fragment', () => {
    expect(parseOtpauthUri(`otpauth://totp/ACME:bob?secret=${SECRET}&image=https%3A%2F%2Fexample.com%2Fa.png&codeDisplay=%7B%7D#x`).accountName).toBe('bob');
  });

  it.each([
    ['no secret', `otpauth://totp/ACME:bob?issuer=ACME`, 'The secret is missing.'],
    ['an empty secret', `otpauth://totp/ACME:bob?secret=`, 'The secret is missing.'],
    ['a secret with 0/1/8/9', `otpauth://totp/ACME:bob?secret=JBSWY3DPEHPK3PX1`, 'The secret is not valid base32 (letters A–Z and digits 2–7).'],
    ['a too short secret', `otpauth://totp/ACME:bob?secret=JBSW`, 'The secret is too short (at least 8 characters).'],
    ['an unknown algorithm', `otpauth://totp/ACME:bob?secret=${SECRET}&algorithm=MD5`, 'Unsupported algorithm "MD5" (use SHA1, SHA256 or SHA512).'],
    ['5 digits', `otpauth://totp/ACME:bob?secret=${SECRET}&digits=5`, 'Codes must have 6 to 8 digits (got "5").'],
    ['9 digits', `otpauth://totp/ACME:bob?secret=${SECRET}&digits=9`, 'Codes must have 6 to 8 digits (got "9").'],
    ['digits that are not a number', `otpauth://totp/ACME:bob?secret=${SECRET}&digits=six`, 'Codes must have 6 to 8 digits (got "six").'],
    ['a period of 0', `otpauth://totp/ACME:bob?secret=${SECRET}&period=0`, 'The period must be 10 to 300 seconds (got "0").'],
    ['a period of 301', `otpauth://totp/ACME:bob?secret=${SECRET}&period=301`, 'The period must be 10 to 300 seconds (got "301").'],
    ['a negative period', `otpauth://totp/ACME:bob?secret=${SECRET}&period=-30`, 'The period must be 10 to 300 seconds (got "-30").'],
    ['a fractional period', `otpauth://totp/ACME:bob?secret=${SECRET}&period=30.5`, 'The period must be 10 to 300 seconds (got "30.5").'],
    ['HOTP without counter', `otpauth://hotp/ACME:bob?secret=${SECRET}`, 'An HOTP account needs its counter.'],
    ['HOTP with a negative counter', `otpauth://hotp/ACME:bob?secret=${SECRET}&counter=-1`, 'The counter must be a whole number from 0 (got "-1").'],
    ['an unknown type', `otpauth://xotp/ACME:bob?secret=${SECRET}`, 'Unknown OTP type "xotp" (use totp or hotp).'],
    ['Steam', `otpauth://steam/ACME:bob?secret=${SECRET}`, 'Steam Guard accounts are not supported.'],
    ['another scheme', `https://example.com/?secret=${SECRET}`, 'Not an otpauth:// link.'],
    ['plain text', 'hello world', 'Not an otpauth:// link.'],
    ['a migration link', 'otpauth-migration://offline?data=CgA', 'This is a Google Authenticator export link: import it instead.'],
    ['broken percent-encoding in the label', `otpauth://totp/ACME%E0%A4%A:bob?secret=${SECRET}`, 'The label is not valid percent-encoding.'],
    ['no name and no issuer', `otpauth://totp/?secret=${SECRET}`, 'The account name is missing.'],
    ['NUL in the name', `otpauth://totp/ACME:bo%00b?secret=${SECRET}`, 'The account name must not contain NUL characters.'],
    ['a 201-character name', `otpauth://totp/ACME:${'n'.repeat(201)}?secret=${SECRET}`, 'The account name is too long (at most 200 characters).'],
  ])('refuses %s with a clear message', (_name, uri, message) => {
    expect(errorOf(() => parseOtpauthUri(uri))).toBe(message);
  });

  it('never puts the secret in an error message', () => {
    const message = errorOf(() => parseOtpauthUri('otpauth://totp/ACME:bob?secret=ABCDEFGH12345678'));
    expect(message).not.toContain('ABCDEFGH');
  });
});

describe('validateAccount (manual entry and the API)', () => {
  it('defaults to TOTP, SHA1, 6 digits, 30 s and accepts a secret with spaces in lower case', () => {
    expect(validateAccount({ accountName: '  bob ', issuer: '  ', secret: 'jbsw y3dp ehpk 3pxp' })).toEqual(totp({ issuer: null, accountName: 'bob' }));
  });

  it('takes numbers as strings too', () => {
    expect(validateAccount({ accountName: 'bob', secret: SECRET, digits: '8', period: '60', algorithm: 'sha-256' })).toMatchObject({
      digits: 8,
      period: 60,
      algorithm: 'SHA256',
    });
  });

  it('needs a name and a secret (SPEC.md §5)', () => {
    expect(errorOf(() => validateAccount({ secret: SECRET }))).toBe('The account name is missing.');
    expect(errorOf(() => validateAccount({ accountName: 'bob', secret: '   ' }))).toBe('The secret is missing.');
  });

  it('ignores a period for HOTP and a counter for TOTP', () => {
    expect(validateAccount({ accountName: 'bob', secret: SECRET, type: 'hotp', counter: 3, period: 5 })).toMatchObject({ period: 30, counter: 3 });
    expect(validateAccount({ accountName: 'bob', secret: SECRET, type: 'totp', counter: 3 })).toMatchObject({ counter: null });
  });

  it('tells which field is wrong', () => {
    try {
      validateAccount({ accountName: 'bob', secret: SECRET, digits: 12 });
      expect.unreachable();
    } catch (err) {
      expect((err as OtpauthError).field).toBe('digits');
    }
  });
});

describe('base32', () => {
  it('round-trips bytes of every length', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    }
    expect(base32Encode(new TextEncoder().encode('Hello!\u00de'))).toMatch(/^JBSWY3DPEH/);
  });
});

describe('toOtpauthUri', () => {
  it.each([
    totp(),
    totp({ issuer: 'Air Canada', accountName: 'alice+tag@example.com' }),
    totp({ issuer: 'A:B & C=D?', accountName: 'x/y#z%20' }),
    totp({ issuer: '日本銀行', accountName: 'üser 🔑', algorithm: 'SHA512', digits: 8, period: 60 }),
    totp({ type: 'hotp', algorithm: 'SHA256', digits: 7, counter: 42 }),
    totp({ issuer: null, accountName: 'solo' }),
  ])('writes a link that reads back the same (%#)', (account) => {
    expect(parseOtpauthUri(toOtpauthUri(account))).toEqual(account);
  });

  it('writes what other apps expect', () => {
    expect(toOtpauthUri(totp({ issuer: 'Air Canada', accountName: 'bob' }))).toBe(
      `otpauth://totp/Air%20Canada:bob?secret=${SECRET}&issuer=Air%20Canada&algorithm=SHA1&digits=6&period=30`,
    );
  });

  it('exports a list that imports back', async () => {
    const accounts = [totp(), totp({ type: 'hotp', counter: 5, accountName: 'h' })];
    const text = toUriList(accounts);
    expect(text.trim().split('\n')).toHaveLength(2);
    expect((await importAny(text)).accounts).toEqual(accounts);
  });
});

describe('Google Authenticator migration links', () => {
  it('reads a hand-built payload (bytes written independently of our encoder)', () => {
    // OtpParameters { secret "Hello!\xDE\xAD\xBE\xEF", name "ACME:bob", issuer "ACME", SHA256, EIGHT, TOTP }
    // and { secret 20 bytes, name "c", HOTP, counter 300 }; version 1, batch 1 of 1.
    const hotpSecret = Array.from({ length: 20 }, (_, i) => i + 1);
    const p1 = [0x0a, 10, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x21, 0xde, 0xad, 0xbe, 0xef, 0x12, 8, ...Buffer.from('ACME:bob'), 0x1a, 4, ...Buffer.from('ACME'), 0x20, 2, 0x28, 2, 0x30, 2];
    const p2 = [0x0a, 20, ...hotpSecret, 0x12, 1, 0x63, 0x20, 1, 0x28, 1, 0x30, 1, 0x38, 0xac, 0x02];
    const payload = Buffer.from([0x0a, p1.length, ...p1, 0x0a, p2.length, ...p2, 0x10, 1, 0x18, 1, 0x20, 0, 0x28, 0x7b]);
    const result = parseMigrationUri(`otpauth-migration://offline?data=${encodeURIComponent(payload.toString('base64'))}`);
    expect(result.skipped).toEqual([]);
    expect(result.batch).toBeNull();
    expect(result.accounts).toEqual([
      totp({ issuer: 'ACME', accountName: 'bob', algorithm: 'SHA256', digits: 8 }),
      { type: 'hotp', issuer: null, accountName: 'c', secret: base32Encode(Uint8Array.from(hotpSecret)), algorithm: 'SHA1', digits: 6, period: 30, counter: 300 },
    ]);
  });

  it('reads the widely copied example link (its entry length is off by 4: the rest is skipped, not fatal)', () => {
    const result = parseMigrationUri('otpauth-migration://offline?data=CjEKCkhlbGxvId6tvu8SGEV4YW1wbGU6YWxpY2VAZ29vZ2xlLmNvbRoHRXhhbXBsZSABKAEwAhABGAEgACjr4JP8Bw%3D%3D');
    expect(result.accounts).toEqual([totp({ issuer: 'Example', accountName: 'alice@google.com' })]);
  });

  it('reads data with a raw "+" or with "+" turned into a space, and URL-safe base64', () => {
    // Find a secret whose payload's base64 holds a "+" (its place depends on every byte before it).
    let accounts: OtpAccount[] = [];
    let data = '';
    for (let fill = 0xf8; !data.includes('+'); fill--) {
      accounts = [totp({ secret: base32Encode(Uint8Array.from({ length: 10 }, (_, i) => (fill + i * 0x41) & 255)) })];
      data = decodeURIComponent(toMigrationUris(accounts, { batchId: 1 }).uris[0]!.split('data=')[1]!);
    }
    for (const variant of [data, data.replace(/\+/g, ' '), data.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')]) {
      expect(parseMigrationUri(`otpauth-migration://offline?data=${variant}`).accounts).toEqual(accounts);
    }
  });

  it('round-trips TOTP and HOTP, every algorithm, 6 and 8 digits, unicode', () => {
    const accounts = [
      totp(),
      totp({ issuer: '日本銀行', accountName: 'üser 🔑', algorithm: 'SHA512', digits: 8 }),
      totp({ type: 'hotp', algorithm: 'SHA256', counter: 2 ** 40 }),
      totp({ issuer: null, accountName: 'solo' }),
    ];
    const { uris, skipped } = toMigrationUris(accounts);
    expect(skipped).toEqual([]);
    expect(uris).toHaveLength(1);
    expect(uris[0]).toMatch(/^otpauth-migration:\/\/offline\?data=[A-Za-z0-9%]+$/);
    expect(parseMigrationUri(uris[0]!).accounts).toEqual(accounts);
  });

  it('batches 10 accounts per link and merges the batches back; a missing one is reported', () => {
    const accounts = Array.from({ length: 25 }, (_, i) => totp({ accountName: `user${i}`, secret: base32Encode(Uint8Array.from({ length: 10 }, () => i)) }));
    const { uris } = toMigrationUris(accounts, { batchId: 77 });
    expect(uris).toHaveLength(3);
    expect(parseMigrationUri(uris[1]!).batch).toEqual({ id: 77, index: 1, size: 3 });
    expect(parseUriList(uris.join('\n'))).toEqual({ accounts, skipped: [] });
    const partial = parseUriList([uris[0], uris[2]].join('\n'));
    expect(partial.accounts).toHaveLength(15);
    expect(partial.skipped).toEqual([
      { reason: 'QR code 2 of 3 of this Google Authenticator export is missing: add it to import every account.', label: 'Google Authenticator export' },
    ]);
  });

  it('lists what the format cannot carry as skipped on export', () => {
    const { uris, skipped } = toMigrationUris([totp(), totp({ accountName: 'p', period: 60 }), totp({ accountName: 'd', digits: 7 })]);
    expect(parseMigrationUri(uris[0]!).accounts).toHaveLength(1);
    expect(skipped).toEqual([
      { reason: 'Google Authenticator exports only 30-second codes (this one is 60 s).', label: 'ACME: p' },
      { reason: 'Google Authenticator exports only 6 or 8 digits (this one has 7).', label: 'ACME: d' },
    ]);
  });

  it('skips MD5 and empty secrets with a reason, keeping the rest', () => {
    const md5 = [0x0a, 10, ...Array(10).fill(0x41), 0x12, 1, 0x6d, 0x20, 4];
    const empty = [0x12, 1, 0x65, 0x1a, 1, 0x49];
    const good = [0x0a, 10, ...Array(10).fill(0x42), 0x12, 1, 0x67];
    const payload = Buffer.from([0x0a, md5.length, ...md5, 0x0a, empty.length, ...empty, 0x0a, good.length, ...good]);
    const result = parseMigrationUri(`otpauth-migration://offline?data=${payload.toString('base64')}`);
    expect(result.accounts.map((a) => a.accountName)).toEqual(['g']);
    expect(result.skipped).toEqual([
      { reason: 'Unsupported algorithm "MD5" (use SHA1, SHA256 or SHA512).', label: 'm' },
      { reason: 'The secret is missing.', label: 'I: e' },
    ]);
  });

  it.each([
    ['no data', 'otpauth-migration://offline?foo=1', 'The export link has no data.'],
    ['not base64', 'otpauth-migration://offline?data=%%%', 'The export link data is not valid.'],
    ['truncated protobuf', `otpauth-migration://offline?data=${Buffer.from([0x0a, 50, 1, 2]).toString('base64')}`, 'The export data is cut short.'],
    ['another host', 'otpauth-migration://online?data=CgA', 'Not a Google Authenticator export link (otpauth-migration://offline?data=…).'],
  ])('refuses %s', (_name, uri, message) => {
    expect(errorOf(() => parseMigrationUri(uri))).toBe(message);
  });
});

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

describe('JSON backups we write ourselves', () => {
  it('Aegis plain: TOTP and HOTP kept, Steam and a bad secret skipped', async () => {
    const vault = {
      version: 1,
      header: { slots: null, params: null },
      db: {
        version: 3,
        entries: [
          { type: 'totp', name: 'bob', issuer: 'ACME', info: { secret: SECRET, algo: 'SHA256', digits: 7, period: 45 } },
          { type: 'hotp', name: 'h', issuer: '', info: { secret: SECRET, algo: 'SHA1', digits: 6, counter: 9 } },
          { type: 'steam', name: 's', issuer: 'Steam', info: { secret: SECRET, algo: 'SHA1', digits: 5, period: 30 } },
          { type: 'totp', name: 'x', issuer: 'Bad', info: { secret: '!!', algo: 'SHA1', digits: 6, period: 30 } },
        ],
      },
    };
    const expected = {
      accounts: [totp({ accountName: 'bob', algorithm: 'SHA256', digits: 7, period: 45 }), totp({ type: 'hotp', issuer: null, accountName: 'h', counter: 9 })],
      skipped: [
        { reason: 'Steam Guard accounts are not supported.', label: 'Steam: s' },
        { reason: 'The secret is not valid base32 (letters A–Z and digits 2–7).', label: 'Bad: x' },
      ],
    };
    expect(parseAegisVault(JSON.stringify(vault))).toEqual(expected);
    expect(await importAny(JSON.stringify(vault))).toEqual({ format: 'aegis', ...expected });
  });

  it('2FAS plain: issuer falls back to the service name; Steam skipped', () => {
    const backup = {
      schemaVersion: 4,
      services: [
        { name: 'Example', secret: SECRET.toLowerCase(), otp: { account: 'bob', digits: 6, period: 30, algorithm: 'SHA1', tokenType: 'TOTP' } },
        { name: 'H', secret: SECRET, otp: { label: 'H:hal', issuer: 'H', digits: 8, algorithm: 'SHA512', counter: 4, tokenType: 'HOTP' } },
        { name: 'Steam', secret: SECRET, otp: { account: 'gabe', issuer: 'Steam', digits: 5, period: 30, tokenType: 'STEAM' } },
      ],
    };
    expect(parseTwoFasBackup(backup)).toEqual({
      accounts: [totp({ issuer: 'Example', accountName: 'bob' }), totp({ type: 'hotp', issuer: 'H', accountName: 'hal', algorithm: 'SHA512', digits: 8, counter: 4 })],
      skipped: [{ reason: 'Steam Guard accounts are not supported.', label: 'Steam: gabe' }],
    });
  });

  it('Bitwarden: links and bare secrets', () => {
    const result = parseBitwardenExport({
      encrypted: false,
      items: [
        { name: 'ACME', login: { username: 'bob', totp: `otpauth://totp/ACME:bob?secret=${SECRET}` } },
        { name: 'Bare', login: { username: 'eve', totp: 'jbsw y3dp ehpk 3pxp' } },
        { name: 'No TOTP', login: { username: 'x', totp: null } },
        { name: 'Steam', login: { totp: 'steam://ABCDEFGH' } },
      ],
    });
    expect(result.accounts).toEqual([totp({ accountName: 'bob' }), totp({ issuer: 'Bare', accountName: 'eve' })]);
    expect(result.skipped).toEqual([{ reason: 'Steam Guard accounts are not supported.', label: 'Steam' }]);
  });

  it('asks for a password for encrypted backups', async () => {
    const twoFas = { schemaVersion: 4, services: [], servicesEncrypted: 'YQ==:YQ==:YQ==' };
    await expect(importAny(JSON.stringify(twoFas))).rejects.toMatchObject({ code: 'password_required' });
    const aegis = { version: 1, header: { slots: [], params: {} }, db: 'AAAA' };
    await expect(importAny(JSON.stringify(aegis))).rejects.toMatchObject({ code: 'password_required' });
  });
});

// --- real exports made by other apps (../shared/fixtures, see its README) --------------------

const FIXTURES = resolve(__dirname, '../../shared/fixtures/importers');
const haveFixtures = existsSync(resolve(FIXTURES, 'expected.json'));
if (!haveFixtures) {
  console.warn(`[otpauth] ${FIXTURES} not found: the real-export importer tests are skipped (a fresh clone has no ../shared).`);
}

interface Expected {
  type: 'totp' | 'hotp' | 'steam';
  issuer: string;
  name: string;
  secret: string;
  algorithm: string;
  digits: number;
  period?: number;
  counter?: number;
}

describe.skipIf(!haveFixtures)('real exports from other authenticators (../shared/fixtures/importers)', () => {
  const read = (name: string) => readFileSync(resolve(FIXTURES, name), 'utf8');
  const expected = (): Expected[] => (haveFixtures ? JSON.parse(read('expected.json')).entries : []);
  const asAccount = (e: Expected): OtpAccount => ({
    type: e.type as OtpAccount['type'],
    issuer: e.issuer,
    accountName: e.name,
    secret: e.secret,
    algorithm: e.algorithm as OtpAccount['algorithm'],
    digits: e.digits,
    period: e.type === 'hotp' ? 30 : e.period!,
    counter: e.type === 'hotp' ? e.counter! : null,
  });
  const supported = () => expected().filter((e) => e.type !== 'steam').map(asAccount);
  const sortByName = (list: OtpAccount[]) => [...list].sort((a, b) => accountLabel(a).localeCompare(accountLabel(b)));
  const accountLabel = (a: OtpAccount) => `${a.issuer}:${a.accountName}`;

  it.each([
    ['aegis_plain.json', 'aegis'],
    ['plain.txt', 'otpauth'],
    ['ente_auth.txt', 'otpauth'],
  ])('%s: every TOTP and HOTP entry, exactly; Steam skipped with a reason', async (file, format) => {
    const result = await importAny(read(file));
    expect(result.format).toBe(format);
    expect(sortByName(result.accounts)).toEqual(sortByName(supported()));
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped[0]!.reason).toBe('Steam Guard accounts are not supported.');
    expect(result.skipped[0]!.label).toMatch(/Boeing/);
  });

  it('aegis_encrypted.json: opens with the password "test" (scrypt + AES-256-GCM)', async () => {
    const result = await decryptAegisVault(read('aegis_encrypted.json'), 'test');
    expect(sortByName(result.accounts)).toEqual(sortByName(supported()));
    expect((await importAny(read('aegis_encrypted.json'), { password: 'test' })).accounts).toHaveLength(6);
  });

  it('aegis_encrypted.json: a wrong password is refused, no password asked for', async () => {
    await expect(decryptAegisVault(read('aegis_encrypted.json'), 'nope')).rejects.toMatchObject({ code: 'wrong_password', message: 'Wrong password for this Aegis vault.' });
    await expect(importAny(read('aegis_encrypted.json'))).rejects.toMatchObject({ code: 'password_required' });
  });

  it.each(['2fas_authenticator_plain_v3.2fas', '2fas_authenticator_plain_v4.2fas'])('%s: each entry it holds, exactly', async (file) => {
    const result = await importAny(read(file));
    expect(result.format).toBe('2fas');
    const all = supported();
    expect(result.accounts.length).toBeGreaterThanOrEqual(4);
    for (const account of result.accounts) {
      // v3 writes period 30 for HOTP entries; it is meaningless there.
      expect(all).toContainEqual(account);
    }
  });

  it('2fas_authenticator_plain.2fas (schema 2, no token type): names, issuers and secrets', async () => {
    const result = await importAny(read('2fas_authenticator_plain.2fas'));
    const all = expected();
    expect(result.accounts.length).toBe(4);
    for (const account of result.accounts) {
      const match = all.find((e) => e.secret === account.secret)!;
      expect({ issuer: account.issuer, name: account.accountName, algorithm: account.algorithm, digits: account.digits }).toEqual({
        issuer: match.issuer,
        name: match.name,
        algorithm: match.algorithm,
        digits: match.digits,
      });
      if (match.type === 'totp') expect(account).toEqual(asAccount(match));
    }
  });

  it('2fas_authenticator_encrypted_v4.2fas: opens with the password "test" (PBKDF2 + AES-GCM)', async () => {
    const result = await decryptTwoFasBackup(read('2fas_authenticator_encrypted_v4.2fas'), 'test');
    expect(result.accounts.length).toBeGreaterThanOrEqual(4);
    for (const account of result.accounts) expect(supported()).toContainEqual(account);
    expect(result.skipped.map((s) => s.reason)).toEqual(['Steam Guard accounts are not supported.']);
    await expect(decryptTwoFasBackup(read('2fas_authenticator_encrypted_v4.2fas'), 'nope')).rejects.toMatchObject({ code: 'wrong_password' });
    await expect(importAny(read('2fas_authenticator_encrypted_v4.2fas'))).rejects.toMatchObject({ code: 'password_required' });
  });

  it('bitwarden.json: the TOTP logins it holds', async () => {
    const result = await importAny(read('bitwarden.json'));
    expect(result.format).toBe('bitwarden');
    expect(result.accounts.length).toBeGreaterThanOrEqual(3);
    for (const account of result.accounts) expect(supported()).toContainEqual(account);
  });

  it('everything survives our own export and import (URI list and migration links)', async () => {
    const accounts = supported();
    expect((await importAny(toUriList(accounts))).accounts).toEqual(accounts);
    const { uris, skipped } = toMigrationUris(accounts, { batchSize: 2 });
    // 7 digits and 20/50-second periods cannot be written in Google's format.
    expect(skipped.map((s) => s.label).sort()).toEqual(['Air Canada: Benjamin', 'Airbnb: Elijah', 'SPDX: James']);
    expect(parseUriList(uris.join('\n')).accounts).toEqual(accounts.filter((a) => !['Benjamin', 'Elijah'].includes(a.accountName) && a.issuer !== 'SPDX'));
  });
});

// --- codes ---------------------------------------------------------------------------------------

describe('codes', () => {
  // RFC 6238 Appendix B: ASCII seeds of 20, 32 and 64 bytes, 8 digits, 30 s.
  const SEEDS = {
    SHA1: '12345678901234567890',
    SHA256: '12345678901234567890123456789012',
    SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
  } as const;
  const VECTORS: Array<[number, string, string, string]> = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  const seedAccount = (algorithm: keyof typeof SEEDS) => totp({ algorithm, digits: 8, secret: base32Encode(new TextEncoder().encode(SEEDS[algorithm])) });

  it.each(VECTORS)('RFC 6238 Appendix B at T=%i', (t, sha1, sha256, sha512) => {
    expect(generateCode(seedAccount('SHA1'), t * 1000)).toBe(sha1);
    expect(generateCode(seedAccount('SHA256'), t * 1000)).toBe(sha256);
    expect(generateCode(seedAccount('SHA512'), t * 1000)).toBe(sha512);
  });

  it('RFC 4226 Appendix D HOTP values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    const secret = base32Encode(new TextEncoder().encode(SEEDS.SHA1));
    expected.forEach((code, counter) => expect(generateCode(totp({ type: 'hotp', secret, counter }))).toBe(code));
  });

  it('counts the seconds left and the end of the current code', () => {
    expect(secondsRemaining(30, 0)).toBe(30);
    expect(secondsRemaining(30, 29_001)).toBe(1);
    expect(secondsRemaining(30, 45_000)).toBe(15);
    expect(codeExpiresAt(30, 45_000).getTime()).toBe(60_000);
  });

  const oathtool = (() => {
    try {
      execFileSync('oathtool', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  if (!oathtool) console.warn('[otpauth] oathtool not installed (apt-get install oathtool): the cross-check is skipped.');

  it.skipIf(!oathtool)('agrees with oathtool for SHA1/SHA256/SHA512, 6–8 digits, several periods, and HOTP', () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 24; i++) {
      const algorithm = (['SHA1', 'SHA256', 'SHA512'] as const)[i % 3]!;
      const bytes = Uint8Array.from({ length: [10, 20, 32, 64][i % 4]! }, () => Math.floor(random() * 256));
      const account = totp({ algorithm, secret: base32Encode(bytes), digits: 6 + (i % 3), period: [30, 60, 15, 45][i % 4]! });
      const t = Math.floor(random() * 4_000_000_000);
      const fromOath = execFileSync('oathtool', [`--totp=${algorithm}`, '-b', '-d', String(account.digits), '-s', `${account.period}s`, '-N', `@${t}`, account.secret]).toString().trim();
      expect(generateCode(account, t * 1000)).toBe(fromOath);
      if (algorithm === 'SHA1') {
        const counter = Math.floor(random() * 1_000_000);
        const hotp = execFileSync('oathtool', ['--hotp', '-b', '-d', String(account.digits), '-c', String(counter), account.secret]).toString().trim();
        expect(generateCode({ ...account, type: 'hotp', counter })).toBe(hotp);
      }
    }
  });
});
