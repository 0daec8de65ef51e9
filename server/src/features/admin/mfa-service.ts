import type { MfaConfirmed, MfaSetup, MfaStatus } from '@common/contract/admin';
import { toOtpauthUri } from '@common/otpauth';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import type { CurrentUser } from '../auth/service';
import { checkCode, DEFAULT_TOTP, hashBackupCode, manualEntry, newBackupCodes, newSecret, qrCodeDataUri } from '../verify/totp';
import { enrolmentCodeMatches, normaliseEnrolmentCode } from './mfa-enrolment';
import * as repo from './mfa-repo';

/** An MFA verification lets the administrator act for 30 minutes, in that sign-in session only. */
export const MFA_VALIDITY_MS = 30 * 60 * 1000;
/** At most 5 failed codes per 15 minutes (SPEC §9), counted in the database. */
export const MFA_MAX_FAILURES = 5;
export const MFA_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MFA_ISSUER = 'Sixdigit Admin';

const secretContext = (userId: string) => `admin_mfa:${userId}`;
const recoveryKey = (ctx: AppContext) => ctx.secrets.deriveKey('admin-mfa-recovery-codes');
const INVALID = 'Invalid code. Please try again.';

/** Until when this session's MFA verification holds, or null when it does not (any more). */
export async function verifiedUntil(ctx: AppContext, user: CurrentUser, sessionId: string, now = new Date()): Promise<Date | null> {
  const verifiedAt = await repo.sessionVerifiedAt(ctx.db, sessionId, user.id);
  if (!verifiedAt) return null;
  const until = new Date(verifiedAt.getTime() + MFA_VALIDITY_MS);
  return until > now ? until : null;
}

export async function status(ctx: AppContext, user: CurrentUser, sessionId: string, now = new Date()): Promise<MfaStatus> {
  const row = await repo.findMfa(ctx.db, user.id);
  const configured = Boolean(row?.confirmedAt);
  const until = configured ? await verifiedUntil(ctx, user, sessionId, now) : null;
  return {
    email: user.email,
    mfaConfigured: configured,
    mfaVerified: until !== null,
    verifiedUntil: until?.toISOString() ?? null,
    recoveryCodesLeft: configured ? await repo.countUnusedRecoveryCodes(ctx.db, user.id) : 0,
  };
}

/**
 * A pending secret to scan; it becomes the MFA only when its first code is confirmed. It needs the
 * operator's one-time enrolment code (mfa-enrolment.ts), consumed here rather than at confirm: one
 * code makes one secret, so a code seen by someone else after this cannot replace the secret being
 * scanned, and a lost QR code only needs a new code from the operator (the CLI always gives one).
 */
export async function setup(ctx: AppContext, user: CurrentUser, enrolmentCode: string | undefined, now = new Date()): Promise<MfaSetup> {
  const existing = await repo.findMfa(ctx.db, user.id);
  if (existing?.confirmedAt) throw alreadyConfigured();
  if (!enrolmentCode || normaliseEnrolmentCode(enrolmentCode) === '') {
    throw new AppError('enrolment_code_required', `Enter the enrolment code: ${WHERE_THE_CODE_IS}.`);
  }
  const secret = newSecret(DEFAULT_TOTP.algorithm);
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    // Lock order everywhere: enrolment code, then the admin_mfa row (reset follows it too).
    await repo.lockEnrolmentCode(trx);
    await repo.lockMfa(trx, user.id);
    if ((await repo.findMfa(trx, user.id))?.confirmedAt) return { kind: 'configured' as const };
    const retryAfter = await lockedOutFor(trx, user.id, now);
    if (retryAfter !== null) return { kind: 'throttled' as const, retryAfter };
    const current = await repo.currentEnrolmentCode(trx);
    const valid = current && current.usedAt === null && current.expiresAt > now && enrolmentCodeMatches(current.codeHash, enrolmentCode);
    if (!valid || !(await repo.consumeEnrolmentCode(trx, current.id, now))) {
      await recordFailure(trx, user, 'enrolment_code', now);
      return { kind: 'invalid' as const };
    }
    await repo.savePendingSecret(trx, user.id, ctx.secrets.encrypt(secret, secretContext(user.id)), now);
    await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'admin.mfa_setup_started', subjectType: 'user', subjectId: user.id, details: { enrolmentCodeId: current.id } }, now);
    return { kind: 'ok' as const };
  });
  if (outcome.kind === 'configured') throw alreadyConfigured();
  if (outcome.kind === 'throttled') throw throttled(outcome.retryAfter);
  if (outcome.kind === 'invalid') {
    throw new AppError('enrolment_code_invalid', `This enrolment code is wrong, expired or already used. Get a new one: ${WHERE_THE_CODE_IS}.`);
  }
  const otpauthUri = toOtpauthUri({ type: 'totp', issuer: MFA_ISSUER, accountName: user.email, secret, ...DEFAULT_TOTP, counter: null });
  return { qrCodeUrl: await qrCodeDataUri(otpauthUri), secret, manualEntry: manualEntry(secret), otpauthUri };
}

const WHERE_THE_CODE_IS = "it is in the server's start-up log, or run `npm run cli -- admin:mfa-enrol-code`";
const alreadyConfigured = () => new AppError('conflict', 'MFA is already configured. An operator can reset it with `npm run cli -- admin:mfa-reset`.');
const throttled = (retryAfter: number) =>
  new AppError('too_many_attempts', `Too many wrong codes. Try again in ${Math.ceil(retryAfter / 60)} min.`, { 'retry-after': String(retryAfter) });

/** Seconds until the next attempt is allowed, or null when fewer than 5 failed in the last 15 minutes. */
async function lockedOutFor(trx: Transaction<Database>, userId: string, now: Date): Promise<number | null> {
  const failures = await repo.failedAttemptsSince(trx, userId, new Date(now.getTime() - MFA_FAILURE_WINDOW_MS));
  if (failures.length < MFA_MAX_FAILURES) return null;
  return Math.max(1, Math.ceil((failures[0]!.getTime() + MFA_FAILURE_WINDOW_MS - now.getTime()) / 1000));
}

/** One failed code, enrolment code or recovery code: counted toward the lock and audited. */
async function recordFailure(trx: Transaction<Database>, user: CurrentUser, via: 'totp' | 'recovery_code' | 'enrolment_code', now: Date): Promise<void> {
  await repo.insertFailedAttempt(trx, newId('mfa'), user.id, now);
  await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'admin.mfa_failed', subjectType: 'user', subjectId: user.id, details: { via } }, now);
}

type Proof = { totpCode: string } | { recoveryCode: string };

/**
 * Checks one code under the attempt limit, inside one transaction that holds the MFA row's lock:
 * concurrent guesses are counted one after another, and a failure is recorded before answering.
 */
async function checkProof(
  ctx: AppContext,
  user: CurrentUser,
  proof: Proof,
  expectConfirmed: boolean,
  onSuccess: (trx: Transaction<Database>, step: number | null) => Promise<void>,
  now: Date,
): Promise<void> {
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    await repo.lockMfa(trx, user.id);
    const row = await repo.findMfa(trx, user.id);
    if (!row) throw new AppError('conflict', expectConfirmed ? 'MFA is not configured yet: set it up first.' : 'Start the MFA setup first.');
    if (expectConfirmed && !row.confirmedAt) throw new AppError('conflict', 'MFA is not configured yet: confirm the setup first.');
    if (!expectConfirmed && row.confirmedAt) throw new AppError('conflict', 'MFA is already configured.');

    const retryAfter = await lockedOutFor(trx, user.id, now);
    if (retryAfter !== null) return { kind: 'throttled' as const, retryAfter };

    let accepted = false;
    let step: number | null = null;
    if ('recoveryCode' in proof) {
      accepted = expectConfirmed && (await repo.consumeRecoveryCode(trx, user.id, hashBackupCode(proof.recoveryCode, recoveryKey(ctx)), now));
    } else {
      const secret = ctx.secrets.decrypt(row.secretEnc, secretContext(user.id));
      const check = checkCode(secret, proof.totpCode, DEFAULT_TOTP, 1, now.getTime());
      // A code at or before the last accepted step is a replay (RFC 6238 §5.2).
      if (check.outcome === 'match' && (row.lastUsedStep === null || check.step > row.lastUsedStep)) {
        accepted = expectConfirmed ? await repo.advanceStep(trx, user.id, check.step, now) : true;
        step = check.step;
      }
    }
    if (!accepted) {
      await recordFailure(trx, user, 'recoveryCode' in proof ? 'recovery_code' : 'totp', now);
      return { kind: 'invalid' as const };
    }
    await onSuccess(trx, step);
    return { kind: 'ok' as const };
  });
  if (outcome.kind === 'throttled') throw throttled(outcome.retryAfter);
  if (outcome.kind === 'invalid') throw new AppError('invalid_code', INVALID);
}

/** The first code from the authenticator app turns the pending secret into the MFA, and verifies this session. */
export async function confirm(ctx: AppContext, user: CurrentUser, sessionId: string, totpCode: string, now = new Date()): Promise<MfaConfirmed> {
  const recoveryCodes = newBackupCodes();
  const key = recoveryKey(ctx);
  await checkProof(
    ctx,
    user,
    { totpCode },
    false,
    async (trx, step) => {
      await repo.markConfirmed(trx, user.id, step!, now);
      await repo.replaceRecoveryCodes(trx, user.id, recoveryCodes.map((code) => ({ id: newId('mrc'), hash: hashBackupCode(code, key) })));
      await repo.markSessionVerified(trx, sessionId, user.id, now);
      await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'admin.mfa_enabled', subjectType: 'user', subjectId: user.id }, now);
    },
    now,
  );
  return { mfaConfigured: true, mfaVerified: true, verifiedUntil: new Date(now.getTime() + MFA_VALIDITY_MS).toISOString(), recoveryCodes };
}

/** A code (or one recovery code) verifies this session for 30 minutes. */
export async function verify(ctx: AppContext, user: CurrentUser, sessionId: string, proof: Proof, now = new Date()) {
  await checkProof(
    ctx,
    user,
    proof,
    true,
    async (trx) => {
      await repo.markSessionVerified(trx, sessionId, user.id, now);
      await insertAuditEntry(
        trx,
        { actorUserId: user.id, actorLabel: user.email, action: 'admin.mfa_verified', subjectType: 'user', subjectId: user.id, details: { via: 'recoveryCode' in proof ? 'recovery_code' : 'totp' } },
        now,
      );
    },
    now,
  );
  return { mfaVerified: true as const, verifiedUntil: new Date(now.getTime() + MFA_VALIDITY_MS).toISOString() };
}

/**
 * A passkey instead of the code (user verification required): `assert` checks the assertion and
 * throws an AppError when it is refused. The same 5-in-15-minutes limit as codes, counted in the
 * same table, and the same mark on this session as a code leaves.
 */
export async function verifyWithPasskey(ctx: AppContext, user: CurrentUser, sessionId: string, assert: (trx: Transaction<Database>) => Promise<unknown>, now = new Date()) {
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    await repo.lockMfa(trx, user.id);
    const row = await repo.findMfa(trx, user.id);
    if (!row?.confirmedAt) throw new AppError('conflict', 'MFA is not configured yet: set it up first.');
    const failures = await repo.failedAttemptsSince(trx, user.id, new Date(now.getTime() - MFA_FAILURE_WINDOW_MS));
    if (failures.length >= MFA_MAX_FAILURES) {
      return { kind: 'throttled' as const, retryAfter: Math.max(1, Math.ceil((failures[0]!.getTime() + MFA_FAILURE_WINDOW_MS - now.getTime()) / 1000)) };
    }
    try {
      await assert(trx);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await repo.insertFailedAttempt(trx, newId('mfa'), user.id, now);
      await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'admin.mfa_failed', subjectType: 'user', subjectId: user.id, details: { via: 'passkey' } }, now);
      return { kind: 'refused' as const, error: err };
    }
    await repo.markSessionVerified(trx, sessionId, user.id, now);
    await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'admin.mfa_verified', subjectType: 'user', subjectId: user.id, details: { via: 'passkey' } }, now);
    return { kind: 'ok' as const };
  });
  if (outcome.kind === 'throttled') {
    throw new AppError('too_many_attempts', `Too many failed attempts. Try again in ${Math.ceil(outcome.retryAfter / 60)} min.`, { 'retry-after': String(outcome.retryAfter) });
  }
  if (outcome.kind === 'refused') throw outcome.error;
  return { mfaVerified: true as const, verifiedUntil: new Date(now.getTime() + MFA_VALIDITY_MS).toISOString() };
}

/**
 * For an operator whose administrator lost the device (`npm run cli -- admin:mfa-reset`). The next
 * setup needs a new enrolment code: any code issued before the reset stops working.
 */
export async function reset(ctx: AppContext, adminUserId: string, actorLabel: string, now = new Date()): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    await repo.deleteEnrolmentCodes(trx);
    const removed = await repo.deleteMfa(trx, adminUserId);
    await insertAuditEntry(trx, { actorUserId: null, actorLabel, action: 'admin.mfa_reset', subjectType: 'user', subjectId: adminUserId, details: { hadMfa: removed } }, now);
    return removed;
  });
}
