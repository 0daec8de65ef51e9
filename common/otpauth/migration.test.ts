import { describe, expect, it } from 'vitest';
import { base32Encode, parseMigrationUri, parseUriList, toMigrationUris, type OtpAccount } from './index';
import { totp, errorOf } from './test-helpers';

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
