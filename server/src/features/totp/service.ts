import type { GeneratedCode, TotpSetupResult, TotpStatus } from '@common/contract/totp';
import { codeExpiresAt, generateCode, secondsRemaining, toOtpauthUri, type OtpAccount } from '@common/otpauth';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import type { CurrentUser } from '../auth/service';
import { DEFAULT_TOTP, hashBackupCode, manualEntry, newBackupCodes, newSecret, qrCodeDataUri } from '../verify/totp';
import * as repo from './repo';

/** The issuer an authenticator app shows beside the account TOTP. */
export const ACCOUNT_TOTP_ISSUER = 'Sixdigit';

/** Binds a stored secret to its owner: a blob copied to another user's row does not decrypt. */
const secretContext = (userId: string) => `account_totp:${userId}`;
const backupCodeKey = (ctx: AppContext) => ctx.secrets.deriveKey('account-totp-backup-codes');

export async function status(ctx: AppContext, user: CurrentUser): Promise<TotpStatus> {
  const row = await repo.findAccountTotp(ctx.db, user.id);
  return {
    configured: Boolean(row),
    email: user.email,
    configuredAt: row ? row.updatedAt.toISOString() : null,
    backupCodesLeft: row ? await repo.countUnusedBackupCodes(ctx.db, user.id) : 0,
  };
}

const ALREADY = 'Account TOTP is already set up. Send {"reset": true} to replace it; the old secret and backup codes stop working.';

/**
 * Makes the account TOTP (SHA1, 6 digits, 30 s: what every authenticator app reads) and its 10
 * backup codes, shown once. A second setup is refused unless `reset` says to replace it.
 */
export async function setup(ctx: AppContext, user: CurrentUser, options: { reset: boolean }, now = new Date()): Promise<TotpSetupResult> {
  const existing = await repo.findAccountTotp(ctx.db, user.id);
  if (existing && !options.reset) throw new AppError('conflict', ALREADY);
  const secret = newSecret(DEFAULT_TOTP.algorithm);
  const secretEnc = ctx.secrets.encrypt(secret, secretContext(user.id));
  const backupCodes = newBackupCodes();
  const key = backupCodeKey(ctx);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const replaced = existing ? await repo.replaceAccountTotpSecret(trx, user.id, secretEnc, now) : false;
      if (!replaced) await repo.insertAccountTotp(trx, { userId: user.id, secretEnc, ...DEFAULT_TOTP, now });
      await repo.replaceBackupCodes(trx, user.id, backupCodes.map((code) => ({ id: newId('tbc'), hash: hashBackupCode(code, key) })));
      await insertAuditEntry(
        trx,
        { actorUserId: user.id, actorLabel: user.email, action: replaced ? 'account_totp.reset' : 'account_totp.setup', subjectType: 'user', subjectId: user.id },
        now,
      );
    });
  } catch (err) {
    // Two setups racing: the primary key lets exactly one make the row.
    if (!existing && (await repo.findAccountTotp(ctx.db, user.id))) throw new AppError('conflict', ALREADY);
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

/** The current code of the signed-in person's own account TOTP. */
export async function currentCode(ctx: AppContext, user: CurrentUser, now = Date.now()): Promise<GeneratedCode> {
  const row = await repo.findAccountTotp(ctx.db, user.id);
  if (!row) throw new AppError('not_found', 'Account TOTP is not set up yet.');
  const secret = ctx.secrets.decrypt(row.secretEnc, secretContext(user.id));
  const params = { type: 'totp' as const, secret, algorithm: row.algorithm, digits: row.digits, period: row.period, counter: null };
  return {
    code: generateCode(params, now),
    expiresAt: codeExpiresAt(row.period, now).toISOString(),
    timeRemaining: secondsRemaining(row.period, now),
    period: row.period,
  };
}
