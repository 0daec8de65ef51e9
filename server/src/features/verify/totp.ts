import { createHmac, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

export type Algorithm = 'SHA1' | 'SHA256' | 'SHA512';

export interface TotpParams {
  algorithm: Algorithm;
  digits: number;
  period: number;
}

export const DEFAULT_TOTP: TotpParams = { algorithm: 'SHA1', digits: 6, period: 30 };
/** How far outside the accepted window a matching code still answers `expired` (DESIGN §5). */
export const EXPIRED_SEARCH_STEPS = 10;

/** RFC 6238 recommends a key as long as the HMAC output: 20, 32 or 64 bytes. */
const SECRET_BYTES: Record<Algorithm, number> = { SHA1: 20, SHA256: 32, SHA512: 64 };

export function newSecret(algorithm: Algorithm): string {
  return new Secret({ size: SECRET_BYTES[algorithm] }).base32;
}

export type CodeCheck =
  | { outcome: 'match'; step: number }
  | { outcome: 'expired'; step: number }
  | { outcome: 'no_match' };

/**
 * Checks a code against the window (±`window` steps), and if it does not match there, against
 * ±10 steps to tell an `expired` code from a wrong one. Comparison is constant-time (otpauth).
 */
export function checkCode(secretBase32: string, code: string, params: TotpParams, window: number, now: number): CodeCheck {
  if (!/^\d+$/.test(code) || code.length !== params.digits) return { outcome: 'no_match' };
  const totp = new TOTP({ secret: Secret.fromBase32(secretBase32), ...params });
  const step = Math.floor(now / 1000 / params.period);
  const delta = totp.validate({ token: code, timestamp: now, window });
  if (delta !== null) return { outcome: 'match', step: step + delta };
  const wide = totp.validate({ token: code, timestamp: now, window: EXPIRED_SEARCH_STEPS });
  if (wide !== null) return { outcome: 'expired', step: step + wide };
  return { outcome: 'no_match' };
}

export function otpauthUri(secretBase32: string, params: TotpParams, label: string, issuer: string): string {
  return new TOTP({ secret: Secret.fromBase32(secretBase32), label, issuer, ...params }).toString();
}

export function qrCodeDataUri(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 256 });
}

/** The secret in groups of four for typing into an authenticator by hand. */
export function manualEntry(secretBase32: string): string {
  return secretBase32.replace(/=+$/, '').match(/.{1,4}/g)!.join(' ');
}

// Backup codes: 10 single-use codes like `7k3m-q9xp`, from an alphabet without 0/o/1/l.
const BACKUP_ALPHABET = '23456789abcdefghijkmnpqrstuvwxyz';
export const BACKUP_CODE_COUNT = 10;

export function newBackupCodes(count = BACKUP_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from(randomBytes(8), (b) => BACKUP_ALPHABET[b % 32]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4)}`;
  });
}

export function normaliseBackupCode(code: string): string {
  return code.toLowerCase().replace(/[^0-9a-z]/g, '');
}

/** Keyed hash: a leaked table of 40-bit codes cannot be brute-forced without the server key. */
export function hashBackupCode(code: string, key: Buffer): string {
  return createHmac('sha256', key).update(normaliseBackupCode(code)).digest('hex');
}
