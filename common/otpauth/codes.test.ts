import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { base32Encode, codeExpiresAt, generateCode, secondsRemaining } from './index';
import { totp } from './test-helpers';

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
