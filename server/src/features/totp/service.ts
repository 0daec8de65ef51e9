import type { GeneratedCode, NewBackupCodes, TotpChanged, TotpCheckResult, TotpSetupResult, TotpStatus } from '@common/contract/totp';
import { codeExpiresAt, generateCode, secondsRemaining, toOtpauthUri, type OtpAccount } from '@common/otpauth';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import { queueMail } from '../mail/outbox';
import { completeSecondFactor, revokeOtherSessions } from '../auth/second-factor';
import type { CurrentUser } from '../auth/service';
import { checkCode, DEFAULT_TOTP, hashBackupCode, manualEntry, newBackupCodes, newSecret, qrCodeDataUri } from '../verify/totp';
import * as repo from './repo';

/** The issuer an authenticator app shows beside the account TOTP. */
export const ACCOUNT_TOTP_ISSUER = 'Sixdigit';
/** At most 5 wrong codes per account in 15 minutes (the public API's rule), counted in the database. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** At or below this many backup codes the page says to make new ones. */
export const FEW_BACKUP_CODES = 3;

/** Binds a stored secret to its owner: a blob copied to another user's row does not decrypt. */
const secretContext = (userId: string) => `account_totp:${userId}`;
const backupCodeKey = (ctx: AppContext) => ctx.secrets.deriveKey('account-totp-backup-codes');

export async function status(ctx: AppContext, user: Pick<CurrentUser, 'id' | 'email'>): Promise<TotpStatus> {
  const row = await repo.findAccountTotp(ctx.db, user.id);
  const configured = Boolean(row?.confirmedAt);
  return {
    configured,
    pending: Boolean(row) && !configured,
    email: user.email,
    protectedSince: row?.confirmedAt?.toISOString() ?? null,
    lastUsedAt: configured ? (row?.lastUsedAt?.toISOString() ?? null) : null,
    backupCodesLeft: row ? await repo.countUnusedBackupCodes(ctx.db, user.id) : 0,
  };
}

const ALREADY = 'Your account TOTP already protects sign-in. Turn it off first (that needs a current code or a backup code).';

/**
 * Makes a PENDING account TOTP (SHA1, 6 digits, 30 s: what every authenticator app reads) and its
 * 10 backup codes, shown once. It protects nothing until `confirm` sees a first code, so a person
 * who never scanned it cannot be locked out. Another setup while pending replaces it.
 */
export async function setup(ctx: AppContext, user: CurrentUser, now = new Date()): Promise<TotpSetupResult> {
  const existing = await repo.findAccountTotp(ctx.db, user.id);
  if (existing?.confirmedAt) throw new AppError('conflict', ALREADY);
  const secret = newSecret(DEFAULT_TOTP.algorithm);
  const secretEnc = ctx.secrets.encrypt(secret, secretContext(user.id));
  const backupCodes = newBackupCodes();
  const key = backupCodeKey(ctx);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const replaced = existing ? await repo.replacePendingSecret(trx, user.id, secretEnc, now) : false;
      if (existing && !replaced) throw new AppError('conflict', ALREADY); // confirmed in between
      if (!replaced) await repo.insertAccountTotp(trx, { userId: user.id, secretEnc, ...DEFAULT_TOTP, now });
      await repo.replaceBackupCodes(trx, user.id, backupCodes.map((code) => ({ id: newId('tbc'), hash: hashBackupCode(code, key) })));
      await insertAuditEntry(
        trx,
        { actorUserId: user.id, actorLabel: user.email, action: replaced ? 'account_totp.reset' : 'account_totp.setup', subjectType: 'user', subjectId: user.id },
        now,
      );
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    // Two setups racing: the primary key lets exactly one make the row.
    if (!existing && (await repo.findAccountTotp(ctx.db, user.id))) throw new AppError('conflict', 'Account TOTP setup is already under way in another window.');
    throw err;
  }
  const account: OtpAccount = { type: 'totp', issuer: ACCOUNT_TOTP_ISSUER, accountName: user.email, secret, ...DEFAULT_TOTP, counter: null };
  const otpauthUri = toOtpauthUri(account);
  return {
    qrCode: await qrCodeDataUri(otpauthUri),
    secret,
    otpauthUri,
    manualEntry: manualEntry(secret),
    backupCodes,
    ...DEFAULT_TOTP,
  };
}

/**
 * The current code, only while the setup is pending (to compare with the phone). Once the TOTP
 * protects sign-in it is never shown: a code anyone holding the session can read is no factor.
 */
export async function currentCode(ctx: AppContext, user: CurrentUser, now = Date.now()): Promise<GeneratedCode> {
  const row = await repo.findAccountTotp(ctx.db, user.id);
  if (!row) throw new AppError('not_found', 'Account TOTP is not set up yet.');
  if (row.confirmedAt) throw new AppError('conflict', 'The code is not shown once your account TOTP protects sign-in: your authenticator app shows it.');
  const secret = ctx.secrets.decrypt(row.secretEnc, secretContext(user.id));
  const params = { type: 'totp' as const, secret, algorithm: row.algorithm, digits: row.digits, period: row.period, counter: null };
  return {
    code: generateCode(params, now),
    expiresAt: codeExpiresAt(row.period, now).toISOString(),
    timeRemaining: secondsRemaining(row.period, now),
    period: row.period,
  };
}

export type Proof = { code: string } | { backupCode: string };
/** What a proof is for: each spends it (but `check`), and each failure counts toward the limit. */
type Purpose = 'confirm' | 'sign_in' | 'check' | 'disable' | 'regenerate';
export type ProofVia = 'totp' | 'backup_code';

const viaOf = (proof: Proof): ProofVia => ('backupCode' in proof ? 'backup_code' : 'totp');

/**
 * Checks one code (or backup code) under the attempt limit, inside one transaction that holds the
 * account TOTP row's lock: concurrent guesses are counted one after another, and a failure is
 * recorded (committed) before the answer. `onSuccess` runs in the same transaction.
 */
async function checkProof(
  ctx: AppContext,
  user: Pick<CurrentUser, 'id' | 'email'>,
  proof: Proof,
  purpose: Purpose,
  now: Date,
  onSuccess: (trx: Transaction<Database>, step: number | null) => Promise<void> = async () => {},
): Promise<void> {
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    await repo.lockAccountTotp(trx, user.id);
    const row = await repo.findAccountTotp(trx, user.id);
    if (!row) throw new AppError('conflict', 'Account TOTP is not set up.');
    if (purpose === 'confirm' && row.confirmedAt) throw new AppError('conflict', 'Your account TOTP is already confirmed.');
    if (purpose !== 'confirm' && !row.confirmedAt) throw new AppError('conflict', 'Your account TOTP is not confirmed yet: enter the first code from your app to confirm it.');

    const failures = await repo.failedAttemptsSince(trx, user.id, new Date(now.getTime() - FAILURE_WINDOW_MS));
    if (failures.length >= MAX_FAILURES) {
      const retryAfter = Math.max(1, Math.ceil((failures[0]!.getTime() + FAILURE_WINDOW_MS - now.getTime()) / 1000));
      return { kind: 'throttled' as const, retryAfter };
    }

    let result: 'ok' | 'invalid' | 'replayed' = 'invalid';
    let step: number | null = null;
    if ('backupCode' in proof) {
      if (purpose !== 'confirm' && purpose !== 'check' && (await repo.consumeBackupCode(trx, user.id, hashBackupCode(proof.backupCode, backupCodeKey(ctx)), now))) result = 'ok';
    } else {
      const secret = ctx.secrets.decrypt(row.secretEnc, secretContext(user.id));
      const check = checkCode(secret, proof.code, DEFAULT_TOTP, 1, now.getTime());
      if (check.outcome === 'match') {
        step = check.step;
        if (purpose === 'check') result = 'ok';
        // A code at or before the last accepted step is a replay (RFC 6238 §5.2).
        else if (purpose === 'confirm' || (await repo.advanceStep(trx, user.id, check.step))) result = 'ok';
        else result = 'replayed';
      }
    }
    if (result !== 'ok') {
      await repo.insertFailedAttempt(trx, newId('tta'), user.id, now);
      await insertAuditEntry(
        trx,
        { actorUserId: user.id, actorLabel: user.email, action: 'account_totp.code_failed', subjectType: 'user', subjectId: user.id, details: { purpose, via: viaOf(proof), replayed: result === 'replayed' } },
        now,
      );
      return { kind: result };
    }
    await onSuccess(trx, step);
    return { kind: 'ok' as const };
  });
  if (outcome.kind === 'throttled') {
    throw new AppError('too_many_attempts', `Too many wrong codes. Try again in ${Math.ceil(outcome.retryAfter / 60)} min.`, { 'retry-after': String(outcome.retryAfter) });
  }
  if (outcome.kind === 'replayed') throw new AppError('replayed', 'That code was already used. Wait for the next one in your app.');
  if (outcome.kind === 'invalid') {
    throw new AppError('invalid_code', 'backupCode' in proof ? 'That backup code is not valid (each works once).' : 'Invalid code. Please try again.');
  }
}

/** The first code from the phone turns the pending TOTP on; every other session is signed out. */
export async function confirm(ctx: AppContext, user: CurrentUser, sessionId: string, code: string, now = new Date()): Promise<TotpChanged> {
  await checkProof(ctx, user, { code }, 'confirm', now, async (trx, step) => {
    await repo.markConfirmed(trx, user.id, step!, now);
    await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'account_totp.enabled', subjectType: 'user', subjectId: user.id }, now);
    await queueMail(trx, { to: { userId: user.id }, template: 'second_factor_changed', data: { enabled: true, at: now.toISOString() }, now });
  });
  const otherSessionsSignedOut = await revokeOtherSessions(ctx, user.id, sessionId, 'account_totp.enabled', now);
  return { status: await status(ctx, user), otherSessionsSignedOut };
}

/** "Check my authenticator": does the phone's code match? Not a sign-in; a wrong code counts as a failure. */
export async function check(ctx: AppContext, user: CurrentUser, code: string, now = new Date()): Promise<TotpCheckResult> {
  try {
    await checkProof(ctx, user, { code }, 'check', now);
    return { matches: true };
  } catch (err) {
    if (err instanceof AppError && err.code === 'invalid_code') return { matches: false };
    throw err;
  }
}

/** Turns the account TOTP off (a current code or a backup code; none needed to cancel a pending setup). */
export async function disable(ctx: AppContext, user: CurrentUser, sessionId: string, proof: Proof | null, now = new Date()): Promise<TotpChanged> {
  const row = await repo.findAccountTotp(ctx.db, user.id);
  if (!row) throw new AppError('conflict', 'Account TOTP is not set up.');
  const remove = async (trx: Transaction<Database>) => {
    await repo.deleteAccountTotp(trx, user.id);
    await insertAuditEntry(
      trx,
      { actorUserId: user.id, actorLabel: user.email, action: row.confirmedAt ? 'account_totp.disabled' : 'account_totp.setup_cancelled', subjectType: 'user', subjectId: user.id, details: proof ? { via: viaOf(proof) } : {} },
      now,
    );
    // Cancelling a setup that never protected anything changes nothing worth a security notice.
    if (row.confirmedAt) await queueMail(trx, { to: { userId: user.id }, template: 'second_factor_changed', data: { enabled: false, at: now.toISOString() }, now });
  };
  if (!row.confirmedAt) {
    await ctx.db.transaction().execute(remove);
    return { status: await status(ctx, user), otherSessionsSignedOut: 0 };
  }
  if (!proof) throw new AppError('validation_failed', 'Enter a current code from your app, or a backup code, to turn the account TOTP off.');
  await checkProof(ctx, user, proof, 'disable', now, remove);
  const otherSessionsSignedOut = await revokeOtherSessions(ctx, user.id, sessionId, 'account_totp.disabled', now);
  return { status: await status(ctx, user), otherSessionsSignedOut };
}

/** 10 new backup codes (the old ones stop working), shown once; needs a current code or a backup code. */
export async function regenerateBackupCodes(ctx: AppContext, user: CurrentUser, sessionId: string, proof: Proof, now = new Date()): Promise<NewBackupCodes> {
  const backupCodes = newBackupCodes();
  const key = backupCodeKey(ctx);
  await checkProof(ctx, user, proof, 'regenerate', now, async (trx) => {
    await repo.replaceBackupCodes(trx, user.id, backupCodes.map((code) => ({ id: newId('tbc'), hash: hashBackupCode(code, key) })));
    await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'account_totp.backup_codes_regenerated', subjectType: 'user', subjectId: user.id, details: { via: viaOf(proof) } }, now);
    await queueMail(trx, { to: { userId: user.id }, template: 'backup_codes_regenerated', data: { at: now.toISOString() }, now });
  });
  const otherSessionsSignedOut = await revokeOtherSessions(ctx, user.id, sessionId, 'account_totp.backup_codes_regenerated', now);
  return { backupCodes, otherSessionsSignedOut };
}

/** The second step of a sign-in: a code (accepted once) or a backup code (once) completes the session. */
export async function completeSignIn(ctx: AppContext, user: CurrentUser, sessionId: string, proof: Proof, now = new Date()): Promise<void> {
  await checkProof(ctx, user, proof, 'sign_in', now);
  await completeSecondFactor(ctx, sessionId, viaOf(proof), now);
}

/**
 * For an operator when a person lost their phone and their backup codes (`cli user:2fa-reset`):
 * removes the account TOTP, signs out every session, audits, and leaves the person a notice.
 */
export async function operatorReset(ctx: AppContext, userId: string, actorLabel: string, now = new Date()): Promise<{ hadTotp: boolean; sessionsEnded: number }> {
  return ctx.db.transaction().execute(async (trx) => {
    const hadTotp = await repo.deleteAccountTotp(trx, userId);
    const ended = await trx.deleteFrom('session').where('userId', '=', userId).where('impersonatedBy', 'is', null).executeTakeFirst();
    const sessionsEnded = Number(ended.numDeletedRows);
    await insertAuditEntry(trx, { actorUserId: null, actorLabel, action: 'account_totp.operator_reset', subjectType: 'user', subjectId: userId, details: { hadTotp, sessionsEnded } }, now);
    if (hadTotp) await queueMail(trx, { to: { userId }, template: 'second_factor_changed', data: { enabled: false, at: now.toISOString() }, now });
    await trx
      .insertInto('user_notice')
      .values({
        id: newId('ntc'),
        user_id: userId,
        kind: 'account_totp_reset',
        subject_id: null,
        message: 'An operator turned off your account TOTP at your request, and signed out all your sessions. Set it up again on the Account TOTP page.',
        details: JSON.stringify({ at: now.toISOString() }),
        visible_from: now,
        created_at: now,
        read_at: null,
      })
      .execute();
    return { hadTotp, sessionsEnded };
  });
}
