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

/** The kinds of device a person has signed in from (new-device.ts). */
export async function knownDeviceKeys(db: Kysely<Database> | Transaction<Database>, userId: string): Promise<string[]> {
  return (await db.selectFrom('known_device').select('device_key').where('user_id', '=', userId).execute()).map((d) => d.device_key);
}

export async function touchKnownDevice(db: Kysely<Database> | Transaction<Database>, userId: string, key: string, now: Date): Promise<void> {
  await db.updateTable('known_device').set({ last_seen_at: now }).where('user_id', '=', userId).where('device_key', '=', key).execute();
}

/** False when another sign-in recorded it first. */
export async function insertKnownDevice(db: Kysely<Database> | Transaction<Database>, userId: string, key: string, now: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('known_device')
    .values({ user_id: userId, device_key: key, first_seen_at: now, last_seen_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'device_key']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
}
