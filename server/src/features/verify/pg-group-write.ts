/**
 * PostgreSQL's live groups, each in two round trips on one connection of the writer's own
 * pipelined pool (pg's `pipeline: true`: a query is sent without waiting for the one before it to
 * be answered): BEGIN with the group's reads (one call, sixdigit_group_reads), then the write with its COMMIT
 * (sixdigit_record_group with the crossing lines: it fails rather than let a group need the
 * careful way). The reads and the write are statements prepared once per connection, their
 * values bound as parameters: PostgreSQL neither parses the group's values as SQL text nor plans
 * the call again for each group. Between the round trips the group is decided as SQLite's is
 * (live-group.ts). This is the careful way's PostgreSQL statements without its layers: no query
 * builder, no per-check records and promises, rows read as arrays.
 *
 * What the careful way must do (a business that cannot pay, a debit crossing a line, live webhook
 * endpoints) the write refuses: the COMMIT behind it then only ends the failed transaction
 * (PostgreSQL answers it ROLLBACK), nothing is kept, and the caller writes the group the careful
 * way. If the connection fails while the write or its COMMIT is unanswered, PostgreSQL may or may
 * not have run the COMMIT: GroupOutcomeUnknown, and the caller looks the group's ids up before
 * writing it again.
 *
 * The writer keeps its connections between groups instead of checking one out of the pool for
 * each: the pool hands a connection over on a later tick (process.nextTick, behind every promise
 * already settled), so a group that starts as the one before it is answered waited until all of
 * that group's answers had been sent, 60 µs at 3,000/s and 220 µs closed-loop. A kept connection
 * sends the next group's reads at once.
 */
import type { Writable } from 'node:stream';
import type pg from 'pg';
import { LOW_BALANCE_THRESHOLD_PAISE, PAISE_PER_VERIFICATION } from '@common/pricing';
import type { VerificationStatus } from '../../db/types';
import type { SecretBox } from '../../lib/crypto';
import { THROTTLE_FAILURES, THROTTLE_WINDOW_MS } from './decide';
import { decideLiveGroup, liveAmounts, type LiveDraft, type LiveEnrolment, userKey, settleLiveGroup, type LiveGroupWriter, type WriterCheck, type WriterReply } from './live-group';
import { type BoundStatement, type GroupColumns, GroupCommitted, GroupOutcomeUnknown, groupWriteRefusal, readGroupStatement, recordGroupStatement } from './repo';

type Rows = pg.QueryResult<unknown[]>;
/** pg's Client has these (its socket's ref and unref); its types do not name them. */
type RefCounted = pg.PoolClient & { ref(): void; unref(): void };

/** A result's column positions by name (rows come as arrays). */
function columns<Name extends string>(result: Rows, names: readonly Name[]): Record<Name, number> {
  const at = {} as Record<Name, number>;
  for (const name of names) {
    const index = result.fields.findIndex((f) => f.name === name);
    if (index < 0) throw new Error(`the group's result has no column "${name}"`);
    at[name] = index;
  }
  return at;
}

/** The drafts and debits as the write's columns. */
function liveColumns(drafts: LiveDraft[], amounts: Map<string, number>, sinceReceivedMs: number): GroupColumns {
  const c: GroupColumns = { stepEnrolmentIds: [], steps: [], ids: [], businessIds: [], userIds: [], modes: [], methods: [], purposes: [], statuses: [], costs: [], responseMs: [], replayUnless: [], livemodes: [], debitIds: [], amounts: [] };
  for (const d of drafts) {
    if (d.guard) {
      c.stepEnrolmentIds.push(d.guard.enrolmentId);
      c.steps.push(d.guard.step);
    }
    c.ids.push(d.check.id);
    c.businessIds.push(d.check.businessId);
    c.userIds.push(d.externalUserId);
    c.modes.push(d.check.secret !== null ? 'stateless' : 'managed');
    c.methods.push('totp');
    c.purposes.push(d.check.purpose);
    c.statuses.push(d.status);
    c.costs.push(PAISE_PER_VERIFICATION);
    c.responseMs.push(Math.round((d.check.elapsedMs + sinceReceivedMs) * 100) / 100);
    c.replayUnless.push(d.guard?.enrolmentId ?? null);
    c.livemodes.push(true);
  }
  c.debitIds = [...amounts.keys()].sort();
  c.amounts = c.debitIds.map((id) => amounts.get(id)!);
  return c;
}

const CROSSING_LINES = { lowBalancePaise: LOW_BALANCE_THRESHOLD_PAISE, depletedBelowPaise: PAISE_PER_VERIFICATION };

export class PgLiveGroupWriter implements LiveGroupWriter {
  /** One group reads while the other writes (service.ts, groupsOf, says what was measured). */
  readonly inFlight = 2;
  /**
   * A group costs ~400 µs of Node's CPU and ~390 µs of PostgreSQL's whatever its size (two round
   * trips, a commit), ~7 checks' worth. Started as soon as a slot was free, a second group often
   * held one or two checks (under the open loop, a fifth of all groups held one): its fixed cost
   * outweighed the overlap. So a group starts beside another only once 8 checks wait.
   */
  readonly minToOverlap = 8;
  /** The connections of its pipelined pool: one per group in flight. */
  static readonly connections = 2;
  readonly counts = { written: 0, refused: 0, failed: 0 };
  /** Connections checked out of the pool and kept between groups, not in use now. */
  private readonly idle: pg.PoolClient[] = [];
  /** Each kept connection's error listener (the pool listens only to the connections it holds). */
  private readonly errorListeners = new Map<pg.PoolClient, (err: Error) => void>();
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly box: SecretBox,
  ) {}

  /** Hands every kept connection back to the pool; one in use goes back when its group ends. */
  close(): void {
    this.closed = true;
    for (const client of this.idle.splice(0)) this.giveBack(client);
  }

  /** A kept connection, else one from the pool, kept from now on. */
  private async take(): Promise<pg.PoolClient> {
    const kept = this.idle.pop();
    if (kept) {
      (kept as RefCounted).ref();
      return kept;
    }
    const client = await this.pool.connect();
    // PostgreSQL may end a connection while it waits here (a restart, pg_terminate_backend): an
    // 'error' event that, with no listener, would end the process. Let go of it; a group in
    // flight on it fails on its own and is written again the careful way.
    const onError = (err: Error) => {
      const at = this.idle.indexOf(client);
      if (at < 0) return;
      this.idle.splice(at, 1);
      process.emitWarning(`an idle PostgreSQL connection ended: ${err.message}`, { code: 'SIXDIGIT_PG_IDLE_CONNECTION' });
      this.giveBack(client, err);
    };
    this.errorListeners.set(client, onError);
    client.on('error', onError);
    return client;
  }

  /** After a group: kept for the next one, or handed back (to be closed) when it is not fit to use. */
  private keep(client: pg.PoolClient, broken: Error | undefined): void {
    const state = client as unknown as { _queryable?: boolean; _ending?: boolean };
    if (broken || this.closed || state._queryable === false || state._ending) return this.giveBack(client, broken);
    // As the pool does with its idle connections: one waiting here does not hold the process open.
    (client as RefCounted).unref();
    this.idle.push(client);
  }

  private giveBack(client: pg.PoolClient, err?: Error): void {
    const onError = this.errorListeners.get(client);
    if (onError) client.removeListener('error', onError);
    this.errorListeners.delete(client);
    client.release(err);
  }

  async write(checks: WriterCheck[]): Promise<WriterReply> {
    const reply = await this.writeGroup(checks, performance.now());
    this.counts[reply.kind]++;
    if (reply.kind === 'failed') process.emitWarning(`a group of checks went the careful way: ${reply.message}`, { code: 'SIXDIGIT_PG_WRITER' });
    return reply;
  }

  private async writeGroup(checks: WriterCheck[], receivedAt: number): Promise<WriterReply> {
    let client: pg.PoolClient;
    try {
      client = await this.take();
    } catch (err) {
      return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
    }
    let begun = false;
    /** the connection is not fit to go back to the pool */
    let broken: Error | undefined;
    try {
      const now = new Date();
      const managed = checks.filter((c) => c.userId !== null);
      const enrolments = new Map<string, LiveEnrolment>();
      const recent = new Map<string, Array<{ status: VerificationStatus; createdAt: Date }>>();
      if (managed.length > 0) {
        begun = true;
        const users = managed.map((c) => ({ businessId: c.businessId, livemode: true, externalUserId: c.userId! }));
        const read = readGroupStatement(users, new Date(now.getTime() - THROTTLE_WINDOW_MS), THROTTLE_FAILURES);
        // BEGIN and the reads in one round trip. Each is answered (or fails) on its own: both are awaited.
        const [began, readResult] = await Promise.allSettled(inOneWrite(client, () => [client.query('begin'), query(client, read)]));
        for (const result of [began, readResult]) if (result.status === 'rejected') throw result.reason;
        const rows = (readResult as PromiseFulfilledResult<Rows>).value;
        const r = columns(rows, ['kind', 'id', 'business_id', 'external_user_id', 'secret_enc', 'algorithm', 'digits', 'period', 'status', 'created_at'] as const);
        for (const row of rows.rows) {
          const key = userKey(row[r.business_id] as string, true, row[r.external_user_id] as string);
          if (row[r.kind] === 'enr') {
            enrolments.set(key, { id: row[r.id], external_user_id: row[r.external_user_id], secret_enc: row[r.secret_enc], algorithm: row[r.algorithm], digits: row[r.digits], period: row[r.period] } as LiveEnrolment);
            continue;
          }
          let list = recent.get(key);
          if (!list) recent.set(key, (list = []));
          // Newest first, at most THROTTLE_FAILURES a user (the function's own limit).
          list.push({ status: row[r.status] as VerificationStatus, createdAt: row[r.created_at] as Date });
        }
      }

      const { drafts, outcomes } = decideLiveGroup(checks, enrolments, recent, this.box, now);
      if (drafts.length === 0) {
        if (begun) await client.query('commit');
        begun = false;
        return { kind: 'written', now: now.getTime(), outcomes };
      }

      const amounts = liveAmounts(drafts, PAISE_PER_VERIFICATION);
      const write = recordGroupStatement(liveColumns(drafts, amounts, performance.now() - receivedAt), CROSSING_LINES, now);
      // A group that read nothing (stateless checks only) has not begun: BEGIN goes in the same round trip.
      const sending = inOneWrite(client, () => [...(begun ? [] : [client.query('begin')]), query(client, write), client.query('commit')]);
      begun = true;
      const settled = await Promise.allSettled(sending);
      const [wrote, committed] = settled.slice(-2) as [PromiseSettledResult<Rows>, PromiseSettledResult<pg.QueryResult>];
      // No SQLSTATE: the connection failed with the write or its COMMIT unanswered, and the COMMIT
      // may have run. (So may the write on its own, had a BEGIN sent with it failed.)
      const unanswered = settled.find((r, i): r is PromiseRejectedResult => r.status === 'rejected' && (!(r.reason as { code?: string }).code || i < settled.length - 2));
      if (unanswered) {
        broken = unanswered.reason as Error;
        throw new GroupOutcomeUnknown(checks.map((c) => c.id), unanswered.reason);
      }
      begun = false;
      if (wrote.status === 'rejected') {
        // The failed write ended the transaction's use; the COMMIT behind it rolled it back. Nothing is kept.
        const refusal = groupWriteRefusal(wrote.reason);
        if (refusal) return { kind: 'refused', ...refusal };
        throw wrote.reason;
      }
      if (committed.status === 'rejected') throw committed.reason;
      if (committed.value.command !== 'COMMIT') throw new Error(`the group's COMMIT was answered ${committed.value.command}: nothing was kept`);
      // Committed: whatever fails from here must never be taken for "nothing kept".
      try {
        const written = wrote.value;
        const w = columns(written, ['kind', 'id', 'balance_paise'] as const);
        const advanced = new Set<string>();
        const balances = new Map<string, number>();
        for (const row of written.rows) {
          if (row[w.kind] === 'adv') advanced.add(row[w.id] as string);
          // Each answer carries the balance right after its own charge: from the balance before the debit.
          else if (row[w.kind] === 'deb') balances.set(row[w.id] as string, Number(row[w.balance_paise]) + amounts.get(row[w.id] as string)!);
        }
        for (const id of amounts.keys()) if (!balances.has(id)) throw new Error(`business ${id} was not debited`);
        // A guard that did not advance (another request took this step first): recorded as a replay.
        for (const d of drafts) if (d.guard && !advanced.has(d.guard.enrolmentId)) d.status = 'replayed';
        settleLiveGroup(drafts, outcomes, balances, PAISE_PER_VERIFICATION);
        return { kind: 'written', now: now.getTime(), outcomes };
      } catch (err) {
        throw new GroupCommitted(err);
      }
    } catch (err) {
      if (err instanceof GroupOutcomeUnknown || err instanceof GroupCommitted) throw err;
      // A failed statement has left the transaction to be rolled back; ROLLBACK then only warns on a dead connection.
      if (begun) await client.query('rollback').catch((e: Error) => (broken = e));
      return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
    } finally {
      this.keep(client, broken);
    }
  }
}

/**
 * A round trip's queries in one write. pg writes each query as it is submitted: a system call
 * apiece, and PostgreSQL reads and answers each before it sees the next. Corked, the socket sends
 * them together (pg's own cork around each query nests inside this one).
 */
function inOneWrite<T>(client: pg.PoolClient, send: () => T): T {
  const socket = (client as unknown as { connection?: { stream?: Writable } }).connection?.stream;
  socket?.cork();
  try {
    return send();
  } finally {
    socket?.uncork();
  }
}

/** A bound statement, prepared on this connection the first time it is sent there; rows as arrays. */
function query(client: pg.PoolClient, statement: BoundStatement): Promise<Rows> {
  return client.query({ name: statement.name, text: statement.text, values: statement.values, rowMode: 'array' }) as unknown as Promise<Rows>;
}
