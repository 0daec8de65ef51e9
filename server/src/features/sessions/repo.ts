import type { Kysely, Transaction } from 'kysely';
import { toDate } from '../../db/normalize';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface SessionRow {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Date;
  updatedAt: Date;
  secondFactorPending: boolean;
}

/** The person's own live sessions (not an administrator's impersonation of them), newest first. */
export async function listUserSessions(db: Executor, userId: string, now: Date): Promise<SessionRow[]> {
  const rows = await db
    .selectFrom('session')
    .select(['id', 'userAgent', 'ipAddress', 'createdAt', 'updatedAt', 'secondFactorPending'])
    .where('userId', '=', userId)
    .where('impersonatedBy', 'is', null)
    .where('expiresAt', '>', now)
    .orderBy('updatedAt', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userAgent: r.userAgent,
    ipAddress: r.ipAddress,
    createdAt: toDate(r.createdAt),
    updatedAt: toDate(r.updatedAt),
    secondFactorPending: Boolean(r.secondFactorPending),
  }));
}

export async function deleteUserSession(db: Executor, userId: string, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom('session').where('id', '=', sessionId).where('userId', '=', userId).where('impersonatedBy', 'is', null).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** "Last seen": better-auth writes updatedAt once a day; we move it at most every few minutes. */
export async function touchSession(db: Executor, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('session').set({ updatedAt: now }).where('id', '=', sessionId).execute();
}
