/**
 * A live group of checks read, decided and written in one synchronous call on one SQLite
 * connection: BEGIN IMMEDIATE, the two reads, the decisions (live-group.ts), the replay guard, the
 * records, one debit per business, COMMIT, with the statements of sqlite-group-sql.ts prepared
 * once. The writer thread (sqlite-writer.worker.ts) runs it on its own connection; the event
 * loop runs it on the main connection (SqliteLoopWriter), which skips the careful way's query
 * builder, promise chain and per-check objects. What needs the event loop's own work (a
 * business that cannot pay, a debit crossing a line, live webhook endpoints) it refuses by
 * rolling back, and the group is written again the careful way.
 */
import type SQLite from 'better-sqlite3';
import { LOW_BALANCE_THRESHOLD_PAISE, PAISE_PER_VERIFICATION } from '@common/pricing';
import type { EnrolmentTable, VerificationStatus } from '../../db/types';
import type { SecretBox } from '../../lib/crypto';
import { crossesALine, THROTTLE_FAILURES, THROTTLE_WINDOW_MS } from './decide';
import { decideLiveGroup, liveAmounts, type LiveEnrolment, userKey, settleLiveGroup, type WriterCheck, type WriterReply } from './live-group';
import { SQLITE_ADVANCE_STEP, sqliteAdvanceStepRow, SQLITE_DEBIT, SQLITE_ENROLMENTS, SQLITE_INSERT_VERIFICATION, SQLITE_RECENT_CHECKS, sqliteVerificationRow } from './sqlite-group-sql';

/** A connection to prepare on: better-sqlite3's own, or the main connection's statement cache. */
export interface GroupConnection {
  prepare(sql: string): SQLite.Statement;
  readonly inTransaction: boolean;
}

/** The columns a check needs (SQLITE_ENROLMENTS reads a few more). */
type EnrolmentRow = LiveEnrolment & Pick<EnrolmentTable, 'business_id'>;

interface DebitRow {
  balance_paise: number;
  auto_refill_threshold_paise: number | null;
  has_webhooks: number;
}

/** The group write for this connection, its statements prepared once. */
export function createLiveGroupWrite(connection: GroupConnection, box: SecretBox): (checks: WriterCheck[], receivedAt: number) => WriterReply {
  const statements = {
    begin: connection.prepare('BEGIN IMMEDIATE'),
    commit: connection.prepare('COMMIT'),
    rollback: connection.prepare('ROLLBACK'),
    enrolments: connection.prepare(SQLITE_ENROLMENTS),
    recent: connection.prepare(SQLITE_RECENT_CHECKS),
    advance: connection.prepare(SQLITE_ADVANCE_STEP),
    insert: connection.prepare(SQLITE_INSERT_VERIFICATION),
    debit: connection.prepare(SQLITE_DEBIT),
  };

  return function writeLiveGroup(checks: WriterCheck[], receivedAt: number): WriterReply {
    const now = new Date();
    const nowMs = now.getTime();
    // Someone else's transaction on this connection: nothing is touched (it is not ours to end).
    if (connection.inTransaction) return { kind: 'failed', message: 'the connection is inside another transaction' };
    let began = false;
    try {
      // SQLITE_BUSY after the busy timeout is answered as a failure too, not a crash.
      statements.begin.run();
      began = true;
      // The reads: the enrolments of the group's users, then the throttle history of those found.
      const managed = checks.filter((c) => c.userId !== null);
      const enrolments = new Map<string, EnrolmentRow>();
      if (managed.length > 0) {
        for (const row of statements.enrolments.all(JSON.stringify(managed.map((c) => [c.businessId, 1, c.userId]))) as EnrolmentRow[]) {
          enrolments.set(userKey(row.business_id, true, row.external_user_id), row);
        }
      }
      const found = managed.filter((c) => enrolments.has(userKey(c.businessId, true, c.userId!)));
      const recent = new Map<string, Array<{ status: VerificationStatus; createdAt: Date }>>();
      if (found.length > 0) {
        const since = new Date(nowMs - THROTTLE_WINDOW_MS).toISOString();
        const rows = statements.recent.all(JSON.stringify(found.map((c) => [c.businessId, 1, c.userId])), since, THROTTLE_FAILURES) as Array<{ k: number; status: VerificationStatus; created_at: string }>;
        for (const row of rows) {
          const c = found[row.k]!;
          const key = userKey(c.businessId, true, c.userId!);
          const list = recent.get(key) ?? [];
          list.push({ status: row.status, createdAt: new Date(row.created_at) });
          recent.set(key, list);
        }
      }

      // The decisions, before any write.
      const { drafts, outcomes } = decideLiveGroup(checks, enrolments, recent, box, now);
      if (drafts.length === 0) {
        statements.commit.run();
        return { kind: 'written', now: nowMs, outcomes };
      }

      // The writes: the replay guard, the records, one debit per business.
      const at = now.toISOString();
      // A guard that did not advance (another request took this step first) makes the check a replay.
      for (const d of drafts) if (d.guard && statements.advance.run(sqliteAdvanceStepRow(d.guard, at)).changes !== 1) d.status = 'replayed';
      const onThreadMs = performance.now() - receivedAt;
      for (const d of drafts) {
        statements.insert.run(
          sqliteVerificationRow({
            id: d.check.id,
            businessId: d.check.businessId,
            externalUserId: d.externalUserId,
            mode: d.check.secret !== null ? 'stateless' : 'managed',
            method: 'totp',
            purpose: d.check.purpose,
            status: d.status,
            costPaise: PAISE_PER_VERIFICATION,
            responseTimeMs: Math.round((d.check.elapsedMs + onThreadMs) * 100) / 100,
            createdAt: now,
            livemode: true,
          }),
        );
      }
      const amounts = liveAmounts(drafts, PAISE_PER_VERIFICATION);
      const balances = new Map<string, number>();
      // In id order, as every writer takes them.
      for (const businessId of [...amounts.keys()].sort()) {
        const amount = amounts.get(businessId)!;
        const row = statements.debit.get(amount, at, businessId, amount) as DebitRow | undefined;
        const lines = [LOW_BALANCE_THRESHOLD_PAISE, PAISE_PER_VERIFICATION];
        if (row?.auto_refill_threshold_paise != null) lines.push(row.auto_refill_threshold_paise);
        if (!row || row.has_webhooks || crossesALine(row.balance_paise, amount, lines)) {
          statements.rollback.run();
          return { kind: 'refused', reason: row ? 'needs_careful_path' : 'cannot_pay', businessId };
        }
        // Each answer carries the balance right after its own charge.
        balances.set(businessId, row.balance_paise + amount);
      }
      settleLiveGroup(drafts, outcomes, balances, PAISE_PER_VERIFICATION);
      statements.commit.run();
      return { kind: 'written', now: nowMs, outcomes };
    } catch (err) {
      if (began && connection.inTransaction) statements.rollback.run();
      return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
    }
  };
}
