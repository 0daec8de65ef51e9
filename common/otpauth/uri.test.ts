import { describe, expect, it } from 'vitest';
import { importAny, parseOtpauthUri, toOtpauthUri, toUriList } from './index';
import { SECRET, totp, errorOf } from './test-helpers';

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
