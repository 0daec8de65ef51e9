import type { Kysely, Selectable, Transaction } from 'kysely';
import { fromJson, toDate, toDateOrNull } from '../../db/normalize';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface Impersonation {
  id: string;
  adminUserId: string;
  adminEmail: string;
  targetUserId: string;
  targetEmail: string;
  sessionId: string;
  reason: string;
  startedAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
}

function toImpersonation(row: Selectable<Database['impersonation']>): Impersonation {
  return {
    id: row.id,
    adminUserId: row.admin_user_id,
    adminEmail: row.admin_email,
    targetUserId: row.target_user_id,
    targetEmail: row.target_email,
    sessionId: row.session_id,
    reason: row.reason,
    startedAt: toDate(row.started_at),
    expiresAt: toDate(row.expires_at),
    endedAt: toDateOrNull(row.ended_at),
  };
}

export async function insertImpersonation(db: Executor, i: Omit<Impersonation, 'endedAt'>): Promise<void> {
  await db
    .insertInto('impersonation')
    .values({
      id: i.id,
      admin_user_id: i.adminUserId,
      admin_email: i.adminEmail,
      target_user_id: i.targetUserId,
      target_email: i.targetEmail,
      session_id: i.sessionId,
      reason: i.reason,
      started_at: i.startedAt,
      expires_at: i.expiresAt,
      ended_at: null,
    })
    .execute();
}

export async function findBySession(db: Executor, sessionId: string): Promise<Impersonation | undefined> {
  const row = await db.selectFrom('impersonation').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
  return row && toImpersonation(row);
}

/** Ends it once: false when it had already ended (a /stop and a sign-out racing write one entry). */
export async function markEnded(db: Executor, id: string, now: Date): Promise<boolean> {
  const result = await db.updateTable('impersonation').set({ ended_at: now }).where('id', '=', id).where('ended_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Closes the administrator's impersonations that are over without having been stopped: past
 * their expiry (closed at it), or whose session is gone (closed now, the user's notice shown).
 * Run before a start, so the one-live index only counts impersonations that still act.
 */
export async function closeStale(db: Executor, adminUserId: string, now: Date): Promise<void> {
  await db
    .updateTable('impersonation')
    .set((eb) => ({ ended_at: eb.ref('expires_at') }))
    .where('admin_user_id', '=', adminUserId)
    .where('ended_at', 'is', null)
    .where('expires_at', '<=', now)
    .execute();
  const orphaned = await db
    .selectFrom('impersonation')
    .select('id')
    .where('admin_user_id', '=', adminUserId)
    .where('ended_at', 'is', null)
    .where('session_id', 'not in', (eb) => eb.selectFrom('session').select('id'))
    .execute();
  for (const { id } of orphaned) {
    if (await markEnded(db, id, now)) await showNoticeNow(db, 'impersonation', id, now);
  }
}

/** The administrator's impersonation that is acting now (not ended, not expired, its session alive), if any. */
export async function findLive(db: Executor, adminUserId: string, now: Date): Promise<Impersonation | undefined> {
  const row = await db
    .selectFrom('impersonation')
    .selectAll()
    .where('admin_user_id', '=', adminUserId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .where('session_id', 'in', (eb) => eb.selectFrom('session').select('id'))
    .orderBy('started_at', 'desc')
    .executeTakeFirst();
  return row && toImpersonation(row);
}

/** Removes a library session that was made for an impersonation refused afterwards. */
export async function deleteSession(db: Executor, sessionId: string): Promise<void> {
  await db.deleteFrom('session').where('id', '=', sessionId).execute();
}

export interface Notice {
  id: string;
  kind: string;
  message: string;
  details: Record<string, unknown>;
  visibleFrom: Date;
  createdAt: Date;
  readAt: Date | null;
}

export async function insertNotice(
  db: Executor,
  n: { id: string; userId: string; kind: string; subjectId: string | null; message: string; details: Record<string, unknown>; visibleFrom: Date; now: Date },
): Promise<void> {
  await db
    .insertInto('user_notice')
    .values({
      id: n.id,
      user_id: n.userId,
      kind: n.kind,
      subject_id: n.subjectId,
      message: n.message,
      details: JSON.stringify(n.details),
      visible_from: n.visibleFrom,
      created_at: n.now,
      read_at: null,
    })
    .execute();
}

/** An impersonation's notice becomes visible when it ends (or at its expiry, whichever is first). */
export async function showNoticeNow(db: Executor, kind: string, subjectId: string, now: Date): Promise<void> {
  await db.updateTable('user_notice').set({ visible_from: now }).where('kind', '=', kind).where('subject_id', '=', subjectId).where('visible_from', '>', now).execute();
}

export async function listVisibleNotices(db: Executor, userId: string, now: Date, limit = 20): Promise<Notice[]> {
  const rows = await db
    .selectFrom('user_notice')
    .selectAll()
    .where('user_id', '=', userId)
    .where('visible_from', '<=', now)
    .orderBy('visible_from', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    message: r.message,
    details: fromJson<Record<string, unknown>>(r.details),
    visibleFrom: toDate(r.visible_from),
    createdAt: toDate(r.created_at),
    readAt: toDateOrNull(r.read_at),
  }));
}

export async function markNoticeRead(db: Executor, userId: string, id: string, now: Date): Promise<boolean> {
  const result = await db.updateTable('user_notice').set({ read_at: now }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
