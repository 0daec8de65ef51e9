import type { Kysely } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import * as repo from './repo';

/** A client may retry a request with its Idempotency-Key for this long (docs/product/api.md). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Longer than any throttle window that counts failed admin MFA attempts (15 minutes). */
export const MFA_ATTEMPT_TTL_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Finished mails are kept this long (what was sent to whom, for support), then deleted. */
export const MAIL_RETENTION_DAYS = 90;
/** pg_try_advisory_lock key of the upkeep pass ("sixdigit upkeep"). */
export const UPKEEP_LOCK_KEY = 0x5d_19_0c_01;

export interface UpkeepReport {
  paymentReferences: number;
  idempotencyRecords: number;
  sessions: number;
  mfaSessions: number;
  mfaAttempts: number;
  authVerifications: number;
  /** verifications older than the retention whose user id and purpose were erased (rows and costs stay) */
  verificationsErased: number;
  webhookDeliveries: number;
  /** finished mails older than MAIL_RETENTION_DAYS */
  mails: number;
}

async function pass(db: Kysely<Database>, now: Date, retentionDays: number): Promise<UpkeepReport> {
  const sessions = await repo.deleteExpiredSessions(db, now);
  const report: UpkeepReport = {
    paymentReferences: await repo.deleteExpiredPaymentReferences(db, now),
    idempotencyRecords: await repo.deleteIdempotencyRecordsBefore(db, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)),
    sessions: sessions.sessions,
    mfaSessions: sessions.mfaSessions,
    mfaAttempts: await repo.deleteMfaAttemptsBefore(db, new Date(now.getTime() - MFA_ATTEMPT_TTL_MS)),
    authVerifications: await repo.deleteExpiredAuthVerifications(db, now),
    verificationsErased: 0,
    webhookDeliveries: 0,
    mails: await repo.deleteFinishedMailsBefore(db, new Date(now.getTime() - MAIL_RETENTION_DAYS * DAY_MS)),
  };
  if (retentionDays > 0) {
    const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
    report.verificationsErased = await repo.eraseVerificationDetailsBefore(db, cutoff);
    report.webhookDeliveries = await repo.deleteFinishedDeliveriesBefore(db, cutoff);
  }
  return report;
}

/**
 * One upkeep pass. On PostgreSQL only the instance holding the advisory lock runs it (undefined
 * for the others); every statement is an idempotent delete past a cut-off either way, so a pass
 * that overlaps another (SQLite, several processes) removes nothing it should not.
 */
export async function runUpkeep(ctx: AppContext, now: Date = new Date()): Promise<UpkeepReport | undefined> {
  const retentionDays = ctx.config.upkeep.verificationRetentionDays;
  if (ctx.database.dialect === 'postgres') return repo.withPostgresLeaderLock(ctx.db, UPKEEP_LOCK_KEY, (conn) => pass(conn, now, retentionDays));
  return pass(ctx.db, now, retentionDays);
}
