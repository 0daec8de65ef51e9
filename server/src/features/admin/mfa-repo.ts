import type { Kysely, Transaction } from 'kysely';
import { toDate, toDateOrNull, toNumber } from '../../db/normalize';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface AdminMfaRow {
  userId: string;
  secretEnc: string;
  confirmedAt: Date | null;
  lastUsedStep: number | null;
  updatedAt: Date;
}

export async function findMfa(db: Executor, userId: string): Promise<AdminMfaRow | undefined> {
  const row = await db.selectFrom('admin_mfa').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      secretEnc: row.secret_enc,
      confirmedAt: toDateOrNull(row.confirmed_at),
      lastUsedStep: row.last_used_step === null ? null : toNumber(row.last_used_step),
      updatedAt: toDate(row.updated_at),
    }
  );
}

/** A new pending secret (replacing an unconfirmed one). */
export async function savePendingSecret(db: Executor, userId: string, secretEnc: string, now: Date): Promise<void> {
  const updated = await db
    .updateTable('admin_mfa')
    .set({ secret_enc: secretEnc, confirmed_at: null, last_used_step: null, updated_at: now })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db.insertInto('admin_mfa').values({ user_id: userId, secret_enc: secretEnc, confirmed_at: null, last_used_step: null, created_at: now, updated_at: now }).execute();
}

/** Takes the row's lock for the rest of the transaction, so attempts are counted one at a time. */
export async function lockMfa(trx: Transaction<Database>, userId: string): Promise<void> {
  await trx.updateTable('admin_mfa').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('user_id', '=', userId).execute();
}

export async function markConfirmed(db: Executor, userId: string, step: number, now: Date): Promise<void> {
  await db.updateTable('admin_mfa').set({ confirmed_at: now, last_used_step: step, updated_at: now }).where('user_id', '=', userId).execute();
}

/** Records an accepted step only if it is newer than the last one (replay guard); answers whether it was. */
export async function advanceStep(db: Executor, userId: string, step: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('admin_mfa')
    .set({ last_used_step: step, updated_at: now })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteMfa(db: Executor, userId: string): Promise<boolean> {
  await db.deleteFrom('admin_mfa_recovery_code').where('user_id', '=', userId).execute();
  await db.deleteFrom('admin_mfa_session').where('user_id', '=', userId).execute();
  await db.deleteFrom('admin_mfa_attempt').where('user_id', '=', userId).execute();
  const result = await db.deleteFrom('admin_mfa').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function replaceRecoveryCodes(db: Executor, userId: string, codes: Array<{ id: string; hash: string }>): Promise<void> {
  await db.deleteFrom('admin_mfa_recovery_code').where('user_id', '=', userId).execute();
  if (codes.length === 0) return;
  await db
    .insertInto('admin_mfa_recovery_code')
    .values(codes.map((c) => ({ id: c.id, user_id: userId, code_hash: c.hash, used_at: null })))
    .execute();
}

/** Marks one unused recovery code used; answers whether it existed. */
export async function consumeRecoveryCode(db: Executor, userId: string, hash: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('admin_mfa_recovery_code')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('admin_mfa_recovery_code')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

export async function insertFailedAttempt(db: Executor, id: string, userId: string, now: Date): Promise<void> {
  await db.insertInto('admin_mfa_attempt').values({ id, user_id: userId, created_at: now }).execute();
}

/** Failed attempts since `since`, oldest first (their times decide when the next one is allowed). */
export async function failedAttemptsSince(db: Executor, userId: string, since: Date): Promise<Date[]> {
  const rows = await db
    .selectFrom('admin_mfa_attempt')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'asc')
    .execute();
  return rows.map((r) => toDate(r.created_at));
}

export async function markSessionVerified(db: Executor, sessionId: string, userId: string, now: Date): Promise<void> {
  const updated = await db.updateTable('admin_mfa_session').set({ verified_at: now }).where('session_id', '=', sessionId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db.insertInto('admin_mfa_session').values({ session_id: sessionId, user_id: userId, verified_at: now }).execute();
}

export async function sessionVerifiedAt(db: Executor, sessionId: string, userId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('admin_mfa_session')
    .select('verified_at')
    .where('session_id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? toDate(row.verified_at) : null;
}

// --- the one-time enrolment code (only its SHA-256 is stored) ----------------------------------

export interface EnrolmentCodeRow {
  id: string;
  codeHash: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** The new code becomes the only one: older codes, used or not, stop working. */
export async function replaceEnrolmentCode(db: Executor, code: { id: string; codeHash: string; expiresAt: Date }, now: Date): Promise<void> {
  await db.deleteFrom('admin_mfa_enrolment_code').execute();
  await db.insertInto('admin_mfa_enrolment_code').values({ id: code.id, code_hash: code.codeHash, created_at: now, expires_at: code.expiresAt, used_at: null }).execute();
}

export async function deleteEnrolmentCodes(db: Executor): Promise<void> {
  await db.deleteFrom('admin_mfa_enrolment_code').execute();
}

/**
 * Takes the code row's lock for the rest of the transaction (PostgreSQL; SQLite has one writer), so
 * guesses at it are checked and counted one at a time. Always taken before the admin_mfa row's lock.
 */
export async function lockEnrolmentCode(trx: Transaction<Database>): Promise<void> {
  await trx.updateTable('admin_mfa_enrolment_code').set((eb) => ({ created_at: eb.ref('created_at') })).execute();
}

export async function currentEnrolmentCode(db: Executor): Promise<EnrolmentCodeRow | undefined> {
  const row = await db.selectFrom('admin_mfa_enrolment_code').selectAll().orderBy('created_at', 'desc').executeTakeFirst();
  return row && { id: row.id, codeHash: row.code_hash, expiresAt: toDate(row.expires_at), usedAt: toDateOrNull(row.used_at) };
}

/** Marks the code used; answers whether this call did (single use even under concurrency). */
export async function consumeEnrolmentCode(db: Executor, id: string, now: Date): Promise<boolean> {
  const result = await db.updateTable('admin_mfa_enrolment_code').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
