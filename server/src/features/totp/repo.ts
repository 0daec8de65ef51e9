import type { Kysely, Transaction } from 'kysely';
import { toDate, toDateOrNull, toNumber } from '../../db/normalize';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface AccountTotpRow {
  userId: string;
  secretEnc: string;
  algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  digits: number;
  period: number;
  createdAt: Date;
  updatedAt: Date;
  /** null while pending: only a confirmed TOTP protects sign-in */
  confirmedAt: Date | null;
  lastUsedStep: number | null;
  lastUsedAt: Date | null;
}

export async function findAccountTotp(db: Executor, userId: string): Promise<AccountTotpRow | undefined> {
  const row = await db.selectFrom('account_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      secretEnc: row.secret_enc,
      algorithm: row.algorithm,
      digits: toNumber(row.digits),
      period: toNumber(row.period),
      createdAt: toDate(row.created_at),
      updatedAt: toDate(row.updated_at),
      confirmedAt: toDateOrNull(row.confirmed_at),
      lastUsedStep: row.last_used_step === null ? null : toNumber(row.last_used_step),
      lastUsedAt: toDateOrNull(row.last_used_at),
    }
  );
}

export async function insertAccountTotp(
  db: Executor,
  values: { userId: string; secretEnc: string; algorithm: AccountTotpRow['algorithm']; digits: number; period: number; now: Date },
): Promise<void> {
  await db
    .insertInto('account_totp')
    .values({
      user_id: values.userId,
      secret_enc: values.secretEnc,
      algorithm: values.algorithm,
      digits: values.digits,
      period: values.period,
      created_at: values.now,
      updated_at: values.now,
      confirmed_at: null,
      last_used_step: null,
      last_used_at: null,
    })
    .execute();
}

/** Replaces the secret of a PENDING row (a configured one is turned off first); answers whether there was one. */
export async function replacePendingSecret(db: Executor, userId: string, secretEnc: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('account_totp')
    .set({ secret_enc: secretEnc, updated_at: now, last_used_step: null })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Takes the row's lock for the rest of the transaction, so attempts are counted one at a time. */
export async function lockAccountTotp(trx: Transaction<Database>, userId: string): Promise<void> {
  await trx.updateTable('account_totp').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('user_id', '=', userId).execute();
}

export async function markConfirmed(db: Executor, userId: string, step: number, now: Date): Promise<void> {
  await db.updateTable('account_totp').set({ confirmed_at: now, last_used_step: step, updated_at: now }).where('user_id', '=', userId).execute();
}

/** Records an accepted step only if it is newer than the last one (RFC 6238 §5.2); answers whether it was. */
export async function advanceStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('account_totp')
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function recordUsed(db: Executor, userId: string, now: Date): Promise<void> {
  await db.updateTable('account_totp').set({ last_used_at: now }).where('user_id', '=', userId).execute();
}

/** Removes the account TOTP, its backup codes and its attempt log; answers whether there was one. */
export async function deleteAccountTotp(db: Executor, userId: string): Promise<boolean> {
  await db.deleteFrom('account_totp_backup_code').where('user_id', '=', userId).execute();
  await db.deleteFrom('account_totp_attempt').where('user_id', '=', userId).execute();
  const result = await db.deleteFrom('account_totp').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Marks one unused backup code used; answers whether it existed. */
export async function consumeBackupCode(db: Executor, userId: string, hash: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('account_totp_backup_code')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertFailedAttempt(db: Executor, id: string, userId: string, now: Date): Promise<void> {
  await db.insertInto('account_totp_attempt').values({ id, user_id: userId, created_at: now }).execute();
}

/** Failed attempts since `since`, oldest first. */
export async function failedAttemptsSince(db: Executor, userId: string, since: Date): Promise<Date[]> {
  const rows = await db
    .selectFrom('account_totp_attempt')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'asc')
    .execute();
  return rows.map((r) => toDate(r.created_at));
}

export async function replaceBackupCodes(db: Executor, userId: string, codes: Array<{ id: string; hash: string }>): Promise<void> {
  await db.deleteFrom('account_totp_backup_code').where('user_id', '=', userId).execute();
  if (codes.length === 0) return;
  await db
    .insertInto('account_totp_backup_code')
    .values(codes.map((c) => ({ id: c.id, user_id: userId, code_hash: c.hash, used_at: null })))
    .execute();
}

export async function countUnusedBackupCodes(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('account_totp_backup_code')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}
