import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Every statement here is an idempotent delete (or update) of rows past a cut-off: two instances
 * running it at once only race to remove the same rows, never anything else.
 */
const removed = (result: { numDeletedRows: bigint } | { numUpdatedRows: bigint }) =>
  Number('numDeletedRows' in result ? result.numDeletedRows : result.numUpdatedRows);

/**
 * Payment references whose 24-hour window has passed and that nobody submitted a payment for.
 * A reference with a payment request stays: the request (and its ledger entry) points at it.
 */
export async function deleteExpiredPaymentReferences(db: Executor, now: Date): Promise<number> {
  return removed(
    await db
      .deleteFrom('payment_reference')
      .where('expires_at', '<', now)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('payment_request').select('payment_request.id').whereRef('payment_request.reference_id', '=', 'payment_reference.id'))))
      .executeTakeFirst(),
  );
}

/** Idempotency answers older than the window in which a client may retry (DESIGN: 24 h). */
export async function deleteIdempotencyRecordsBefore(db: Executor, cutoff: Date): Promise<number> {
  return removed(await db.deleteFrom('idempotency_record').where('created_at', '<', cutoff).executeTakeFirst());
}

/** better-auth's sessions past their expiry, and the admin MFA marks of sessions that are gone. */
export async function deleteExpiredSessions(db: Executor, now: Date): Promise<{ sessions: number; mfaSessions: number }> {
  const sessions = removed(await db.deleteFrom('session').where('expiresAt', '<', now).executeTakeFirst());
  const mfaSessions = removed(
    await db
      .deleteFrom('admin_mfa_session')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('session').select('session.id').whereRef('session.id', '=', 'admin_mfa_session.session_id'))))
      .executeTakeFirst(),
  );
  return { sessions, mfaSessions };
}

/** better-auth's own short-lived records (OIDC state, nonces) past their expiry. */
export async function deleteExpiredAuthVerifications(db: Executor, now: Date): Promise<number> {
  const result = await sql`delete from ${sql.table('verification')} where ${sql.ref('expiresAt')} < ${now}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Failed admin MFA attempts older than any throttle window that counts them. */
export async function deleteMfaAttemptsBefore(db: Executor, cutoff: Date): Promise<number> {
  return removed(await db.deleteFrom('admin_mfa_attempt').where('created_at', '<', cutoff).executeTakeFirst());
}

/**
 * Retention of verification details: the row (id, business, status, cost, time) stays, because
 * the ledger invariant sums its cost; who was checked and why (user id, purpose) is erased.
 */
export async function eraseVerificationDetailsBefore(db: Executor, cutoff: Date): Promise<number> {
  return removed(
    await db
      .updateTable('totp_verification')
      .set({ external_user_id: null, purpose: null })
      .where('created_at', '<', cutoff)
      .where((eb) => eb.or([eb('external_user_id', 'is not', null), eb('purpose', 'is not', null)]))
      .executeTakeFirst(),
  );
}

/** Finished webhook deliveries (and, by cascade, their attempts) older than the cut-off: their payloads name users. */
export async function deleteFinishedDeliveriesBefore(db: Executor, cutoff: Date): Promise<number> {
  return removed(
    await db
      .deleteFrom('webhook_delivery')
      .where('status', 'in', ['succeeded', 'exhausted', 'cancelled'])
      .where('created_at', '<', cutoff)
      .executeTakeFirst(),
  );
}

/**
 * PostgreSQL: one instance at a time runs a pass (the others skip it). The lock is held by the
 * connection running the pass and goes with it if the process dies.
 */
export async function withPostgresLeaderLock<T>(db: Kysely<Database>, key: number, work: (conn: Kysely<Database>) => Promise<T>): Promise<T | undefined> {
  return db.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${key}) as ok`.execute(conn);
    if (!got.rows[0]?.ok) return undefined;
    try {
      return await work(conn);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

/** Mails finished (sent, given up, turned off) before the cut-off, with their attempts; queued ones stay. */
export async function deleteFinishedMailsBefore(db: Executor, cutoff: Date): Promise<number> {
  const old = db.selectFrom('mail_outbox').select('id').where('status', 'in', ['sent', 'failed', 'suppressed']).where('updated_at', '<', cutoff);
  await db.deleteFrom('mail_attempt').where('mail_id', 'in', old).execute();
  return removed(await db.deleteFrom('mail_outbox').where('status', 'in', ['sent', 'failed', 'suppressed']).where('updated_at', '<', cutoff).executeTakeFirst());
}
