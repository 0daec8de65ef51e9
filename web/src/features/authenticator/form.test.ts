import { describe, expect, it } from 'vitest';
import { accountToForm, canSubmit, checkForm, EMPTY_FORM, groupSecret, hasAdvancedSettings, initialOf, matchesSearch, splitCode } from './form';
import { ALREADY_ADDED, REPEATED, buildPreview, mergeImageScans, settingsOf } from './import-preview';
import type { ScanResult } from './api';

describe('the Add Account form', () => {
  it('needs a name and a secret that are not blank', () => {
    expect(canSubmit(EMPTY_FORM)).toBe(false);
    expect(canSubmit({ ...EMPTY_FORM, accountName: 'ada' })).toBe(false);
    expect(canSubmit({ ...EMPTY_FORM, accountName: 'ada', secret: '  ' })).toBe(false);
    expect(canSubmit({ ...EMPTY_FORM, accountName: 'ada', secret: 'a' })).toBe(true);
  });

  it('normalises the secret (spaces, hyphens, lower case) and reads the numbers', () => {
    const checked = checkForm({ ...EMPTY_FORM, accountName: ' ada ', issuer: '  ', secret: 'jbsw y3dp-ehpk 3pxp', digits: '8', period: '60' });
    expect(checked).toEqual({
      ok: true,
      account: { type: 'totp', issuer: null, accountName: 'ada', secret: 'JBSWY3DPEHPK3PXP', algorithm: 'SHA1', digits: 8, period: 60, counter: null },
    });
  });

  it('names the field that broke a rule', () => {
    expect(checkForm({ ...EMPTY_FORM, accountName: 'ada', secret: 'abc' })).toMatchObject({ ok: false, field: 'secret' });
    expect(checkForm({ ...EMPTY_FORM, accountName: 'ada', secret: 'JBSWY3DPEHPK3PXP', period: '5' })).toMatchObject({ ok: false, field: 'period' });
    expect(checkForm({ ...EMPTY_FORM, accountName: 'ada', secret: 'JBSWY3DPEHPK3PXP', type: 'hotp', counter: '' })).toMatchObject({ ok: false, field: 'counter' });
  });

  it('opens Advanced for anything but SHA1, 6 digits, 30 s TOTP', () => {
    expect(hasAdvancedSettings(EMPTY_FORM)).toBe(false);
    expect(hasAdvancedSettings({ ...EMPTY_FORM, algorithm: 'SHA256' })).toBe(true);
    expect(hasAdvancedSettings({ ...EMPTY_FORM, period: '60' })).toBe(true);
    const hotp = accountToForm({ type: 'hotp', issuer: null, accountName: 'a', secret: 'JBSWY3DPEHPK3PXP', algorithm: 'SHA1', digits: 6, period: 30, counter: 4 });
    expect(hotp.counter).toBe('4');
    expect(hasAdvancedSettings(hotp)).toBe(true);
  });
});

describe('card helpers', () => {
  it('splits codes 3+3, 4+4 and 4+3', () => {
    expect(splitCode('123456')).toEqual(['123', '456']);
    expect(splitCode('12345678')).toEqual(['1234', '5678']);
    expect(splitCode('1234567')).toEqual(['1234', '567']);
  });

  it('groups secrets by four and picks the initial', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('JBSWY3')).toBe('JBSW Y3');
    expect(initialOf({ issuer: 'github', accountName: 'ada' })).toBe('G');
    expect(initialOf({ issuer: null, accountName: 'ümit' })).toBe('Ü');
  });

  it('searches issuer and name, case-insensitively', () => {
    const account = { issuer: 'GitHub', accountName: 'Ada@Example.com' };
    expect(matchesSearch(account, 'github')).toBe(true);
    expect(matchesSearch(account, ' ADA@ ')).toBe(true);
    expect(matchesSearch(account, 'gitlab')).toBe(false);
    expect(matchesSearch({ issuer: null, accountName: 'x' }, '')).toBe(true);
  });
});

const base = { type: 'totp' as const, algorithm: 'SHA1' as const, digits: 6, period: 30, counter: null };
const a = { ...base, issuer: 'A', accountName: 'ada', secret: 'JBSWY3DPEHPK3PXP' };
const b = { ...base, issuer: 'B', accountName: 'ada', secret: 'GEZDGNBVGY3TQOJQ' };

describe('the import preview', () => {
  it('skips accounts already stored and repeats, saying why', () => {
    const preview = buildPreview({ accounts: [a, b, { ...b, issuer: 'b' }], skipped: [{ label: 'line 4', reason: 'Not an otpauth:// link.' }] }, [
      { ...a, issuer: 'a', accountName: 'ADA' },
    ]);
    expect(preview.accounts).toEqual([b]);
    expect(preview.skipped).toEqual([
      { label: 'line 4', reason: 'Not an otpauth:// link.' },
      { label: 'A: ada', reason: ALREADY_ADDED },
      { label: 'b: ada', reason: REPEATED },
    ]);
  });

  it('reports only the export QR codes that no image held', () => {
    const scan = (account: typeof a, missing: string): ScanResult => ({
      ...account,
      source: 'migration',
      accounts: [account],
      skipped: [{ label: 'Google Authenticator export', reason: `QR codes ${missing} of 4 of this Google Authenticator export are missing: add them to import every account.` }],
    });
    const merged = mergeImageScans([
      { name: 'one.png', result: scan(a, '2, 3, 4') },
      { name: 'two.png', result: scan(b, '1, 3, 4') },
      { name: 'cat.png', error: 'Could not read QR code from the image.' },
    ]);
    expect(merged.accounts).toEqual([a, b]);
    expect(merged.skipped).toEqual([
      { label: 'cat.png', reason: 'Could not read QR code from the image.' },
      { label: 'Google Authenticator export', reason: 'QR codes 3, 4 of 4 of this Google Authenticator export are missing: add them to import every account.' },
    ]);
    // All parts given: nothing is reported missing.
    expect(mergeImageScans([{ name: 'one.png', result: scan(a, '2, 3, 4') }, { name: 'rest.png', result: scan(b, '1') }]).skipped).toEqual([]);
  });

  it('lists the settings that are not the defaults', () => {
    expect(settingsOf(a)).toEqual([]);
    expect(settingsOf({ ...a, type: 'hotp', counter: 3, algorithm: 'SHA512', digits: 8 })).toEqual(['HOTP, counter 3', 'SHA512', '8 digits']);
    expect(settingsOf({ ...a, period: 60 })).toEqual(['60 s']);
  });
});
