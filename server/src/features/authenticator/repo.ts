import type { Kysely, Selectable, Transaction } from 'kysely';
import { toDate, toNumber } from '../../db/normalize';
import type { AuthenticatorAccountTable, Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface AuthenticatorAccountRow {
  id: string;
  userId: string;
  type: 'totp' | 'hotp';
  issuer: string | null;
  accountName: string;
  secretEnc: string;
  algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  digits: number;
  period: number;
  counter: number | null;
  fingerprint: string;
  createdAt: Date;
}

function toRow(row: Selectable<AuthenticatorAccountTable>): AuthenticatorAccountRow {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.type,
    issuer: row.issuer,
    accountName: row.account_name,
    secretEnc: row.secret_enc,
    algorithm: row.algorithm,
    digits: toNumber(row.digits),
    period: toNumber(row.period),
    counter: row.counter === null ? null : toNumber(row.counter),
    fingerprint: row.fingerprint,
    createdAt: toDate(row.created_at),
  };
}

export type NewAuthenticatorAccount = Omit<AuthenticatorAccountRow, 'createdAt'>;

/** Oldest first, so a list keeps its order as accounts are added. */
export async function listAccounts(db: Executor, userId: string): Promise<AuthenticatorAccountRow[]> {
  const rows = await db.selectFrom('authenticator_account').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toRow);
}

/** Inserts unless the same account (fingerprint) is already there; answers whether it was added. */
export async function insertAccount(db: Executor, account: NewAuthenticatorAccount, now: Date): Promise<boolean> {
  const result = await db
    .insertInto('authenticator_account')
    .values({
      id: account.id,
      user_id: account.userId,
      type: account.type,
      issuer: account.issuer,
      account_name: account.accountName,
      secret_enc: account.secretEnc,
      algorithm: account.algorithm,
      digits: account.digits,
      period: account.period,
      counter: account.counter,
      fingerprint: account.fingerprint,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'fingerprint']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

