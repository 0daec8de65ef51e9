import type { AuthenticatorAccount } from '@common/contract/authenticator';
import { createHmac } from 'node:crypto';
import { accountKey, type OtpAccount } from '@common/otpauth';
import type { AppContext } from '../../context';
import { newId } from '../../lib/ids';
import type { CurrentUser } from '../auth/service';
import * as repo from './repo';

/**
 * The server-side authenticator from before the vault: rows with secrets encrypted under the
 * server's key. Nothing writes here any more; the accounts are read once to move into the
 * person's vault (features/vault deletes them in the same transaction).
 */

/** Binds a stored secret to its owner and row: a blob copied elsewhere does not decrypt. */
const secretContext = (userId: string, accountId: string) => `authenticator_account:${userId}:${accountId}`;

/** Keyed, so the table alone does not let anyone confirm a guessed secret. */
function fingerprint(ctx: AppContext, userId: string, account: OtpAccount): string {
  return createHmac('sha256', ctx.secrets.deriveKey('authenticator-fingerprint')).update(`${userId}\u0000${accountKey(account)}`).digest('hex');
}

function toAccount(ctx: AppContext, row: repo.AuthenticatorAccountRow): AuthenticatorAccount {
  return {
    id: row.id,
    type: row.type,
    issuer: row.issuer,
    accountName: row.accountName,
    secret: ctx.secrets.decrypt(row.secretEnc, secretContext(row.userId, row.id)),
    algorithm: row.algorithm,
    digits: row.digits,
    period: row.period,
    counter: row.counter,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listAccounts(ctx: AppContext, user: CurrentUser): Promise<AuthenticatorAccount[]> {
  return (await repo.listAccounts(ctx.db, user.id)).map((row) => toAccount(ctx, row));
}

/**
 * Stores an account the way the server-side authenticator did. Only tests call it: they stand in
 * for people who added accounts before the vault existed.
 */
export async function storeLegacyAccount(ctx: AppContext, userId: string, account: OtpAccount, now = new Date()): Promise<string> {
  const id = newId('tac');
  await repo.insertAccount(
    ctx.db,
    {
      id,
      userId,
      type: account.type,
      issuer: account.issuer,
      accountName: account.accountName,
      secretEnc: ctx.secrets.encrypt(account.secret, secretContext(userId, id)),
      algorithm: account.algorithm,
      digits: account.digits,
      period: account.period,
      counter: account.counter,
      fingerprint: fingerprint(ctx, userId, account),
    },
    now,
  );
  return id;
}
