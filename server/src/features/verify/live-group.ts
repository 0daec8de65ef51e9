/**
 * A live group of checks written in one go, whatever the engine: SQLite's one synchronous call
 * (sqlite-group-write.ts, on the event loop or its writer thread) and PostgreSQL's two messages
 * (pg-group-write.ts). The contract they share (a compact check in, a reply out) and the
 * decisions they share (the enrolment, the throttle, the code), so both write exactly the same
 * rows and answer exactly the same way. What needs the careful way (a business that cannot pay,
 * a debit crossing a line with a mail, an event or an auto-refill behind it, live webhook
 * endpoints) a writer refuses: nothing is kept and the caller writes the group the careful way.
 */
import type { EnrolmentTable, VerificationStatus } from '../../db/types';
import type { SecretBox } from '../../lib/crypto';
import { decideCode, decideStateless, encryptionContext, notEnrolled, type Refusal, type ReplayGuard, throttleRefusal } from './decide';

/** One check of a group, as a writer takes it (and as it crosses to SQLite's writer thread). */
export interface WriterCheck {
  /** the verification's id, made here: a group whose answer never came can be looked up */
  id: string;
  businessId: string;
  /** managed mode: the enrolled user; null in stateless mode */
  userId: string | null;
  /** the TOTP code (managed) or token (stateless) */
  code: string;
  /** stateless mode: the caller's secret */
  secret: string | null;
  window: number;
  purpose: string | null;
  /** ms since the request started, when the group was sent (threads have their own clocks: the thread adds its own time) */
  elapsedMs: number;
}

export type WriterOutcome = { status: VerificationStatus; balancePaise: number } | { refusal: Refusal };

export type WriterReply =
  /** committed: each check's outcome, in order, and the group's time */
  | { kind: 'written'; now: number; outcomes: WriterOutcome[] }
  /** rolled back, nothing kept: the group goes the careful way */
  | { kind: 'refused'; reason: 'cannot_pay' | 'needs_careful_path'; businessId: string | null }
  /** rolled back, nothing kept: an error (SQLITE_BUSY after the busy timeout, a full disk, a failed statement, …) */
  | { kind: 'failed'; message: string };

/** Who writes live groups in one go: SQLite's event loop or writer thread, or PostgreSQL's. */
export interface LiveGroupWriter {
  write(checks: WriterCheck[]): Promise<WriterReply>;
  /** Groups worth having in flight at once (GroupCommit's maxInFlight). */
  readonly inFlight: number;
  /** The fewest checks a group needs to start beside one in flight (GroupCommit's minToOverlap; default 1). */
  readonly minToOverlap?: number;
  /** Groups by how they were answered. */
  readonly counts: { written: number; refused: number; failed: number };
}

/** The columns of an enrolment a live check needs. */
export type LiveEnrolment = Pick<EnrolmentTable, 'id' | 'external_user_id' | 'secret_enc' | 'algorithm' | 'digits' | 'period'> & { row_id?: number | null };

/**
 * A check's (business, mode, user) as one map key: one user_id may be enrolled in both modes. The
 * careful way (repo.ts) and the writers key their reads by it; here, where SQLite's writer thread
 * can import it without the query builder.
 */
export function userKey(businessId: string, livemode: boolean, externalUserId: string): string {
  return `${businessId}\n${livemode ? 'live' : 'test'}\n${externalUserId}`;
}

/** A decided check that will be recorded. */
export interface LiveDraft {
  check: WriterCheck;
  index: number;
  status: VerificationStatus;
  externalUserId: string | null;
  /** the replay guard: this enrolment's last step must advance to `step` */
  guard: ReplayGuard | null;
}

/**
 * The group's decisions, before any write: a refusal (not enrolled, throttled) goes straight into
 * `outcomes`; every other check becomes a draft to record. `enrolments` and `recent` are keyed by
 * userKey(); `recent` holds each user's newest checks in the throttle window, newest first.
 */
export function decideLiveGroup(
  checks: WriterCheck[],
  enrolments: Map<string, LiveEnrolment>,
  recent: Map<string, Array<{ status: VerificationStatus; createdAt: Date }>>,
  box: SecretBox,
  now: Date,
): { drafts: LiveDraft[]; outcomes: WriterOutcome[] } {
  const nowMs = now.getTime();
  const outcomes: WriterOutcome[] = new Array(checks.length);
  const drafts: LiveDraft[] = [];
  for (const [index, check] of checks.entries()) {
    if (check.secret !== null) {
      drafts.push({ check, index, status: decideStateless(check.secret, check.code, check.window, nowMs).status, externalUserId: null, guard: null });
      continue;
    }
    const key = userKey(check.businessId, true, check.userId!);
    const enrolment = enrolments.get(key);
    if (!enrolment) {
      outcomes[index] = { refusal: notEnrolled(check.userId!) };
      continue;
    }
    const throttled = throttleRefusal(recent.get(key) ?? [], now);
    if (throttled) {
      outcomes[index] = { refusal: throttled };
      continue;
    }
    const secret = box.decrypt(enrolment.secret_enc, encryptionContext(check.businessId, check.userId!, true));
    const decided = decideCode(secret, check.code, enrolment, check.window, nowMs);
    const guard = decided.step === undefined ? null : { enrolmentId: enrolment.id, rowId: enrolment.row_id ?? null, step: decided.step };
    drafts.push({ check, index, status: decided.status, externalUserId: enrolment.external_user_id, guard });
  }
  return { drafts, outcomes };
}

/** What each business of the drafts is debited: one verification's price per check. */
export function liveAmounts(drafts: LiveDraft[], pricePaise: number): Map<string, number> {
  const amounts = new Map<string, number>();
  for (const d of drafts) amounts.set(d.check.businessId, (amounts.get(d.check.businessId) ?? 0) + pricePaise);
  return amounts;
}

/**
 * Each draft's outcome after the debits: `balances` holds each business's balance before its
 * debit; each answer carries the balance right after its own charge.
 */
export function settleLiveGroup(drafts: LiveDraft[], outcomes: WriterOutcome[], balances: Map<string, number>, pricePaise: number): void {
  for (const d of drafts) {
    const balance = balances.get(d.check.businessId)! - pricePaise;
    balances.set(d.check.businessId, balance);
    outcomes[d.index] = { status: d.status, balancePaise: balance };
  }
}
