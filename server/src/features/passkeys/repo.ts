import type { Kysely, Selectable, Transaction } from 'kysely';
import { fromJson, toBoolean, toDate, toDateOrNull, toJson, toNumber } from '../../db/normalize';
import type { Database, PasskeyTable } from '../../db/types';

export type Executor = Kysely<Database> | Transaction<Database>;

export interface PasskeyRow {
  id: string;
  userId: string;
  name: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  prfSupported: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

function toRow(row: Selectable<PasskeyTable>): PasskeyRow {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: toNumber(row.counter),
    transports: fromJson<string[]>(row.transports),
    deviceType: row.device_type === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    backedUp: toBoolean(row.backed_up),
    prfSupported: toBoolean(row.prf_supported),
    createdAt: toDate(row.created_at),
    lastUsedAt: toDateOrNull(row.last_used_at),
  };
}

export async function listForUser(db: Executor, userId: string): Promise<PasskeyRow[]> {
  const rows = await db.selectFrom('passkey').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
  return rows.map(toRow);
}

export async function findByCredentialId(db: Executor, credentialId: string): Promise<PasskeyRow | undefined> {
  const row = await db.selectFrom('passkey').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
  return row && toRow(row);
}

export async function findForUser(db: Executor, userId: string, id: string): Promise<PasskeyRow | undefined> {
  const row = await db.selectFrom('passkey').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row && toRow(row);
}

export async function insertPasskey(db: Executor, p: PasskeyRow): Promise<void> {
  await db
    .insertInto('passkey')
    .values({
      id: p.id,
      user_id: p.userId,
      name: p.name,
      credential_id: p.credentialId,
      public_key: p.publicKey,
      counter: p.counter,
      transports: toJson(p.transports),
      device_type: p.deviceType,
      backed_up: p.backedUp,
      prf_supported: p.prfSupported,
      created_at: p.createdAt,
      last_used_at: p.lastUsedAt,
    })
    .execute();
}

export async function rename(db: Executor, userId: string, id: string, name: string): Promise<boolean> {
  const result = await db.updateTable('passkey').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function remove(db: Executor, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('passkey').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Records a use. The counter only moves forward, and only from the value this check read: two
 * assertions racing with the same counter cannot both be recorded (a cloned authenticator shows).
 */
export async function recordUse(db: Executor, id: string, previousCounter: number, newCounter: number, backedUp: boolean, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('passkey')
    .set({ counter: newCounter, backed_up: backedUp, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', previousCounter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** When the sign-in session began (better-auth's row). */
export async function sessionCreatedAt(db: Executor, sessionId: string): Promise<Date | null> {
  const row = await db.selectFrom('session').select('createdAt').where('id', '=', sessionId).executeTakeFirst();
  return row ? toDate(row.createdAt) : null;
}

// --- challenges ------------------------------------------------------------------------------

export type ChallengePurpose = 'register' | 'sign_in' | 'admin_mfa';

export interface ChallengeBinding {
  userId?: string | null;
  sessionId?: string | null;
  ceremonyId?: string | null;
}

export async function insertChallenge(db: Executor, challenge: string, purpose: ChallengePurpose, binding: ChallengeBinding, expiresAt: Date, now: Date): Promise<void> {
  // Expired ceremonies are cleared as new ones begin: the table holds only what is in flight.
  await db.deleteFrom('webauthn_challenge').where('expires_at', '<', now).execute();
  await db
    .insertInto('webauthn_challenge')
    .values({
      challenge,
      purpose,
      user_id: binding.userId ?? null,
      session_id: binding.sessionId ?? null,
      ceremony_id: binding.ceremonyId ?? null,
      expires_at: expiresAt,
      created_at: now,
    })
    .execute();
}

/**
 * Uses a challenge up: deletes it if it exists, is unexpired, has this purpose and this binding.
 * The delete is the single-use guarantee: of two requests carrying it, one deletes the row.
 */
export async function consumeChallenge(db: Executor, challenge: string, purpose: ChallengePurpose, binding: ChallengeBinding, now: Date): Promise<boolean> {
  let query = db.deleteFrom('webauthn_challenge').where('challenge', '=', challenge).where('purpose', '=', purpose).where('expires_at', '>', now);
  query = binding.userId ? query.where('user_id', '=', binding.userId) : query.where('user_id', 'is', null);
  query = binding.sessionId ? query.where('session_id', '=', binding.sessionId) : query.where('session_id', 'is', null);
  query = binding.ceremonyId ? query.where('ceremony_id', '=', binding.ceremonyId) : query.where('ceremony_id', 'is', null);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
