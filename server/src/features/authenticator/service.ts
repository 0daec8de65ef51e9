import type { AuthenticatorAccount, GeneratedAccountCode, ImportOutcome, ScanResult } from '@common/contract/authenticator';
import { createHmac } from 'node:crypto';
import {
  INVALID_QR_MESSAGE,
  OtpauthError,
  accountKey,
  accountLabel,
  codeExpiresAt,
  generateCode,
  parseOtpauthUri,
  parseUriList,
  secondsRemaining,
  validateAccount,
  type AccountInput,
  type OtpAccount,
  type SkippedEntry,
} from '@common/otpauth';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import type { CurrentUser } from '../auth/service';
import { readQrCodes } from './qr-image';
import * as repo from './repo';

/** How many third-party accounts one person may keep. */
export const MAX_ACCOUNTS_PER_USER = 500;

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

function validate(input: AccountInput): OtpAccount {
  try {
    return validateAccount(input);
  } catch (err) {
    if (err instanceof OtpauthError) throw new AppError('validation_failed', err.message);
    throw err;
  }
}

function newRow(ctx: AppContext, userId: string, account: OtpAccount): repo.NewAuthenticatorAccount {
  const id = newId('tac');
  return {
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
  };
}

export async function listAccounts(ctx: AppContext, user: CurrentUser): Promise<AuthenticatorAccount[]> {
  return (await repo.listAccounts(ctx.db, user.id)).map((row) => toAccount(ctx, row));
}

/**
 * The list is in the order accounts were added: each new one is stamped at least 1 ms after the
 * newest, even when several arrive within one millisecond (an import, a quick second add).
 */
async function nextCreatedAt(ctx: AppContext, userId: string, now: Date): Promise<Date> {
  const latest = await repo.latestCreatedAt(ctx.db, userId);
  return latest && latest.getTime() >= now.getTime() ? new Date(latest.getTime() + 1) : now;
}

const LIMIT_MESSAGE = `You can keep at most ${MAX_ACCOUNTS_PER_USER} accounts. Delete some before adding more.`;

export async function addAccount(ctx: AppContext, user: CurrentUser, input: AccountInput, now = new Date()): Promise<AuthenticatorAccount> {
  const account = validate(input);
  if ((await repo.countAccounts(ctx.db, user.id)) >= MAX_ACCOUNTS_PER_USER) throw new AppError('conflict', LIMIT_MESSAGE);
  const row = newRow(ctx, user.id, account);
  const createdAt = await nextCreatedAt(ctx, user.id, now);
  if (!(await repo.insertAccount(ctx.db, row, createdAt))) {
    throw new AppError('conflict', `${accountLabel(account)} is already in your authenticator.`);
  }
  return { ...account, id: row.id, createdAt: createdAt.toISOString() };
}

/**
 * Adds many accounts at once (the importers' preview, confirmed). Each entry is checked by the
 * same rules as one added by hand; repeats (issuer + name + secret) of stored accounts or of
 * earlier entries, invalid entries and those past the limit are skipped with a reason.
 */
export async function importAccounts(ctx: AppContext, user: CurrentUser, inputs: AccountInput[], now = new Date()): Promise<ImportOutcome> {
  const skipped: SkippedEntry[] = [];
  const rows: Array<{ row: repo.NewAuthenticatorAccount; account: OtpAccount }> = [];
  const seen = await repo.listFingerprints(ctx.db, user.id);
  let room = MAX_ACCOUNTS_PER_USER - seen.size;
  inputs.forEach((input, i) => {
    const named = accountLabel({ issuer: input.issuer, accountName: input.accountName });
    const label = named === '(unnamed)' ? `entry ${i + 1}` : named;
    let account: OtpAccount;
    try {
      account = validateAccount(input);
    } catch (err) {
      if (!(err instanceof OtpauthError)) throw err;
      skipped.push({ reason: err.message, label });
      return;
    }
    const row = newRow(ctx, user.id, account);
    if (seen.has(row.fingerprint)) {
      skipped.push({ reason: 'Already in your authenticator.', label });
      return;
    }
    if (room <= 0) {
      skipped.push({ reason: `The limit of ${MAX_ACCOUNTS_PER_USER} accounts is reached.`, label });
      return;
    }
    seen.add(row.fingerprint);
    room -= 1;
    rows.push({ row, account });
  });
  const added: AuthenticatorAccount[] = [];
  if (rows.length > 0) {
    const start = await nextCreatedAt(ctx, user.id, now);
    await ctx.db.transaction().execute(async (trx) => {
      for (const [i, { row, account }] of rows.entries()) {
        // One millisecond apart, so the list keeps the order of the file.
        const createdAt = new Date(start.getTime() + i);
        // A concurrent import may have added the same account a moment ago.
        if (await repo.insertAccount(trx, row, createdAt)) added.push({ ...account, id: row.id, createdAt: createdAt.toISOString() });
        else skipped.push({ reason: 'Already in your authenticator.', label: accountLabel(account) });
      }
      await insertAuditEntry(
        trx,
        { actorUserId: user.id, actorLabel: user.email, action: 'authenticator.imported', subjectType: 'user', subjectId: user.id, details: { added: added.length, skipped: skipped.length } },
        now,
      );
    });
  }
  return { added, skipped };
}

export async function deleteAccount(ctx: AppContext, user: CurrentUser, id: string): Promise<void> {
  if (!(await repo.deleteAccount(ctx.db, user.id, id))) throw new AppError('not_found', 'No such account in your authenticator.');
}

/**
 * Kept for API compatibility (SPEC.md §7); the page computes codes itself (DESIGN.md §9).
 * An HOTP code moves the stored counter on, so each call answers a new code.
 */
export async function generateAccountCode(ctx: AppContext, user: CurrentUser, id: string, now = Date.now()): Promise<GeneratedAccountCode> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await repo.findAccount(ctx.db, user.id, id);
    if (!row) throw new AppError('not_found', 'No such account in your authenticator.');
    const account = toAccount(ctx, row);
    if (account.type === 'totp') {
      return {
        code: generateCode(account, now),
        timeRemaining: secondsRemaining(account.period, now),
        expiresAt: codeExpiresAt(account.period, now).toISOString(),
        counter: null,
      };
    }
    const counter = account.counter ?? 0;
    if (await repo.advanceCounter(ctx.db, user.id, id, counter, new Date(now))) {
      return { code: generateCode(account), timeRemaining: null, expiresAt: null, counter: counter + 1 };
    }
  }
  throw new AppError('conflict', 'The counter of this account changed meanwhile. Try again.');
}

/** Reads the QR code(s) of an uploaded image; nothing is stored. */
export async function scanQr(image: Uint8Array): Promise<ScanResult> {
  const texts = await readQrCodes(image);
  const migration = texts.filter((t) => /^otpauth-migration:/i.test(t.trim()));
  const links = texts.filter((t) => /^otpauth:/i.test(t.trim()));
  let accounts: OtpAccount[] = [];
  let skipped: SkippedEntry[] = [];
  if (links.length > 0) {
    for (const link of links) {
      try {
        accounts.push(parseOtpauthUri(link));
      } catch (err) {
        if (!(err instanceof OtpauthError)) throw err;
      }
    }
  } else if (migration.length > 0) {
    ({ accounts, skipped } = parseUriList(migration.join('\n')));
  }
  const first = accounts[0];
  if (!first) throw new AppError('unprocessable', INVALID_QR_MESSAGE);
  return { ...first, source: links.length > 0 ? 'otpauth' : 'migration', accounts, skipped };
}
