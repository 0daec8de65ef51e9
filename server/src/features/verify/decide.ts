import type { VerificationStatus } from '../../db/types';
import { checkCode, DEFAULT_TOTP, type TotpParams } from './totp';

/**
 * What a check decides before anything is written, the same wherever its group is written (on
 * the event loop, or on the SQLite writer thread): plain data, so it can cross a thread.
 */

/** A test enrolment's secret is bound to its mode too: it cannot be copied into the live row of the same user_id. */
export function encryptionContext(businessId: string, externalUserId: string, livemode = true): string {
  return livemode ? `enrolment:${businessId}:${externalUserId}` : `enrolment:${businessId}:test:${externalUserId}`;
}

export const THROTTLE_FAILURES = 5;
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const DEFAULT_WINDOW = 1;

/** A check's replay guard: this enrolment's last step must advance to `step` (rowId: SQLite's, when read). */
export interface ReplayGuard {
  enrolmentId: string;
  rowId?: number | null;
  step: number;
}

/** A check refused before any write (free): 404 not enrolled, 429 throttled. */
export interface Refusal {
  code: 'not_found' | 'too_many_attempts';
  message: string;
  /** seconds, for Retry-After */
  retryAfter?: number;
}

export function notEnrolled(externalUserId: string): Refusal {
  return { code: 'not_found', message: `No enrolled user "${externalUserId}". Enrol them with POST /api/v1/generate.` };
}

/**
 * RFC 4226 §7: after 5 failed checks in 15 minutes, refuse (free) until the oldest ages out.
 * `recent`: the user's newest checks inside the window, newest first, replays left out. Read in
 * the check's transaction with the enrolment row locked (PostgreSQL) or the one writer (SQLite),
 * so concurrent guesses cannot all slip past it.
 */
export function throttleRefusal(recent: Array<{ status: VerificationStatus; createdAt: Date }>, now: Date): Refusal | null {
  if (recent.length < THROTTLE_FAILURES || recent.some((c) => c.status === 'verified')) return null;
  const oldest = recent[recent.length - 1]!;
  const retryAfter = Math.max(1, Math.ceil((oldest.createdAt.getTime() + THROTTLE_WINDOW_MS - now.getTime()) / 1000));
  return { code: 'too_many_attempts', message: `Too many failed attempts for this user. Try again in ${retryAfter} s.`, retryAfter };
}

/** A code's status; `step` only for a match (the replay guard's step). */
export function decideCode(secretBase32: string, code: string, params: TotpParams, window: number, now: number): { status: VerificationStatus; step?: number } {
  const check = checkCode(secretBase32, code, params, window, now);
  if (check.outcome === 'match') return { status: 'verified', step: check.step };
  return { status: check.outcome === 'expired' ? 'expired' : 'invalid_code' };
}

/** Stateless mode: the caller's own secret (spaces and case forgiven), the default parameters. */
export function decideStateless(secret: string, token: string, window: number, now: number): { status: VerificationStatus } {
  return { status: decideCode(secret.replace(/\s+/g, '').toUpperCase(), token, DEFAULT_TOTP, window, now).status };
}

/**
 * The lines a debit may cross that have something behind them (a mail, a webhook event, an
 * auto-refill). A group whose debit crosses one, or of a business with live webhook endpoints,
 * is written the careful way (on the event loop, with the transaction's own events); the fast
 * ways (PostgreSQL's one-message write, SQLite's writer thread) refuse it.
 */
export function crossesALine(balanceAfter: number, amount: number, lines: number[]): boolean {
  return lines.some((line) => balanceAfter + amount >= line && balanceAfter < line);
}
