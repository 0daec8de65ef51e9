import { expect } from 'vitest';
import { OtpauthError, type OtpAccount } from './index';

/** What the otpauth test files share: one well-known secret, an account builder, an error reader. */
export const SECRET = 'JBSWY3DPEHPK3PXP';
export const totp = (overrides: Partial<OtpAccount> = {}): OtpAccount => ({
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
export function errorOf(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (err) {
    expect(err).toBeInstanceOf(OtpauthError);
    return (err as Error).message;
  }
}
