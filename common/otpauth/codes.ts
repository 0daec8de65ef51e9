import { HOTP, Secret, TOTP } from 'otpauth';
import type { OtpAccount } from './model';

// Codes are computed where they are shown (DESIGN.md §9): in the browser, and on the server for account TOTP.

/** The code for a TOTP account at `timestamp` (ms), or for an HOTP account at its counter. */
export function generateCode(account: Pick<OtpAccount, 'type' | 'secret' | 'algorithm' | 'digits' | 'period' | 'counter'>, timestamp = Date.now()): string {
  const secret = Secret.fromBase32(account.secret);
  if (account.type === 'hotp') {
    return HOTP.generate({ secret, algorithm: account.algorithm, digits: account.digits, counter: account.counter ?? 0 });
  }
  return TOTP.generate({ secret, algorithm: account.algorithm, digits: account.digits, period: account.period, timestamp });
}

/** Whole seconds until the current TOTP code changes (1…period). */
export function secondsRemaining(period: number, timestamp = Date.now()): number {
  const ms = period * 1000;
  return Math.ceil((ms - (timestamp % ms)) / 1000);
}

/** When the current TOTP code stops being the current one. */
export function codeExpiresAt(period: number, timestamp = Date.now()): Date {
  const ms = period * 1000;
  return new Date(Math.floor(timestamp / ms) * ms + ms);
}
