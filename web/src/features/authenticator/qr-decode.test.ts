import { describe, expect, it } from 'vitest';
import { INVALID_QR_MESSAGE, toMigrationUris, type OtpAccount } from '@common/otpauth';
import { QrScanError, accountsFromQrTexts } from './qr-decode';

const A: OtpAccount = { type: 'totp', issuer: 'ACME', accountName: 'ada', secret: 'JBSWY3DPEHPK3PXP', algorithm: 'SHA1', digits: 6, period: 30, counter: null };

describe('accountsFromQrTexts', () => {
  it('reads an otpauth link, and every account of Google Authenticator export codes', () => {
    expect(accountsFromQrTexts(['otpauth://totp/ACME:ada?secret=JBSWY3DPEHPK3PXP&issuer=ACME'])).toMatchObject({ source: 'otpauth', accountName: 'ada', accounts: [A] });
    const { uris } = toMigrationUris([A, { ...A, accountName: 'bob', algorithm: 'SHA256' }]);
    const scanned = accountsFromQrTexts(uris);
    expect(scanned.source).toBe('migration');
    expect(scanned.accounts.map((a) => [a.accountName, a.algorithm])).toEqual([
      ['ada', 'SHA1'],
      ['bob', 'SHA256'],
    ]);
  });

  it('says "Invalid QR Code" for a QR code that holds no account', () => {
    expect(() => accountsFromQrTexts(['https://example.com'])).toThrow(new QrScanError(INVALID_QR_MESSAGE));
  });
});
