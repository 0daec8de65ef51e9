import { createHash } from 'node:crypto';
import { LOW_BALANCE_THRESHOLD_PAISE, PAISE_PER_VERIFICATION, getTopUpPack, paiseToDecimalString, verificationsForPaise } from '@common/pricing';
import type { AppContext } from '../../context';
import { CHECKPOINT_BACKSTOP_PAGES, SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES } from '../../db/sqlite-checkpointer';
import { queueBalanceMail } from '../mail/business-mail';
import { AppError } from '../../lib/errors';
import { newId, newTimeOrderedId } from '../../lib/ids';
import { resolveEncryptionKey } from '../../lib/keys';
import type { Business } from '../business/repo';
import { startRefillOnCrossing } from '../autorefill/service';
import { enqueueEvent } from '../webhooks/events';
import { DEFAULT_WINDOW, THROTTLE_FAILURES, THROTTLE_WINDOW_MS, decideCode, decideStateless, encryptionContext, notEnrolled, throttleRefusal, type Refusal } from './decide';
import { GroupCommit } from './group-commit';
import * as repo from './repo';
import type { LiveGroupWriter, WriterCheck } from './live-group';
import { PgLiveGroupWriter } from './pg-group-write';
import type pg from 'pg';
import { createLiveGroupWrite } from './sqlite-group-write';
import { SqliteGroupWriter, SqliteLoopWriter, WriterLost } from './sqlite-writer';
import {
  BACKUP_CODE_COUNT,
  DEFAULT_TOTP,
  hashBackupCode,
  manualEntry,
  newBackupCodes,
  newSecret,
  otpauthUri,
  qrCodeDataUri,
  type Algorithm,
} from './totp';

export { encryptionContext, THROTTLE_FAILURES, THROTTLE_WINDOW_MS } from './decide';

export interface GenerateInput {
  user_id: string;
  purpose?: string | undefined;
  label?: string | undefined;
  issuer?: string | undefined;
  algorithm?: Algorithm | undefined;
  digits?: number | undefined;
  period?: number | undefined;
  rotate?: boolean | undefined;
}

export type VerifyInput =
  | { user_id: string; totp_code: string; backup_code?: undefined; purpose?: string | undefined; window?: number | undefined }
  | { user_id: string; backup_code: string; totp_code?: undefined; purpose?: string | undefined; window?: undefined }
  | { secret: string; token: string; window?: number | undefined; purpose?: string | undefined };

export interface ApiResult {
  statusCode: number;
  body: Record<string, unknown>;
  replayed?: boolean;
}

/** What a check costs in this mode: test mode is free. */
function priceOf(livemode: boolean): number {
  return livemode ? PAISE_PER_VERIFICATION : 0;
}

function backupCodeKey(ctx: AppContext): Buffer {
  return ctx.secrets.deriveKey('backup-codes');
}

/** The key's view of its account; a test key sees the live balance but its own (test) limit. */
export function profile(business: Business, livemode: boolean, testRateLimitPerMinute: number) {
  return {
    business_id: business.id,
    company_name: business.companyName,
    balance: paiseToDecimalString(business.balancePaise),
    currency: 'INR',
    verifications_left: verificationsForPaise(business.balancePaise),
    rate_limit: { requests_per_minute: livemode ? business.rateLimitPerMinute : testRateLimitPerMinute },
    livemode,
  };
}

// --- idempotency ----------------------------------------------------------------------------

function requestHash(endpoint: string, body: unknown): string {
  return createHash('sha256').update(endpoint).update('\0').update(JSON.stringify(body)).digest('hex');
}

/** Binds a stored answer to its (business, mode, key): a body copied into another row does not decrypt. */
export function idempotencyContext(businessId: string, key: string, livemode = true): string {
  return livemode ? `idempotency_record:${businessId}:${key}` : `idempotency_record:${businessId}:test:${key}`;
}

/**
 * Stored answers are encrypted, every one (not only generate's, whose body holds the new
 * secret, otpauth URI, QR code and backup codes), so no route can forget to.
 */
export function sealAnswer(ctx: AppContext, businessId: string, key: string, body: Record<string, unknown>, livemode = true): string {
  return ctx.secrets.encrypt(JSON.stringify(body), idempotencyContext(businessId, key, livemode));
}

/**
 * The JSON text of a stored answer. Rows written before answers were encrypted hold the JSON
 * itself; they still replay (a retry must not be charged twice, and an older instance may still be
 * writing them during a rolling deploy) and the upkeep deletes them within 24 h like any other.
 */
export function openAnswer(ctx: AppContext, businessId: string, key: string, stored: string, livemode = true): string {
  if (stored.startsWith('{')) return stored;
  return ctx.secrets.decrypt(stored, idempotencyContext(businessId, key, livemode));
}

/**
 * Runs `work` at most once per (business, Idempotency-Key): a retry with the same body gets
 * the stored answer (and is not charged again); the same key with another body is a conflict.
 * `work` receives a `remember` callback to store its answer inside its own transaction, so the
 * answer and the charge commit together.
 */
export async function withIdempotency(
  ctx: AppContext,
  business: Pick<Business, 'id'>,
  livemode: boolean,
  key: string | undefined,
  endpoint: string,
  body: unknown,
  work: (remember: ((trx: Parameters<typeof repo.insertIdempotencyRecord>[0], result: ApiResult) => Promise<void>) | null) => Promise<ApiResult>,
): Promise<ApiResult> {
  if (!key) return work(null);
  const hash = requestHash(endpoint, body);
  const replay = async (): Promise<ApiResult | undefined> => {
    const stored = await repo.findIdempotencyRecord(ctx.db, business.id, livemode, key);
    if (!stored) return undefined;
    if (stored.endpoint !== endpoint || stored.requestHash !== hash) {
      throw new AppError('conflict', 'This Idempotency-Key was already used with a different request.');
    }
    return { statusCode: stored.statusCode, body: JSON.parse(openAnswer(ctx, business.id, key, stored.responseBody, livemode)), replayed: true };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  try {
    return await work(async (trx, result) => {
      await repo.insertIdempotencyRecord(
        trx,
        business.id,
        livemode,
        key,
        { endpoint, requestHash: hash, statusCode: result.statusCode, responseBody: sealAnswer(ctx, business.id, key, result.body, livemode) },
        new Date(),
      );
    });
  } catch (err) {
    // A concurrent request with the same key committed first: our transaction rolled back
    // (no charge), so answer what the first one answered.
    const winner = await replay().catch(() => undefined);
    if (winner) return winner;
    throw err;
  }
}

// --- generate -------------------------------------------------------------------------------

export async function generate(
  ctx: AppContext,
  business: Business,
  livemode: boolean,
  input: GenerateInput,
  idempotencyKey: string | undefined,
): Promise<ApiResult> {
  return withIdempotency(ctx, business, livemode, idempotencyKey, 'generate', input, async (remember) => {
    const now = new Date();
    const params = {
      algorithm: input.algorithm ?? DEFAULT_TOTP.algorithm,
      digits: input.digits ?? DEFAULT_TOTP.digits,
      period: input.period ?? DEFAULT_TOTP.period,
    };
    const secret = newSecret(params.algorithm);
    const backupCodes = newBackupCodes(BACKUP_CODE_COUNT);
    const key = backupCodeKey(ctx);
    const issuer = input.issuer ?? business.companyName;
    const label = input.label ?? input.user_id;
    const uri = otpauthUri(secret, params, label, issuer);
    const body = {
      user_id: input.user_id,
      secret,
      otpauth_uri: uri,
      qr_code: await qrCodeDataUri(uri).catch((err: Error) => {
        // A QR code holds at most ~2.3 kB; long unicode labels or issuers percent-encode to more.
        if (!/too big/i.test(err.message)) throw err;
        throw new AppError('validation_failed', 'The label and issuer are too long to fit in a QR code. Send a shorter "label" or "issuer".');
      }),
      manual_entry: manualEntry(secret),
      algorithm: params.algorithm,
      digits: params.digits,
      period: params.period,
      backup_codes: backupCodes,
      livemode,
    };
    const result: ApiResult = { statusCode: 201, body };
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const existing = await repo.findEnrolment(trx, business.id, livemode, input.user_id);
        if (existing && !input.rotate) {
          throw new AppError('conflict', `User "${input.user_id}" is already enrolled. Send "rotate": true to replace the secret.`);
        }
        if (existing) await repo.deleteEnrolment(trx, business.id, livemode, input.user_id);
        await repo.insertEnrolment(
          trx,
          {
            id: newId('enr'),
            businessId: business.id,
            externalUserId: input.user_id,
            secretEnc: ctx.secrets.encrypt(secret, encryptionContext(business.id, input.user_id, livemode)),
            ...params,
            purpose: input.purpose ?? null,
            livemode,
          },
          backupCodes.map((code) => ({ id: newId('bkc'), hash: hashBackupCode(code, key) })),
          now,
        );
        await remember?.(trx, result);
      });
    } catch (err) {
      if (err instanceof AppError) throw err;
      // Two enrolments of one user racing: the unique index lets one win.
      if (!input.rotate && (await repo.findEnrolment(ctx.db, business.id, livemode, input.user_id))) {
        throw new AppError('conflict', `User "${input.user_id}" is already enrolled. Send "rotate": true to replace the secret.`);
      }
      throw err;
    }
    return result;
  });
}

export async function deleteUser(ctx: AppContext, business: Business, livemode: boolean, externalUserId: string): Promise<void> {
  const deleted = await repo.deleteEnrolment(ctx.db, business.id, livemode, externalUserId);
  if (!deleted) throw new AppError('not_found', `No enrolled user "${externalUserId}".`);
}

// --- lookups ------------------------------------------------------------------------------

function verificationObject(v: repo.Verification) {
  return {
    verification_id: v.id,
    user_id: v.externalUserId,
    mode: v.mode,
    method: v.method,
    status: v.status,
    verified: v.status === 'verified',
    purpose: v.purpose,
    cost: paiseToDecimalString(v.costPaise),
    created_at: v.createdAt.toISOString(),
    livemode: v.livemode,
  };
}

function userObject(u: repo.EnrolledUser, livemode: boolean) {
  return {
    user_id: u.externalUserId,
    enrolled_at: u.createdAt.toISOString(),
    algorithm: u.algorithm,
    digits: u.digits,
    period: u.period,
    purpose: u.purpose,
    last_verified_at: u.lastVerifiedAt?.toISOString() ?? null,
    backup_codes_left: u.backupCodesLeft,
    livemode,
  };
}

/** One of the business's checks; another business's id is answered as missing. */
export async function getVerification(ctx: AppContext, business: Business, livemode: boolean, id: string) {
  const found = await repo.findVerification(ctx.db, business.id, livemode, id);
  if (!found) throw new AppError('not_found', `No verification "${id}".`);
  return verificationObject(found);
}

export interface ListVerificationsInput {
  user_id?: string;
  status?: repo.VerificationStatusFilter;
  created_after?: string;
  created_before?: string;
  limit: number;
  starting_after?: string;
}

export async function listVerifications(ctx: AppContext, business: Business, livemode: boolean, input: ListVerificationsInput) {
  const after = input.starting_after === undefined ? undefined : await repo.findVerification(ctx.db, business.id, livemode, input.starting_after);
  if (input.starting_after !== undefined && !after) throw new AppError('not_found', `No verification "${input.starting_after}" to start after.`);
  const page = await repo.listVerifications(
    ctx.db,
    business.id,
    livemode,
    {
      externalUserId: input.user_id,
      status: input.status,
      createdAfter: input.created_after === undefined ? undefined : new Date(input.created_after),
      createdBefore: input.created_before === undefined ? undefined : new Date(input.created_before),
    },
    input.limit,
    after,
  );
  return { data: page.rows.map(verificationObject), has_more: page.hasMore };
}

/** One enrolled user (never the secret); another business's user is answered as missing. */
export async function getUser(ctx: AppContext, business: Business, livemode: boolean, externalUserId: string) {
  const found = await repo.findEnrolledUser(ctx.db, business.id, livemode, externalUserId);
  if (!found) throw new AppError('not_found', `No enrolled user "${externalUserId}".`);
  return userObject(found, livemode);
}

export async function listUsers(ctx: AppContext, business: Business, livemode: boolean, input: { limit: number; starting_after?: string }) {
  const after = input.starting_after === undefined ? undefined : await repo.findEnrolledUser(ctx.db, business.id, livemode, input.starting_after);
  if (input.starting_after !== undefined && !after) throw new AppError('not_found', `No enrolled user "${input.starting_after}" to start after.`);
  const page = await repo.listEnrolledUsers(ctx.db, business.id, livemode, input.limit, after);
  return { data: page.rows.map((u) => userObject(u, livemode)), has_more: page.hasMore };
}

// --- verify ---------------------------------------------------------------------------------

function insufficientCredits(): AppError {
  return new AppError('insufficient_credits', 'Your balance cannot pay for a verification (₹0.10). Add credits to continue.');
}

/** The check's own webhook event, written in its transaction (outbox). */
async function emitVerificationEvent(
  trx: Parameters<typeof enqueueEvent>[0],
  businessId: string,
  v: { id: string; externalUserId: string | null; purpose: string | null; status: repo.Verification['status']; responseTimeMs: number; costPaise: number; livemode: boolean },
  now: Date,
): Promise<void> {
  await enqueueEvent(
    trx,
    businessId,
    v.status === 'verified' ? 'verification.success' : 'verification.failed',
    {
      verification_id: v.id,
      user_id: v.externalUserId,
      purpose: v.purpose,
      status: v.status,
      cost: paiseToDecimalString(v.costPaise),
      response_time_ms: v.responseTimeMs,
    },
    now,
    { verificationId: v.id, livemode: v.livemode },
  );
}

/**
 * credit.low / credit.depleted when this debit is the one that crossed the line: the webhook event
 * (when the business has endpoints) and the owner's e-mail, both in the check's transaction. Costs
 * nothing but arithmetic on every other check.
 */
async function emitCreditEvents(trx: Parameters<typeof enqueueEvent>[0], businessId: string, paid: repo.Debited, balanceAfter: number, now: Date): Promise<void> {
  const refill = paid.autoRefill;
  const before = balanceAfter + PAISE_PER_VERIFICATION;
  // With auto-refill on, its threshold is when the business wants the reminder.
  const lowLine = refill.enabled && refill.thresholdPaise !== null ? refill.thresholdPaise : LOW_BALANCE_THRESHOLD_PAISE;
  const credit = {
    balance: paiseToDecimalString(balanceAfter),
    verifications_left: verificationsForPaise(balanceAfter),
    threshold: paiseToDecimalString(lowLine),
  };
  if (before >= lowLine && balanceAfter < lowLine) {
    const pack = refill.packId ? getTopUpPack(refill.packId) : undefined;
    if (paid.hasWebhooks) {
      await enqueueEvent(trx, businessId, 'credit.low', {
        ...credit,
        auto_refill: { enabled: refill.enabled, pack_id: pack?.id ?? null, pack_amount: pack ? paiseToDecimalString(pack.amountPaise) : null },
      }, now);
    }
    // With auto-refill on, this crossing starts a refill, and its own mail (charged, or please pay) says so.
    if (!refill.enabled) await queueBalanceMail(trx, businessId, 'balance_low', { balancePaise: balanceAfter, thresholdPaise: lowLine }, now);
  }
  if (before >= PAISE_PER_VERIFICATION && balanceAfter < PAISE_PER_VERIFICATION) {
    if (paid.hasWebhooks) await enqueueEvent(trx, businessId, 'credit.depleted', credit, now);
    await queueBalanceMail(trx, businessId, 'balance_depleted', {}, now);
  }
}

interface PendingCheck {
  business: Business;
  /** false: a test key's check (free, test enrolments and endpoints only) */
  livemode: boolean;
  input: VerifyInput;
  requestId: string;
  startedAt: number;
}

/**
 * Checks with a user_id + TOTP code or a stateless secret + token are written in groups (see
 * group-commit.ts); those with an Idempotency-Key or a backup code each take their own
 * transaction. Either way the answer leaves only after the check is recorded and charged.
 */
export async function verify(
  ctx: AppContext,
  business: Business,
  livemode: boolean,
  input: VerifyInput,
  requestId: string,
  idempotencyKey: string | undefined,
  startedAt: number,
): Promise<ApiResult> {
  const pending: PendingCheck = { business, livemode, input, requestId, startedAt };
  if (idempotencyKey || ('backup_code' in input && input.backup_code !== undefined)) {
    return withIdempotency(ctx, business, livemode, idempotencyKey, 'verify', input, (remember) => verifyOne(ctx, pending, remember));
  }
  // Live and test checks queue apart: a test check in a group would send it the careful way.
  return groupsOf(ctx).submit(livemode ? 'live' : 'test', pending);
}

const groups = new WeakMap<AppContext, GroupCommit<PendingCheck, ApiResult>>();
function groupsOf(ctx: AppContext): GroupCommit<PendingCheck, ApiResult> {
  let g = groups.get(ctx);
  if (!g) {
    g = new GroupCommit((_, items) => writeGroup(ctx, items), {
      // As many groups in flight as the live writer takes (`inFlight`: one on SQLite's event loop,
      // whose group write is one synchronous call). On PostgreSQL two groups overlap: one reads while
      // the other writes. The writes queue on the balance row (from the debit to the end
      // of the commit's flush), so more groups in flight only make each smaller: measured on one
      // business, 2 in flight gave 6,586 checks/s closed-loop (4: 5,695; 1: 5,672) and kept up
      // with 3,000/s open-loop on 16 connections (1 and 4 did not). SQLite's writer thread takes
      // its groups in turn, but a second one in flight is formed and sent while the first is
      // written; with one, thread and event loop waited for each other (wall time per check
      // 91 µs against 58 µs with two, in bench/verify-path.ts). With two, a group the thread
      // refused is written the careful way after the next one: one user's double submit may then
      // answer the second request 'verified' and the first 'replayed' (still one per step).
      maxInFlight: liveWriterOf(ctx)?.inFlight ?? 2,
      // PostgreSQL's second group waits until it is worth its round trips (pg-group-write.ts).
      minToOverlap: liveWriterOf(ctx)?.minToOverlap,
      maxGroup: 256,
      distinctKey: (p) => ('user_id' in p.input ? repo.userKey(p.business.id, p.livemode, p.input.user_id) : null),
    });
    groups.set(ctx, g);
  }
  return g;
}

async function writeGroup(ctx: AppContext, items: PendingCheck[]): Promise<Array<ApiResult | Error>> {
  const results: Array<ApiResult | Error> = new Array(items.length);
  let group = items.map((item, index) => ({ item, index }));
  const alone: typeof group = [];
  const careful = carefulUntil(ctx);
  // The fast way: the live group writer (PostgreSQL's two messages, or SQLite's one-call group
  // write on the event loop or its thread). It refuses a group that needs the careful way
  // (nothing kept), which then takes it.
  const writer = liveWriterOf(ctx);
  let fastWay = writer !== null;
  while (group.length > 0) {
    try {
      const now = new Date();
      const fast = fastWay && group.every((g) => g.item.livemode && (careful.get(g.item.business.id) ?? 0) < now.getTime());
      const outcomes =
        fast && writer
          ? await writeInOneCall(writer, group.map((g) => g.item))
          : await repo.inCheckTransaction(ctx.database, (tx) => recordGroup(ctx, tx, group.map((g) => g.item), now));
      if (outcomes === null) {
        // The group write rolled back on an error of its own: the careful way.
        fastWay = false;
        continue;
      }
      group.forEach((g, k) => (results[g.index] = outcomes[k]!));
      break;
    } catch (err) {
      if (err instanceof repo.GroupRefused) {
        // Nothing was kept: the same group again, the careful way, and the business that made it
        // refuse (every one of the group's, when the database did not say) the careful way for a
        // while: one with webhook endpoints, or one near a line, would be refused again.
        const ids = err.businessId ? [err.businessId] : [...new Set(group.map((g) => g.item.business.id))];
        for (const id of ids) markCareful(ctx, id, CAREFUL_FOR_MS);
        fastWay = false;
        continue;
      }
      if (err instanceof repo.GroupCommitted) {
        // Recorded and charged: writing it again would charge twice. Each check answers the error
        // (a 500, logged with its cause by the error handler).
        for (const g of group) results[g.index] = err;
        break;
      }
      if (err instanceof repo.GroupOutcomeUnknown) {
        // The connection died with the write in flight. Written again only if it was not kept.
        const kept = await repo.recordedVerificationIds(ctx.db, err.verificationIds).catch(() => null);
        if (kept !== null && kept.length === 0) {
          fastWay = false;
          continue;
        }
        for (const g of group) results[g.index] = err;
        break;
      }
      // Nothing of the group was kept. The checks of a business that cannot pay for all of its
      // share run one by one (each with its own debit, 402 when the money runs out); the rest
      // try again together. Any other failure: every check on its own.
      const unpaid = err instanceof GroupUnpaid ? err.businessIds : null;
      const isUnpaid = (g: (typeof group)[number]) => !unpaid || (g.item.livemode && unpaid.has(g.item.business.id));
      alone.push(...group.filter(isUnpaid));
      group = unpaid ? group.filter((g) => !isUnpaid(g)) : [];
    }
  }
  for (const g of alone) results[g.index] = await verifyOne(ctx, g.item, null).catch((err: Error) => err);
  return results;
}

const liveWriters = new WeakMap<AppContext, LiveGroupWriter | null>();
/**
 * Who writes this context's live groups in one go: on PostgreSQL, PgLiveGroupWriter; on SQLite,
 * the writer thread when configured (SQLITE_WRITER=thread, on a file; started with its first
 * group), else the event loop on its own connection.
 */
export function liveWriterOf(ctx: AppContext): LiveGroupWriter | null {
  let writer = liveWriters.get(ctx);
  if (writer === undefined) {
    writer = ctx.database.openPipelinedPool ? pgWriterOf(ctx, ctx.database.openPipelinedPool(PgLiveGroupWriter.connections)) : sqliteWriterOf(ctx);
    liveWriters.set(ctx, writer);
  }
  return writer;
}

function pgWriterOf(ctx: AppContext, pool: pg.Pool): LiveGroupWriter {
  const writer = new PgLiveGroupWriter(pool, ctx.secrets);
  // Its kept connections go back to the pool as the pool ends (the pool waits for them).
  ctx.database.onClose(async () => writer.close());
  return writer;
}

function sqliteWriterOf(ctx: AppContext): LiveGroupWriter | null {
  const database = ctx.config.database;
  const statements = ctx.database.sqlite;
  if (ctx.database.dialect !== 'sqlite' || database.kind !== 'sqlite' || !statements) return null;
  if (database.file !== ':memory:' && ctx.config.sqliteWriter === 'thread') {
    const thread = new SqliteGroupWriter({
      file: database.file,
      encryptionKey: resolveEncryptionKey(ctx.config),
      walAutocheckpointPages: database.checkpoints === 'thread' ? CHECKPOINT_BACKSTOP_PAGES : SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES,
    });
    ctx.database.onClose(() => thread.close());
    return thread;
  }
  // Held as Kysely holds it for any query: never inside another request's transaction.
  return new SqliteLoopWriter(createLiveGroupWrite(statements, ctx.secrets), (work) => ctx.db.connection().execute(async () => work()));
}

/**
 * A live group written by the live group writer. Returns each check's answer, or null when it
 * rolled back on an error; throws GroupRefused when the group needs the careful way,
 * GroupOutcomeUnknown when it may or may not have committed (SQLite's writer thread died with
 * it, PostgreSQL's connection failed with the write in flight), GroupCommitted when something
 * failed after its commit.
 */
async function writeInOneCall(writer: LiveGroupWriter, items: PendingCheck[]): Promise<Array<ApiResult | Error> | null> {
  const checks = items.map((p): WriterCheck => {
    const input = p.input;
    const stateless = 'secret' in input;
    return {
      id: newTimeOrderedId('ver'),
      businessId: p.business.id,
      userId: stateless ? null : input.user_id,
      code: stateless ? input.token : input.totp_code!,
      secret: stateless ? input.secret : null,
      window: input.window ?? DEFAULT_WINDOW,
      purpose: input.purpose ?? null,
      elapsedMs: performance.now() - p.startedAt,
    };
  });
  let reply;
  try {
    reply = await writer.write(checks);
  } catch (err) {
    if (err instanceof WriterLost) throw new repo.GroupOutcomeUnknown(checks.map((c) => c.id), err);
    throw err;
  }
  if (reply.kind === 'refused') throw new repo.GroupRefused(reply.reason, reply.businessId);
  if (reply.kind === 'failed') return null;
  const at = new Date(reply.now).toISOString();
  return reply.outcomes.map((outcome, k) =>
    'refusal' in outcome
      ? refusalError(outcome.refusal)
      : { statusCode: 200, body: answerBody(checks[k]!.id, outcome.status, items[k]!.requestId, at, outcome.balancePaise, true) },
  );
}

/** How long a business whose group the one-message write refused is written the careful way. */
const CAREFUL_FOR_MS = 2_000;
const CAREFUL_WITH_WEBHOOKS_MS = 30_000;
/** Per context, business id → until when (ms) its groups go the careful way. */
const carefulBusinesses = new WeakMap<AppContext, Map<string, number>>();
function carefulUntil(ctx: AppContext): Map<string, number> {
  let m = carefulBusinesses.get(ctx);
  if (!m) carefulBusinesses.set(ctx, (m = new Map()));
  return m;
}
const prunedAtSize = new WeakMap<Map<string, number>, number>();
function markCareful(ctx: AppContext, businessId: string, forMs: number): void {
  const careful = carefulUntil(ctx);
  // Expired marks are only a hint: dropped once the map has doubled since the last pass (so a
  // pass is rare), before it can grow with the number of businesses.
  if (careful.size >= Math.max(1_000, 2 * (prunedAtSize.get(careful) ?? 0))) {
    const now = Date.now();
    for (const [id, until] of careful) if (until < now) careful.delete(id);
    prunedAtSize.set(careful, careful.size);
  }
  careful.set(businessId, Date.now() + forMs);
}

class GroupUnpaid extends Error {
  constructor(readonly businessIds: Set<string>) {
    super('a business cannot pay for its checks in this group');
  }
}

type Status = repo.Verification['status'];

/**
 * Records a group of checks (each business's user at most once) in the caller's transaction,
 * then takes one debit per business for all of its checks, or throws GroupUnpaid naming the
 * businesses whose balance cannot pay for every one (the caller rolls back). Refusals (404,
 * 429 throttled) are decided before anything is written, so they are free. Each statement
 * covers the whole group.
 */
async function recordGroup(ctx: AppContext, tx: repo.CheckTx, items: PendingCheck[], now: Date): Promise<Array<ApiResult | Error>> {
  const outcomes: Array<ApiResult | Error> = new Array(items.length);
  const users = items.flatMap((p) => ('user_id' in p.input ? [{ businessId: p.business.id, livemode: p.livemode, externalUserId: p.input.user_id }] : []));
  const { enrolments, recent } = await repo.readGroup(tx, users, new Date(now.getTime() - THROTTLE_WINDOW_MS), THROTTLE_FAILURES);

  // What each check found, before any write.
  const decided: Array<{ index: number; status: Status; enrolment?: repo.Enrolment; step?: number }> = [];
  for (const [index, { input, business, livemode }] of items.entries()) {
    const window = ('window' in input && input.window !== undefined ? input.window : DEFAULT_WINDOW) as number;
    if ('secret' in input) {
      decided.push({ index, ...decideStateless(input.secret, input.token, window, now.getTime()) });
      continue;
    }
    const key = repo.userKey(business.id, livemode, input.user_id);
    const enrolment = enrolments.get(key);
    if (!enrolment) {
      outcomes[index] = refusalError(notEnrolled(input.user_id));
      continue;
    }
    const throttled = throttleRefusal(recent.get(key) ?? [], now);
    if (throttled) {
      outcomes[index] = refusalError(throttled);
      continue;
    }
    if (input.backup_code !== undefined) {
      const used = await repo.consumeBackupCode(tx.kysely, enrolment.id, hashBackupCode(input.backup_code, backupCodeKey(ctx)), now);
      decided.push({ index, status: used ? 'verified' : 'invalid_code', enrolment });
      continue;
    }
    const secret = ctx.secrets.decrypt(enrolment.secretEnc, encryptionContext(business.id, input.user_id, livemode));
    decided.push({ index, enrolment, ...decideCode(secret, input.totp_code, enrolment, window, now.getTime()) });
  }
  if (decided.length === 0) return outcomes;

  // RFC 6238 §5.2: a matching code counts only if its step is later than the last accepted one;
  // a match whose step did not advance is recorded (and answered) as 'replayed'.
  const drafts = decided.map((d) => {
    const item = items[d.index]!;
    const backup = 'backup_code' in item.input && item.input.backup_code !== undefined;
    return {
      id: newTimeOrderedId('ver'),
      businessId: item.business.id,
      externalUserId: d.enrolment?.externalUserId ?? null,
      mode: d.enrolment ? 'managed' : 'stateless',
      method: backup ? 'backup' : 'totp',
      purpose: item.input.purpose ?? null,
      status: d.status,
      costPaise: priceOf(item.livemode),
      responseTimeMs: Math.round((performance.now() - item.startedAt) * 100) / 100,
      createdAt: now,
      livemode: item.livemode,
      replayUnlessAdvanced: d.step !== undefined ? { enrolmentId: d.enrolment!.id, rowId: d.enrolment!.rowId, step: d.step } : null,
    } satisfies repo.Verification & { replayUnlessAdvanced: unknown };
  });
  // Test checks cost nothing: they add to no business's amount and take no balance row lock.
  const amounts = new Map<string, number>();
  for (const v of drafts) if (v.livemode) amounts.set(v.businessId, (amounts.get(v.businessId) ?? 0) + PAISE_PER_VERIFICATION);
  // The guard, the records and the debits (last but for the outbox rows: on PostgreSQL the
  // balance rows are locked only from here to the commit) in one go.
  const { advanced, debited } = await repo.recordChecks(tx, drafts, amounts, now);
  const testBusinesses = [...new Set(drafts.filter((v) => !v.livemode).map((v) => v.businessId))];
  const testState = testBusinesses.length > 0 ? await repo.testModeState(tx, testBusinesses) : new Map<string, { balancePaise: number; hasWebhooks: boolean }>();
  const verifications = drafts.map((v): repo.Verification => ({
    id: v.id,
    businessId: v.businessId,
    externalUserId: v.externalUserId,
    mode: v.mode,
    method: v.method,
    purpose: v.purpose,
    status: v.replayUnlessAdvanced && !advanced.has(v.replayUnlessAdvanced.enrolmentId) ? 'replayed' : v.status,
    costPaise: v.costPaise,
    responseTimeMs: v.responseTimeMs,
    createdAt: v.createdAt,
    livemode: v.livemode,
  }));
  // A business with live endpoints is refused by the one-message write (its events are written
  // here, after the debit): written the careful way from the start for a while.
  for (const [id, paid] of debited) if (paid.hasWebhooks) markCareful(ctx, id, CAREFUL_WITH_WEBHOOKS_MS);
  const unpaid = new Set([...amounts.keys()].filter((id) => !debited.has(id)));
  if (unpaid.size > 0) throw new GroupUnpaid(unpaid);
  // The debit that crosses the auto-refill threshold records one "refill due" row in this
  // transaction; the auto-refill worker acts on it after the commit (never a call from here).
  for (const [id, paid] of debited) await startRefillOnCrossing(tx.kysely, id, paid.autoRefill, paid.balancePaise + amounts.get(id)!, paid.balancePaise, now);
  // Each answer carries the balance right after its own charge.
  const balances = new Map([...debited].map(([id, d]) => [id, d.balancePaise + amounts.get(id)!]));
  const at = now.toISOString();
  for (const [k, v] of verifications.entries()) {
    let balance: number;
    if (v.livemode) {
      balance = balances.get(v.businessId)! - PAISE_PER_VERIFICATION;
      balances.set(v.businessId, balance);
      const paid = debited.get(v.businessId)!;
      if (paid.hasWebhooks) await emitVerificationEvent(tx.kysely, v.businessId, v, now);
      await emitCreditEvents(tx.kysely, v.businessId, paid, balance, now);
    } else {
      // Free: the balance is untouched, and no credit event can follow.
      const state = testState.get(v.businessId)!;
      balance = state.balancePaise;
      if (state.hasWebhooks) await emitVerificationEvent(tx.kysely, v.businessId, v, now);
    }
    const d = decided[k]!;
    outcomes[d.index] = {
      statusCode: 200,
      body: {
        ...answerBody(v.id, v.status, items[d.index]!.requestId, at, balance, v.livemode),
        ...(v.method === 'backup' && v.status === 'verified' ? { backup_codes_left: await repo.countUnusedBackupCodes(tx.kysely, d.enrolment!.id) } : {}),
      },
    };
  }
  return outcomes;
}

/** What a check costs, as the answer writes it: the same for every check of a mode. */
const COST_TEXT = { live: paiseToDecimalString(priceOf(true)), test: paiseToDecimalString(priceOf(false)) };

/** A check's answer; `at` is its group's time (ISO 8601), made once per group. */
function answerBody(verificationId: string, status: Status, requestId: string, at: string, balancePaise: number, livemode: boolean) {
  return {
    verified: status === 'verified',
    status,
    verification_id: verificationId,
    request_id: requestId,
    timestamp: at,
    cost: livemode ? COST_TEXT.live : COST_TEXT.test,
    balance: paiseToDecimalString(balancePaise),
    livemode,
  };
}

/** A refusal decided before any write, as the error the API answers. */
function refusalError(refusal: Refusal): AppError {
  return new AppError(refusal.code, refusal.message, refusal.retryAfter === undefined ? undefined : { 'retry-after': String(refusal.retryAfter) });
}

/** One check in its own transaction with its own debit (Idempotency-Key, backup codes, fallback). */
async function verifyOne(
  ctx: AppContext,
  pending: PendingCheck,
  remember: ((trx: Parameters<typeof repo.insertIdempotencyRecord>[0], result: ApiResult) => Promise<void>) | null,
): Promise<ApiResult> {
  return ctx.db.transaction().execute(async (trx) => {
    const [outcome] = await recordGroup(ctx, { run: trx, kysely: trx, dialect: ctx.database.dialect }, [pending], new Date()).catch((err: unknown) => {
      // No credit: the throw undoes the whole check.
      throw err instanceof GroupUnpaid ? insufficientCredits() : err;
    });
    if (outcome instanceof Error) throw outcome;
    await remember?.(trx, outcome!);
    return outcome!;
  });
}
