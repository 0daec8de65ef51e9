/**
 * The SQLite statements of a group of checks, shared by the event loop's careful path (repo.ts)
 * and the SQLite writer thread (sqlite-writer.worker.ts), which must write exactly the same rows.
 * A group's reads bind its values once, as one JSON array (json_each): one call for the whole
 * group instead of one per check.
 */

import type { ReplayGuard } from './decide';

/**
 * The columns a check reads (not the timestamps, which it does not need), and the row's rowid for
 * the replay guard (SQLITE_ADVANCE_STEP).
 */
const ENROLMENT_COLUMNS = 'e.rowid as row_id, e.id, e.business_id, e.external_user_id, e.secret_enc, e.algorithm, e.digits, e.period, e.last_used_step, e.purpose, e.livemode';

/** The group's users: one JSON array of [business_id, livemode (1/0, as SQLite stores it), user_id]. */
export const SQLITE_ENROLMENTS = `select ${ENROLMENT_COLUMNS} from json_each(?) as u
  join enrolment as e on e.business_id = u.value ->> 0 and e.livemode = u.value ->> 1 and e.external_user_id = u.value ->> 2`;

// Per user (the index of the JSON array), the newest `limit` checks inside the window, newest
// first; a replayed code is the right code sent again (a double submit), not a guess. Times are
// milliseconds: a failure in a success's millisecond sorts as the newer (the safe side), else the
// throttle could take the success among the newest and let one more guess through.
export const SQLITE_RECENT_CHECKS = `select k, status, created_at from (
    select u.key as k, v.status, v.created_at, row_number() over (partition by u.key order by v.created_at desc, v.status = 'verified') as n
    from json_each(?) as u
    -- The user's index by name: (business, mode, created_at) matches as many terms, and the
    -- planner, without statistics, took it and read every check of the business in the window.
    join totp_verification as v indexed by verification_user_time_idx on v.business_id = u.value ->> 0 and v.external_user_id = u.value ->> 2
    where v.livemode = u.value ->> 1 and v.created_at >= ? and v.status != 'replayed'
  ) where n <= ? order by k, created_at desc, status = 'verified'`;

// The two writes go one row per statement. A statement that changes several rows and could fail
// part-way keeps a statement journal (each page's old content, in a temporary file) so that it can
// be undone alone, and RETURNING gathers its rows in a temporary table. Measured with 400,000
// enrolments and random users, per check: the replay guard 9.3-10.2 us as one json_each statement
// against 3.4-3.8 us one row at a time, the records 8.8-9.6 against 4.2-4.5 us. The group stays one
// transaction; the reads stay one statement per group (they keep no journal).

/**
 * RFC 6238 §5.2, the replay guard for one enrolment: (step, updated_at, rowid or null, id, id,
 * step); changes 1 when it advanced. The row is found by the rowid the group's read returned
 * (SQLITE_ENROLMENTS), not through the index of the random `id`s: with 400,000 enrolments that
 * index is ~4,000 pages, so each guard read a page SQLite's cache did not hold. Without a rowid
 * (an enrolment read some other way), by `id`; `id = ?` also holds the rowid to the same row.
 */
export const SQLITE_ADVANCE_STEP = `update enrolment set last_used_step = ?, updated_at = ?
  where rowid = ifnull(?, (select rowid from enrolment where id = ?)) and id = ? and (last_used_step is null or last_used_step < ?)`;

/** SQLITE_ADVANCE_STEP's values. */
export function sqliteAdvanceStepRow(guard: ReplayGuard, at: string): unknown[] {
  return [guard.step, at, guard.rowId ?? null, guard.enrolmentId, guard.enrolmentId, guard.step];
}

/** One check's record, as the array sqliteVerificationRow() makes. */
export const SQLITE_INSERT_VERIFICATION = `insert into totp_verification
    (id, business_id, external_user_id, mode, method, purpose, status, cost_paise, response_time_ms, created_at, livemode)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export interface SqliteVerification {
  id: string;
  businessId: string;
  externalUserId: string | null;
  mode: string;
  method: string;
  purpose: string | null;
  status: string;
  costPaise: number;
  responseTimeMs: number;
  createdAt: Date;
  livemode: boolean;
}

export function sqliteVerificationRow(v: SqliteVerification): unknown[] {
  return [v.id, v.businessId, v.externalUserId, v.mode, v.method, v.purpose, v.status, v.costPaise, v.responseTimeMs, v.createdAt.toISOString(), v.livemode ? 1 : 0];
}

/**
 * One business's debit for its checks of the group, only if the balance covers all of it
 * (amount, updated_at, id, amount): no row when it cannot pay. As the careful path's debit
 * (repo.debitBalance) returns: the new balance, the auto-refill settings, live endpoints.
 */
export const SQLITE_DEBIT = `update business set balance_paise = balance_paise - ?, updated_at = ?
  where id = ? and balance_paise >= ?
  returning balance_paise, auto_refill_enabled, auto_refill_threshold_paise, auto_refill_pack_id,
    exists (select 1 from webhook where webhook.business_id = business.id and webhook.is_active = 1 and webhook.livemode = 1) as has_webhooks`;
