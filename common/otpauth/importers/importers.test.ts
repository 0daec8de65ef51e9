import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decryptAegisVault, decryptTwoFasBackup, importAny, parseAegisVault, parseBitwardenExport, parseTwoFasBackup, parseUriList, toMigrationUris, toUriList, type OtpAccount } from '../index';
import { SECRET, totp } from '../test-helpers';

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

const FIXTURES = resolve(__dirname, '../../../../shared/fixtures/importers');
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
