import { CompiledQuery, Kysely, PostgresDialect, sql, type Selectable, type Transaction } from 'kysely';
import type pg from 'pg';
import type { Db } from '../../db';
import { toBoolean, toDate, toDateOrNull, toNumber } from '../../db/normalize';
import { preparedQuery, type QueryTarget } from '../../db/prepared';
import type { Database, EnrolmentTable, VerificationStatus, VerificationTable } from '../../db/types';
import type { ReplayGuard } from './decide';
import { userKey } from './live-group';
import { SQLITE_ADVANCE_STEP, sqliteAdvanceStepRow, SQLITE_ENROLMENTS, SQLITE_INSERT_VERIFICATION, SQLITE_RECENT_CHECKS, sqliteVerificationRow } from './sqlite-group-sql';

/** Re-exported: the careful way and the service key a group's users the way the writers do. */
export { userKey };

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The transaction a check (or a group of checks) is recorded in: `run` for the prepared hot-path
 * statements (synchronous on SQLite), `kysely` for everything else, both on the same transaction.
 */
export interface CheckTx {
  run: QueryTarget;
  kysely: Executor;
  dialect: Db['dialect'];
  /** PostgreSQL group transaction: BEGIN is not sent yet, so the group's reads can carry it. */
  pinned?: PinnedConnection;
}

/**
 * A pooled PostgreSQL connection held for one group's transaction. BEGIN goes out with the first
 * statement: with the group's two reads in one simple-protocol message (readGroup), or alone
 * just before any other statement, so nothing ever runs outside the transaction.
 */
interface PinnedConnection {
  client: pg.PoolClient;
  begun: boolean;
  kysely: Kysely<Database>;
}

const pinnedConnections = new WeakMap<pg.PoolClient, PinnedConnection>();

function pin(client: pg.PoolClient): PinnedConnection {
  let pinned = pinnedConnections.get(client);
  if (!pinned) {
    const state = { client, begun: false } as PinnedConnection;
    // Kysely over this one connection: every statement first makes sure the transaction has
    // begun; releasing is left to inCheckTransaction.
    const onTransaction = {
      async query(...args: Parameters<pg.PoolClient['query']>) {
        if (!state.begun) {
          state.begun = true;
          await client.query('BEGIN');
        }
        return (client.query as (...a: unknown[]) => unknown)(...args);
      },
      release() {},
    };
    state.kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: { connect: async () => onTransaction as never, end: async () => {} } }),
    });
    pinnedConnections.set(client, (pinned = state));
  }
  pinned.begun = false;
  return pinned;
}

/**
 * One transaction for a group of checks. On SQLite the connection is held for the whole of it
 * (no other transaction can interleave) and the prepared statements run synchronously on it. On
 * PostgreSQL a pooled connection is held and BEGIN rides with the group's reads (readGroup):
 * begin + reads, write, commit — 3 round trips instead of 5.
 */
export async function inCheckTransaction<T>(database: Db, work: (tx: CheckTx) => Promise<T>): Promise<T> {
  const statements = database.sqlite;
  if (!statements) {
    if (!database.pgPool) return database.db.transaction().execute((trx) => work({ run: trx, kysely: trx, dialect: database.dialect }));
    const client = await database.pgPool.connect();
    const pinned = pin(client);
    let broken: Error | undefined;
    try {
      const result = await work({ run: pinned.kysely, kysely: pinned.kysely, dialect: 'postgres', pinned });
      if (pinned.begun) await client.query('COMMIT');
      return result;
    } catch (err) {
      // A failed COMMIT has already ended the transaction; ROLLBACK then only warns.
      if (pinned.begun) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    } finally {
      client.release(broken);
    }
  }
  return database.db.connection().execute(async (conn) => {
    statements.prepare('BEGIN IMMEDIATE').run();
    try {
      const result = await work({ run: { kysely: conn, statements }, kysely: conn, dialect: 'sqlite' });
      statements.prepare('COMMIT').run();
      return result;
    } catch (err) {
      if (statements.inTransaction) statements.prepare('ROLLBACK').run();
      throw err;
    }
  });
}

export interface Enrolment {
  id: string;
  businessId: string;
  externalUserId: string;
  secretEnc: string;
  algorithm: EnrolmentTable['algorithm'];
  digits: number;
  period: number;
  lastUsedStep: number | null;
  purpose: string | null;
  /** false: enrolled with a test key, seen only by test keys */
  livemode: boolean;
  /** SQLite's rowid when the group's read returned it: the replay guard finds the row by it */
  rowId?: number | null;
}

type EnrolmentRow = Pick<
  Selectable<EnrolmentTable>,
  'id' | 'business_id' | 'external_user_id' | 'secret_enc' | 'algorithm' | 'digits' | 'period' | 'last_used_step' | 'purpose' | 'livemode'
> & { row_id?: number };


function toEnrolment(row: EnrolmentRow): Enrolment {
  return {
    id: row.id,
    businessId: row.business_id,
    externalUserId: row.external_user_id,
    secretEnc: row.secret_enc,
    algorithm: row.algorithm,
    digits: toNumber(row.digits),
    period: toNumber(row.period),
    lastUsedStep: row.last_used_step === null ? null : toNumber(row.last_used_step),
    purpose: row.purpose,
    livemode: toBoolean(row.livemode),
    rowId: row.row_id ?? null,
  };
}

const selectEnrolment = preparedQuery((db, businessId: string, livemode: boolean, externalUserId: string) =>
  db.selectFrom('enrolment').selectAll().where('business_id', '=', businessId).where('livemode', '=', livemode).where('external_user_id', '=', externalUserId),
);

export async function findEnrolment(db: QueryTarget, businessId: string, livemode: boolean, externalUserId: string): Promise<Enrolment | undefined> {
  const [row] = (await selectEnrolment(db, businessId, livemode, externalUserId)).rows;
  return row && toEnrolment(row);
}

export async function insertEnrolment(
  db: Executor,
  e: Omit<Enrolment, 'lastUsedStep'>,
  backupCodeHashes: Array<{ id: string; hash: string }>,
  now: Date,
): Promise<void> {
  await insertEnrolments(db, [e], now);
  if (backupCodeHashes.length > 0) {
    await db
      .insertInto('backup_code')
      .values(backupCodeHashes.map((c) => ({ id: c.id, enrolment_id: e.id, code_hash: c.hash, used_at: null })))
      .execute();
  }
}

/** Many enrolments in one statement (imports, benchmarks). */
export async function insertEnrolments(db: Executor, enrolments: Array<Omit<Enrolment, 'lastUsedStep'>>, now: Date): Promise<void> {
  if (enrolments.length === 0) return;
  await db
    .insertInto('enrolment')
    .values(
      enrolments.map((e) => ({
        id: e.id,
        business_id: e.businessId,
        external_user_id: e.externalUserId,
        secret_enc: e.secretEnc,
        algorithm: e.algorithm,
        digits: e.digits,
        period: e.period,
        last_used_step: null,
        purpose: e.purpose,
        livemode: e.livemode,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

export async function deleteEnrolment(db: Executor, businessId: string, livemode: boolean, externalUserId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('enrolment')
    .where('business_id', '=', businessId)
    .where('livemode', '=', livemode)
    .where('external_user_id', '=', externalUserId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

const debit = preparedQuery((db, businessId: string, amountPaise: number, now: Date) =>
  db
    .updateTable('business')
    .set((eb) => ({ balance_paise: eb('balance_paise', '-', amountPaise), updated_at: now }))
    .where('id', '=', businessId)
    .where('balance_paise', '>=', amountPaise)
    .returning((eb) => [
      'balance_paise',
      'auto_refill_enabled',
      'auto_refill_threshold_paise',
      'auto_refill_pack_id',
      // Only live checks are debited: only live endpoints hear of them.
      eb
        .exists(
          eb.selectFrom('webhook').select('webhook.id').whereRef('webhook.business_id', '=', 'business.id').where('webhook.is_active', '=', true).where('webhook.livemode', '=', true),
        )
        .as('has_webhooks'),
    ]),
);

export interface Debited {
  balancePaise: number;
  autoRefill: { enabled: boolean; thresholdPaise: number | null; packId: string | null };
  /** an active (live) webhook endpoint exists (else no outbox rows are needed) */
  hasWebhooks: boolean;
}

const selectTestModeState = preparedQuery((db, businessId: string) =>
  db
    .selectFrom('business')
    .select((eb) => [
      'balance_paise',
      eb
        .exists(
          eb.selectFrom('webhook').select('webhook.id').whereRef('webhook.business_id', '=', 'business.id').where('webhook.is_active', '=', true).where('webhook.livemode', '=', false),
        )
        .as('has_webhooks'),
    ])
    .where('id', '=', businessId),
);

/**
 * Test mode is not debited, so nothing returns the balance and the endpoints the debit gives
 * a live check: per business, its (unchanged) balance and whether an active test endpoint exists.
 */
export async function testModeState(tx: CheckTx, businessIds: string[]): Promise<Map<string, { balancePaise: number; hasWebhooks: boolean }>> {
  const state = new Map<string, { balancePaise: number; hasWebhooks: boolean }>();
  const read = (row: { balance_paise: unknown; has_webhooks: unknown }) => ({ balancePaise: toNumber(row.balance_paise as number), hasWebhooks: toBoolean(row.has_webhooks as boolean) });
  if (oneByOne(tx) || businessIds.length === 1) {
    for (const id of businessIds) {
      const [row] = (await selectTestModeState(tx.run, id)).rows;
      if (row) state.set(id, read(row));
    }
    return state;
  }
  if (businessIds.length === 0) return state;
  const { rows } = await sql<{ id: string; balance_paise: number; has_webhooks: boolean }>`
    select id, balance_paise, exists (select 1 from webhook where webhook.business_id = business.id and webhook.is_active and not webhook.livemode) as has_webhooks
    from business where id = any(${businessIds}::text[])`.execute(tx.kysely);
  for (const row of rows) state.set(row.id, read(row));
  return state;
}

function toDebited(row: { balance_paise: unknown; auto_refill_enabled: unknown; auto_refill_threshold_paise: unknown; auto_refill_pack_id: string | null; has_webhooks: unknown }): Debited {
  return {
    balancePaise: toNumber(row.balance_paise as number),
    autoRefill: {
      enabled: toBoolean(row.auto_refill_enabled as boolean),
      thresholdPaise: row.auto_refill_threshold_paise === null ? null : toNumber(row.auto_refill_threshold_paise as number),
      packId: row.auto_refill_pack_id,
    },
    hasWebhooks: toBoolean(row.has_webhooks as boolean),
  };
}

/**
 * Takes `amountPaise` (one check's price, or a group's) from the balance if, and only if, the
 * balance covers all of it. Returns the new balance and the auto-refill settings read with it,
 * or null when there is not enough credit (nothing changed).
 */
export async function debitBalance(trx: QueryTarget, businessId: string, amountPaise: number, now: Date): Promise<Debited | null> {
  const [row] = (await debit(trx, businessId, amountPaise, now)).rows;
  return row ? toDebited(row) : null;
}

/** Marks an unused backup code used; false when there is no such unused code. */
export async function consumeBackupCode(trx: Executor, enrolmentId: string, codeHash: string, now: Date): Promise<boolean> {
  const code = await trx
    .selectFrom('backup_code')
    .select('id')
    .where('enrolment_id', '=', enrolmentId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (!code) return false;
  const result = await trx
    .updateTable('backup_code')
    .set({ used_at: now })
    .where('id', '=', code.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUnusedBackupCodes(db: Executor, enrolmentId: string): Promise<number> {
  const row = await db
    .selectFrom('backup_code')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('enrolment_id', '=', enrolmentId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

export interface Verification {
  id: string;
  businessId: string;
  externalUserId: string | null;
  mode: VerificationTable['mode'];
  method: VerificationTable['method'];
  purpose: string | null;
  status: VerificationStatus;
  costPaise: number;
  responseTimeMs: number;
  createdAt: Date;
  /** false: made with a test key (cost 0, seen only by test keys) */
  livemode: boolean;
}

const insertVerificationRow = preparedQuery(
  (
    db,
    id: string,
    businessId: string,
    externalUserId: string | null,
    mode: Verification['mode'],
    method: Verification['method'],
    purpose: string | null,
    status: VerificationStatus,
    costPaise: number,
    responseTimeMs: number,
    createdAt: Date,
    livemode: boolean,
  ) =>
    db.insertInto('totp_verification').values({
      id,
      business_id: businessId,
      external_user_id: externalUserId,
      mode,
      method,
      purpose,
      status,
      cost_paise: costPaise,
      response_time_ms: responseTimeMs,
      created_at: createdAt,
      livemode,
    }),
);

export async function insertVerification(trx: QueryTarget, v: Verification): Promise<void> {
  await insertVerificationRow(trx, v.id, v.businessId, v.externalUserId, v.mode, v.method, v.purpose, v.status, v.costPaise, v.responseTimeMs, v.createdAt, v.livemode);
}

function toVerification(r: Selectable<VerificationTable>): Verification {
  return {
    id: r.id,
    businessId: r.business_id,
    externalUserId: r.external_user_id,
    mode: r.mode,
    method: r.method,
    purpose: r.purpose,
    status: r.status,
    costPaise: toNumber(r.cost_paise),
    responseTimeMs: toNumber(r.response_time_ms),
    createdAt: toDate(r.created_at),
    livemode: toBoolean(r.livemode),
  };
}

export async function listRecentVerifications(db: Executor, businessId: string, livemode: boolean, limit: number): Promise<Verification[]> {
  const rows = await db
    .selectFrom('totp_verification')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('livemode', '=', livemode)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toVerification);
}

export async function listVerificationsBetween(db: Executor, businessId: string, livemode: boolean, from: Date, to: Date, limit: number): Promise<Verification[]> {
  const rows = await db
    .selectFrom('totp_verification')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('livemode', '=', livemode)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .orderBy('created_at', 'asc')
    .limit(limit)
    .execute();
  return rows.map(toVerification);
}

// --- idempotency ----------------------------------------------------------------------------

export interface IdempotencyRecord {
  endpoint: string;
  requestHash: string;
  statusCode: number;
  /** the answer's JSON, encrypted (service.sealAnswer); plain JSON in rows from older versions */
  responseBody: string;
  createdAt: Date;
}

export async function findIdempotencyRecord(db: Executor, businessId: string, livemode: boolean, key: string): Promise<IdempotencyRecord | undefined> {
  const row = await db
    .selectFrom('idempotency_record')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('livemode', '=', livemode)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return (
    row && {
      endpoint: row.endpoint,
      requestHash: row.request_hash,
      statusCode: toNumber(row.status_code),
      responseBody: row.response_body,
      createdAt: toDateOrNull(row.created_at)!,
    }
  );
}

export async function insertIdempotencyRecord(
  trx: Transaction<Database>,
  businessId: string,
  livemode: boolean,
  key: string,
  record: Omit<IdempotencyRecord, 'createdAt'>,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('idempotency_record')
    .values({
      business_id: businessId,
      livemode,
      idempotency_key: key,
      endpoint: record.endpoint,
      request_hash: record.requestHash,
      status_code: record.statusCode,
      response_body: record.responseBody,
      created_at: now,
    })
    .execute();
}

// --- a group of checks (group commit) --------------------------------------------------------
// The same statements as above for many users at once, one statement each for the whole group:
// on PostgreSQL one round trip each (a group of 50 checks costs 3 round trips, not ~250), the
// group's values as arrays (unnest); on SQLite, where a statement is a function call, one call
// instead of one per check, the group's values as one JSON array (json_each) bound once.

function oneByOne(tx: CheckTx): boolean {
  return tx.dialect === 'sqlite';
}

/** A SQLite statement of the group: synchronous on a held connection, else through Kysely (same SQL). */
async function sqliteRows<Row>(tx: CheckTx, text: string, parameters: unknown[]): Promise<Row[]> {
  const run = tx.run;
  if ('statements' in run) {
    const statement = run.statements.prepare(text);
    if (statement.reader) return statement.all(parameters) as Row[];
    statement.run(parameters);
    return [];
  }
  return (await run.executeQuery<Row>(CompiledQuery.raw(text, parameters))).rows;
}

/** A single-row SQLite write run once per row of the group (sqlite-group-sql.ts says why): each row's changes. */
async function sqliteEachRow(tx: CheckTx, text: string, rows: unknown[][]): Promise<number[]> {
  const run = tx.run;
  if ('statements' in run) {
    const statement = run.statements.prepare(text);
    return rows.map((parameters) => statement.run(parameters).changes);
  }
  const changes: number[] = [];
  for (const parameters of rows) changes.push(Number((await run.executeQuery(CompiledQuery.raw(text, parameters))).numAffectedRows ?? 0));
  return changes;
}

// The group's users as one JSON array of [business_id, livemode (1/0, as SQLite stores it), user_id].
function usersJson(users: UserRef[]): string {
  return JSON.stringify(users.map((u) => [u.businessId, u.livemode ? 1 : 0, u.externalUserId]));
}

export interface UserRef {
  businessId: string;
  livemode: boolean;
  externalUserId: string;
}

/**
 * The enrolments of these users, keyed by userKey(), locked in (business, user) order on
 * PostgreSQL so that two groups cannot deadlock.
 */
export async function findEnrolmentsLocked(tx: CheckTx, users: UserRef[]): Promise<Map<string, Enrolment>> {
  const found = new Map<string, Enrolment>();
  if (users.length === 0) return found;
  if (oneByOne(tx)) {
    const rows = await sqliteRows<EnrolmentRow>(tx, SQLITE_ENROLMENTS, [usersJson(users)]);
    for (const row of rows) found.set(userKey(row.business_id, toBoolean(row.livemode), row.external_user_id), toEnrolment(row));
    return found;
  }
  const { rows } = await sql<EnrolmentRow>`
    select * from sixdigit_group_enrolments(${users.map((u) => u.businessId)}::text[], ${users.map((u) => u.livemode)}::boolean[], ${users.map((u) => u.externalUserId)}::text[])`.execute(tx.kysely);
  for (const row of rows) found.set(userKey(row.business_id, toBoolean(row.livemode), row.external_user_id), toEnrolment(row));
  return found;
}

export type RecentChecks = Map<string, Array<{ status: VerificationStatus; createdAt: Date }>>;

/**
 * The group's two reads: the enrolments, locked (findEnrolmentsLocked), then the throttle history
 * of the users found (recentChecksForUsers). They stay two statements: in READ COMMITTED each
 * statement takes its snapshot when it starts, so the history, read after the locks are held,
 * sees every failure committed by a group that held them before. On a pinned PostgreSQL
 * connection whose transaction has not begun, BEGIN and both reads go as ONE simple-protocol
 * message (one round trip; PostgreSQL still gives each statement its own snapshot). That
 * protocol takes no parameters, so the values are written as escaped literals (the server's
 * own quoting rules, pg's escapeLiteral).
 */
export async function readGroup(tx: CheckTx, users: UserRef[], since: Date, limit: number): Promise<{ enrolments: Map<string, Enrolment>; recent: RecentChecks }> {
  const pinned = tx.pinned;
  if (!pinned || pinned.begun || users.length === 0) {
    const enrolments = await findEnrolmentsLocked(tx, users);
    const found = users.filter((u) => enrolments.has(userKey(u.businessId, u.livemode, u.externalUserId)));
    return { enrolments, recent: await recentChecksForUsers(tx, found, since, limit) };
  }
  pinned.begun = true;
  const results = (await pinned.client.query(readGroupMessage(pinned.client, users, since, limit))) as unknown as [pg.QueryResult, pg.QueryResult<EnrolmentRow>, pg.QueryResult<RecentRow>];
  const enrolments = new Map<string, Enrolment>();
  for (const row of results[1].rows) enrolments.set(userKey(row.business_id, toBoolean(row.livemode), row.external_user_id), toEnrolment(row));
  // The history of users not enrolled is not wanted (their checks are refused as not found).
  const recent = collectRecent(results[2].rows.filter((r) => enrolments.has(userKey(r.business_id, toBoolean(r.livemode), r.external_user_id))), limit);
  return { enrolments, recent };
}

interface RecentRow {
  business_id: string;
  livemode: boolean;
  external_user_id: string;
  status: VerificationStatus;
  created_at: Date;
}

function collectRecent(rows: RecentRow[], limit: number): RecentChecks {
  const recent: RecentChecks = new Map();
  for (const row of rows) {
    const key = userKey(row.business_id, toBoolean(row.livemode), row.external_user_id);
    const list = recent.get(key) ?? [];
    if (list.length < limit) list.push({ status: row.status, createdAt: toDate(row.created_at) });
    recent.set(key, list);
  }
  return recent;
}

/** Per user (userKey()), the latest checks inside the throttle window, newest first, replays left out. */
export async function recentChecksForUsers(
  tx: CheckTx,
  users: UserRef[],
  since: Date,
  limit: number,
): Promise<Map<string, Array<{ status: VerificationStatus; createdAt: Date }>>> {
  const recent = new Map<string, Array<{ status: VerificationStatus; createdAt: Date }>>();
  if (users.length === 0) return recent;
  if (oneByOne(tx)) {
    for (const u of users) recent.set(userKey(u.businessId, u.livemode, u.externalUserId), []);
    const rows = await sqliteRows<{ k: number; status: VerificationStatus; created_at: string }>(tx, SQLITE_RECENT_CHECKS, [usersJson(users), since.toISOString(), limit]);
    for (const row of rows) {
      const u = users[row.k]!;
      recent.get(userKey(u.businessId, u.livemode, u.externalUserId))!.push({ status: row.status, createdAt: toDate(row.created_at) });
    }
    return recent;
  }
  const { rows } = await sql<RecentRow>`
    select * from sixdigit_group_recent_checks(${users.map((u) => u.businessId)}::text[], ${users.map((u) => u.livemode)}::boolean[], ${users.map((u) => u.externalUserId)}::text[], ${since}::timestamptz, ${limit}::integer)`.execute(tx.kysely);
  return collectRecent(rows, limit);
}

/**
 * Takes each business's amount if, and only if, its balance covers all of it. Returns what each
 * paid business has left (with its auto-refill settings); a business missing from the answer
 * could not pay and was not charged. Rows are locked in id order (no deadlock between groups).
 */
export async function debitBalances(tx: CheckTx, amounts: Map<string, number>, now: Date): Promise<Map<string, Debited>> {
  const debited = new Map<string, Debited>();
  const ids = [...amounts.keys()].sort();
  if (oneByOne(tx) || ids.length === 1) {
    for (const id of ids) {
      const d = await debitBalance(tx.run, id, amounts.get(id)!, now);
      if (d) debited.set(id, d);
    }
    return debited;
  }
  // NO KEY UPDATE, as the UPDATE itself takes: it does not wait for other groups' verification
  // rows, whose foreign key holds a KEY SHARE lock on the business until they commit.
  await sql`select id from business where id = any(${ids}) order by id for no key update`.execute(tx.kysely);
  const { rows } = await sql<{ id: string; balance_paise: number; auto_refill_enabled: unknown; auto_refill_threshold_paise: number | null; auto_refill_pack_id: string | null; has_webhooks: boolean }>`
    update business set balance_paise = business.balance_paise - v.amount, updated_at = ${now}
    from (select unnest(${ids}::text[]) as id, unnest(${ids.map((id) => amounts.get(id)!)}::bigint[]) as amount) as v
    where business.id = v.id and business.balance_paise >= v.amount
    returning business.id, business.balance_paise, business.auto_refill_enabled, business.auto_refill_threshold_paise, business.auto_refill_pack_id,
      exists (select 1 from webhook where webhook.business_id = business.id and webhook.is_active and webhook.livemode) as has_webhooks`.execute(tx.kysely);
  for (const row of rows) debited.set(row.id, toDebited(row));
  return debited;
}

/**
 * RFC 6238 §5.2, the replay guard: each enrolment's last accepted step moves to the check's step
 * only if that is later (atomic). Returns the ids whose step did advance.
 */
export async function advanceLastUsedSteps(tx: CheckTx, steps: ReplayGuard[], now: Date): Promise<Set<string>> {
  const advanced = new Set<string>();
  if (steps.length === 0) return advanced;
  if (oneByOne(tx)) {
    const at = now.toISOString();
    const changes = await sqliteEachRow(tx, SQLITE_ADVANCE_STEP, steps.map((s) => sqliteAdvanceStepRow(s, at)));
    steps.forEach((s, i) => changes[i] === 1 && advanced.add(s.enrolmentId));
    return advanced;
  }
  const { rows } = await sql<{ id: string }>`
    update enrolment set last_used_step = v.step, updated_at = ${now}
    from (select unnest(${steps.map((s) => s.enrolmentId)}::text[]) as id, unnest(${steps.map((s) => s.step)}::bigint[]) as step) as v
    where enrolment.id = v.id and (enrolment.last_used_step is null or enrolment.last_used_step < v.step)
    returning enrolment.id`.execute(tx.kysely);
  for (const row of rows) advanced.add(row.id);
  return advanced;
}

export async function insertVerifications(tx: CheckTx, verifications: Verification[]): Promise<void> {
  if (verifications.length === 0) return;
  if (oneByOne(tx)) {
    await sqliteEachRow(tx, SQLITE_INSERT_VERIFICATION, verifications.map(sqliteVerificationRow));
    return;
  }
  await tx.kysely
    .insertInto('totp_verification')
    .values(
      verifications.map((v) => ({
        id: v.id,
        business_id: v.businessId,
        external_user_id: v.externalUserId,
        mode: v.mode,
        method: v.method,
        purpose: v.purpose,
        status: v.status,
        cost_paise: v.costPaise,
        response_time_ms: v.responseTimeMs,
        created_at: v.createdAt,
        livemode: v.livemode,
      })),
    )
    .execute();
}

/**
 * A group's writes, after its checks are decided: the replay guard (advanceLastUsedSteps), the
 * verification rows and each business's debit (debitBalances). A row whose `replayUnlessAdvanced`
 * enrolment did not advance is recorded as 'replayed'. On PostgreSQL this is ONE statement (one
 * round trip instead of three or four): writable CTEs, the business rows locked in id order
 * before any is debited — the debit joins only rows the `locked` CTE has already locked, so
 * every group takes them in the same order — and still last, so they are held only until the
 * commit. Nothing is debited for a business that cannot pay all of its amount (missing from
 * `debited`); the caller then rolls back.
 */
export async function recordChecks(
  tx: CheckTx,
  verifications: Array<Verification & { replayUnlessAdvanced: ReplayGuard | null }>,
  amounts: Map<string, number>,
  now: Date,
): Promise<{ advanced: Set<string>; debited: Map<string, Debited> }> {
  const steps = verifications.flatMap((v) => (v.replayUnlessAdvanced ? [v.replayUnlessAdvanced] : []));
  const replayedUnless = (v: (typeof verifications)[number], advanced: Set<string>): VerificationStatus =>
    v.replayUnlessAdvanced && !advanced.has(v.replayUnlessAdvanced.enrolmentId) ? 'replayed' : v.status;
  if (oneByOne(tx) || verifications.length === 0) {
    const advanced = await advanceLastUsedSteps(tx, steps, now);
    await insertVerifications(tx, verifications.map((v) => ({ ...stripReplay(v), status: replayedUnless(v, advanced) })));
    return { advanced, debited: await debitBalances(tx, amounts, now) };
  }
  const { text, values } = recordGroupStatement(groupColumns(verifications, amounts), null, now);
  return groupWriteResult((await tx.kysely.executeQuery<GroupWriteRow>(CompiledQuery.raw(text, values))).rows);
}

/** A statement and its bound values; `name` prepares it once per connection (its text never changes). */
export interface BoundStatement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * sixdigit_record_group's call with its values bound ($1, $2, …): the text is the same for every
 * group (one for the careful way, one with the crossing lines), so it is prepared once per
 * connection and never parsed or planned again.
 */
export function recordGroupStatement(c: GroupColumns, lines: CrossingLines | null, now: Date): BoundStatement {
  const values: unknown[] = [];
  const bind = (value: unknown, type: string) => `$${values.push(value)}::${type}`;
  const text = recordGroupCall(
    {
      text: (v) => bind(arrayParameter(v), 'text[]'),
      numbers: (v, type) => bind(arrayParameter(v), `${type}[]`),
      booleans: (v) => bind(arrayParameter(v), 'boolean[]'),
      at: bind(now.toISOString(), 'timestamptz'),
    },
    c,
    lines,
  );
  return { name: lines ? 'sixdigit_record_group_lines' : 'sixdigit_record_group', text, values };
}

/**
 * The group's two reads as one bound call (sixdigit_group_reads: the enrolments, locked, then the
 * throttle history, each its own statement inside), for a connection that sends it pipelined
 * behind its BEGIN. Rows carry `kind`: 'enr' an enrolment, 'chk' a check of the history.
 */
export function readGroupStatement(users: UserRef[], since: Date, limit: number): BoundStatement {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`not a row limit: ${limit}`);
  const values = [arrayParameter(users.map((u) => u.businessId)), arrayParameter(users.map((u) => u.livemode)), arrayParameter(users.map((u) => u.externalUserId)), since.toISOString(), limit];
  return { name: 'sixdigit_group_reads', text: 'select * from sixdigit_group_reads($1::text[], $2::boolean[], $3::text[], $4::timestamptz, $5::integer)', values };
}

/** What a backslash escapes inside a quoted element of PostgreSQL's array text. */
const ARRAY_ELEMENT_ESCAPES = /[\\"]/g;

/**
 * An array parameter as PostgreSQL's array text (`{"a","b",NULL}`), which the statement casts to
 * its type. pg writes the same text itself, but runs two regular expressions over every element
 * (~3 µs a check across a group's arrays); here an element with neither goes as it is. Text is always
 * quoted, so commas, braces, spaces and the word NULL stay text; numbers go as JavaScript prints
 * them and booleans as t/f, as pg sends them.
 */
export function arrayParameter(values: ReadonlyArray<string | number | boolean | null>): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'string') out += v.includes('"') || v.includes('\\') ? `"${v.replace(ARRAY_ELEMENT_ESCAPES, '\\$&')}"` : `"${v}"`;
    else if (typeof v === 'number') out += String(v);
    else if (typeof v === 'boolean') out += v ? 't' : 'f';
    else throw new Error(`not an array element: ${typeof v}`);
  }
  return `${out}}`;
}

/** A row of the group's write: a step that advanced, the records' count, a debit, a refusal. */
interface GroupWriteRow {
  kind: 'adv' | 'ins' | 'deb' | 'refused';
  id: string;
  balance_paise: number;
  auto_refill_enabled: unknown;
  auto_refill_threshold_paise: number | null;
  auto_refill_pack_id: string | null;
  has_webhooks: boolean;
}

function groupWriteResult(rows: GroupWriteRow[]): { advanced: Set<string>; debited: Map<string, Debited> } {
  const advanced = new Set<string>();
  const debited = new Map<string, Debited>();
  for (const row of rows) {
    if (row.kind === 'adv') advanced.add(row.id);
    else if (row.kind === 'deb') debited.set(row.id, toDebited(row));
  }
  return { advanced, debited };
}

/** How the group's values are written into its statement (recordGroupStatement binds each as a parameter). */
interface ValueWriter {
  text(values: Array<string | null>): string;
  numbers(values: number[], type: 'bigint' | 'double precision'): string;
  booleans(values: boolean[]): string;
  /** the group's time */
  at: string;
}

/** The group's write's values, column by column (sixdigit_record_group's parameters). */
export interface GroupColumns {
  stepEnrolmentIds: string[];
  steps: number[];
  ids: string[];
  businessIds: string[];
  userIds: Array<string | null>;
  modes: string[];
  methods: string[];
  purposes: Array<string | null>;
  statuses: string[];
  costs: number[];
  responseMs: number[];
  /** per record: the enrolment whose step must advance, else the record is a replay */
  replayUnless: Array<string | null>;
  livemodes: boolean[];
  /** the businesses to debit, in id order, and their amounts */
  debitIds: string[];
  amounts: number[];
}

/** The careful way's records (with their replay guards) and debits as the group write's columns. */
function groupColumns(verifications: Array<Verification & { replayUnlessAdvanced: ReplayGuard | null }>, amounts: Map<string, number>): GroupColumns {
  const steps = verifications.flatMap((v) => (v.replayUnlessAdvanced ? [v.replayUnlessAdvanced] : []));
  const ids = [...amounts.keys()].sort();
  const col = <K extends keyof Verification>(k: K) => verifications.map((v) => v[k]);
  return {
    stepEnrolmentIds: steps.map((x) => x.enrolmentId),
    steps: steps.map((x) => x.step),
    ids: col('id'),
    businessIds: col('businessId'),
    userIds: col('externalUserId'),
    modes: col('mode'),
    methods: col('method'),
    purposes: col('purpose'),
    statuses: col('status'),
    costs: col('costPaise'),
    responseMs: col('responseTimeMs'),
    replayUnless: verifications.map((v) => v.replayUnlessAdvanced?.enrolmentId ?? null),
    livemodes: col('livemode'),
    debitIds: ids,
    amounts: ids.map((id) => amounts.get(id)!),
  };
}

/**
 * The group's write: one call of sixdigit_record_group (migration 20261126070000: writable CTEs,
 * the replay guard, the records, each business's debit), planned once per connection. `lines`
 * null is the careful way (a business that cannot pay is not debited and missing from the
 * answer; the caller rolls back); given, the one-message way (the statement fails instead: the
 * balance's CHECK constraint, or sixdigit_refuse_group for a debit crossing one of the lines or
 * the business's auto-refill threshold, or a business with live webhook endpoints).
 */
function recordGroupCall(w: ValueWriter, c: GroupColumns, lines: CrossingLines | null): string {
  return `select * from sixdigit_record_group(${[
    w.at,
    w.text(c.stepEnrolmentIds),
    w.numbers(c.steps, 'bigint'),
    w.text(c.ids),
    w.text(c.businessIds),
    w.text(c.userIds),
    w.text(c.modes),
    w.text(c.methods),
    w.text(c.purposes),
    w.text(c.statuses),
    w.numbers(c.costs, 'bigint'),
    w.numbers(c.responseMs, 'double precision'),
    w.text(c.replayUnless),
    w.booleans(c.livemodes),
    w.text(c.debitIds),
    w.numbers(c.amounts, 'bigint'),
    lines ? w.numbers([lines.lowBalancePaise, lines.depletedBelowPaise], 'bigint') : 'null::bigint[]',
  ].join(', ')})`;
}

/** What pg's escapeLiteral changes: a quote (doubled) or a backslash (doubled, and an E'' literal). */
const NEEDS_ESCAPING = /['\\]/;

/**
 * A text value as a literal in a simple-protocol message (which takes no parameters): quoted by
 * pg's escapeLiteral (the server's own quoting rules).
 */
function textLiteral(client: pg.ClientBase, value: string | null): string {
  if (value === null) return 'null';
  if (typeof value !== 'string') throw new Error(`not a text value: ${typeof value}`);
  // pg's escapeLiteral builds its answer a character at a time (~10k instructions a check in a
  // group's messages); for text with no quote and no backslash that answer is the text in quotes.
  return NEEDS_ESCAPING.test(value) ? client.escapeLiteral(value) : `'${value}'`;
}

/** Text values as an array literal for a simple-protocol message (the careful way's reads), each by textLiteral. */
export function textArrayLiteral(client: pg.ClientBase, values: Array<string | null>): string {
  return `array[${values.map((v) => textLiteral(client, v)).join(',')}]::text[]`;
}

const booleanArrayLiteral = (values: boolean[]) => `array[${values.map((b) => (b ? 'true' : 'false')).join(',')}]::boolean[]`;

/**
 * The group's two reads as one simple-protocol message, after `begin`: the enrolments, locked
 * (in (business, user) order), then the throttle history. readGroup says why they stay two
 * statements. Its results: [begin, enrolments, recent checks].
 */
export function readGroupMessage(client: pg.ClientBase, users: UserRef[], since: Date, limit: number): string {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`not a row limit: ${limit}`);
  // The users as three arrays: business ids, modes, user ids.
  const usersArgs = `${textArrayLiteral(client, users.map((u) => u.businessId))}, ${booleanArrayLiteral(users.map((u) => u.livemode))}, ${textArrayLiteral(client, users.map((u) => u.externalUserId))}`;
  return `begin;
    select * from sixdigit_group_enrolments(${usersArgs});
    select * from sixdigit_group_recent_checks(${usersArgs}, ${textLiteral(client, since.toISOString())}::timestamptz, ${limit})`;
}

/**
 * Why the one-message write failed, when it was a refusal (nothing kept, the group goes the
 * careful way): a business that cannot pay (the balance's CHECK), or one that needs the careful
 * way (sixdigit_refuse_group). Null for any other failure.
 */
export function groupWriteRefusal(err: unknown): { reason: 'cannot_pay' | 'needs_careful_path'; businessId: string | null } | null {
  const e = err as { code?: string; message?: string; constraint?: string; detail?: string };
  if (e.code === '23514' && e.constraint?.includes('balance')) {
    // detail: "Failing row contains (<business id>, …)"
    return { reason: 'cannot_pay', businessId: /Failing row contains \(([^,)]+)/.exec(e.detail ?? '')?.[1] ?? null };
  }
  if (e.code === 'P0001' && e.message?.startsWith('sixdigit: this group of checks needs the careful path')) {
    return { reason: 'needs_careful_path', businessId: /\(business ([^)]+)\)$/.exec(e.message)?.[1] ?? null };
  }
  return null;
}

/**
 * The fast write refused the group (it was not kept): the caller writes it again the careful way.
 * `businessId`: the business that made it refuse, when the database said which.
 */
export class GroupRefused extends Error {
  constructor(
    readonly reason: 'cannot_pay' | 'needs_careful_path',
    readonly businessId: string | null,
  ) {
    super(`the group of checks was refused by its one-message write: ${reason}`);
  }
}

/** Something failed after the group's write had committed it: it is recorded and charged, never to be retried. */
export class GroupCommitted extends Error {
  constructor(override readonly cause: unknown) {
    super(`failed after the group of checks was committed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * The one-message write's connection failed before an answer: PostgreSQL may or may not have run
 * the COMMIT. The caller looks for the group's verification ids before writing it again.
 */
export class GroupOutcomeUnknown extends Error {
  constructor(
    readonly verificationIds: string[],
    override readonly cause: unknown,
  ) {
    super(`the one-message write of a group of checks got no answer: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Of these verification ids, those recorded (after a GroupOutcomeUnknown). */
export async function recordedVerificationIds(db: Executor, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('totp_verification').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
}

/**
 * The lines a debit may cross that have something behind them (a mail, a webhook event, an
 * auto-refill): the careful path handles a crossing, so the one-message write refuses one.
 */
export interface CrossingLines {
  lowBalancePaise: number;
  depletedBelowPaise: number;
}

function stripReplay(v: Verification & { replayUnlessAdvanced: unknown }): Verification {
  const { replayUnlessAdvanced: _, ...rest } = v;
  return rest;
}

// --- lookups (GET /verifications, GET /users): newest first, a cursor by id ----------------

export type VerificationStatusFilter = VerificationStatus;

export interface VerificationFilter {
  externalUserId?: string;
  status?: VerificationStatus;
  createdAfter?: Date;
  createdBefore?: Date;
}

/** One of the business's verifications, or undefined (another business's id is as missing). */
export async function findVerification(db: Executor, businessId: string, livemode: boolean, id: string): Promise<Verification | undefined> {
  const row = await db
    .selectFrom('totp_verification')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('livemode', '=', livemode)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toVerification(row);
}

/**
 * A page of verifications, newest first (created_at, then id, so ties have one order), after the
 * cursor row when there is one. Reads `limit + 1` rows to know whether more follow.
 */
export async function listVerifications(
  db: Executor,
  businessId: string,
  livemode: boolean,
  filter: VerificationFilter,
  limit: number,
  after?: Verification,
): Promise<{ rows: Verification[]; hasMore: boolean }> {
  let query = db.selectFrom('totp_verification').selectAll().where('business_id', '=', businessId).where('livemode', '=', livemode);
  if (filter.externalUserId !== undefined) query = query.where('external_user_id', '=', filter.externalUserId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.createdAfter) query = query.where('created_at', '>', filter.createdAfter);
  if (filter.createdBefore) query = query.where('created_at', '<', filter.createdBefore);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
    );
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  return { rows: rows.slice(0, limit).map(toVerification), hasMore: rows.length > limit };
}

export interface EnrolledUser {
  id: string;
  externalUserId: string;
  algorithm: EnrolmentTable['algorithm'];
  digits: number;
  period: number;
  purpose: string | null;
  createdAt: Date;
  lastVerifiedAt: Date | null;
  backupCodesLeft: number;
}

/** Enrolments with their last accepted check and unused backup codes; the secret is never selected. */
function enrolledUsers(db: Executor, businessId: string, livemode: boolean) {
  return db
    .selectFrom('enrolment as e')
    .where('e.business_id', '=', businessId)
    .where('e.livemode', '=', livemode)
    .select((eb) => [
      'e.id',
      'e.external_user_id',
      'e.algorithm',
      'e.digits',
      'e.period',
      'e.purpose',
      'e.created_at',
      eb
        .selectFrom('totp_verification as v')
        .select((v) => v.fn.max('v.created_at').as('at'))
        .whereRef('v.business_id', '=', 'e.business_id')
        .whereRef('v.external_user_id', '=', 'e.external_user_id')
        .whereRef('v.livemode', '=', 'e.livemode')
        .where('v.mode', '=', 'managed')
        .where('v.status', '=', 'verified')
        .as('last_verified_at'),
      eb
        .selectFrom('backup_code as b')
        .select((b) => b.fn.countAll().as('n'))
        .whereRef('b.enrolment_id', '=', 'e.id')
        .where('b.used_at', 'is', null)
        .as('backup_codes_left'),
    ]);
}

function toEnrolledUser(r: {
  id: string;
  external_user_id: string;
  algorithm: EnrolmentTable['algorithm'];
  digits: number;
  period: number;
  purpose: string | null;
  created_at: Date | string;
  last_verified_at: unknown;
  backup_codes_left: unknown;
}): EnrolledUser {
  return {
    id: r.id,
    externalUserId: r.external_user_id,
    algorithm: r.algorithm,
    digits: toNumber(r.digits),
    period: toNumber(r.period),
    purpose: r.purpose,
    createdAt: toDate(r.created_at),
    lastVerifiedAt: toDateOrNull(r.last_verified_at as Date | string | null),
    backupCodesLeft: toNumber((r.backup_codes_left as number | string | null) ?? 0),
  };
}

export async function findEnrolledUser(db: Executor, businessId: string, livemode: boolean, externalUserId: string): Promise<EnrolledUser | undefined> {
  const row = await enrolledUsers(db, businessId, livemode).where('e.external_user_id', '=', externalUserId).executeTakeFirst();
  return row && toEnrolledUser(row);
}

/** A page of enrolled users, newest enrolment first, after the cursor user when there is one. */
export async function listEnrolledUsers(
  db: Executor,
  businessId: string,
  livemode: boolean,
  limit: number,
  after?: EnrolledUser,
): Promise<{ rows: EnrolledUser[]; hasMore: boolean }> {
  let query = enrolledUsers(db, businessId, livemode);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('e.created_at', '<', after.createdAt), eb.and([eb('e.created_at', '=', after.createdAt), eb('e.id', '<', after.id)])]),
    );
  }
  const rows = await query.orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').limit(limit + 1).execute();
  return { rows: rows.slice(0, limit).map(toEnrolledUser), hasMore: rows.length > limit };
}
