import { describe, expect, it } from 'vitest';
import { OtpauthError, validateAccount } from './index';
import { SECRET, totp, errorOf } from './test-helpers';

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
