import type { Kysely, Transaction } from 'kysely';
import { toDate, toNumber } from '../../db/normalize';
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
    })
    .execute();
}

/** Replaces the secret of an existing row; answers whether there was one. */
export async function replaceAccountTotpSecret(db: Executor, userId: string, secretEnc: string, now: Date): Promise<boolean> {
  const result = await db.updateTable('account_totp').set({ secret_enc: secretEnc, updated_at: now }).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
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
