import type { Kysely, Transaction } from 'kysely';
import { fromJson, toBoolean, toDate, toJson, toNumber } from '../../db/normalize';
import type { Database, Dialect, MailStatus } from '../../db/types';
import type { StoredAttachmentJson } from './outbox';

type Executor = Kysely<Database> | Transaction<Database>;

export async function emailOf(db: Executor, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('user').select('email').where('id', '=', userId).executeTakeFirst();
  return row?.email;
}

export interface NewMail {
  id: string;
  userId: string | null;
  to: string;
  category: string;
  template: string;
  data: unknown;
  attachments: StoredAttachmentJson[];
  dedupeKey: string | null;
  now: Date;
}

/** False when a mail with the same dedupe key exists already. */
export async function insertMail(db: Executor, m: NewMail): Promise<boolean> {
  const result = await db
    .insertInto('mail_outbox')
    .values({
      id: m.id,
      user_id: m.userId,
      to_address: m.to,
      category: m.category,
      template: m.template,
      data: toJson(m.data),
      attachments: toJson(m.attachments),
      dedupe_key: m.dedupeKey,
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: m.now,
      locked_until: null,
      last_error: null,
      created_at: m.now,
      updated_at: m.now,
      sent_at: null,
    })
    .$if(m.dedupeKey !== null, (q) => q.onConflict((oc) => oc.column('dedupe_key').doNothing()))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export interface ClaimedMail {
  id: string;
  userId: string | null;
  to: string;
  category: string;
  template: string;
  data: unknown;
  attachments: StoredAttachmentJson[];
  /** this attempt's number (counted at claim, so an attempt cut short by a crash still counts) */
  attemptNumber: number;
  createdAt: Date;
}

/**
 * Claims due mails: pending ones whose time has come, and ones a worker claimed but never finished
 * (its lease ran out: it died). On PostgreSQL, `FOR UPDATE SKIP LOCKED` lets instances claim side
 * by side without taking the same row twice; SQLite has one writer at a time.
 */
export async function claimDueMails(db: Kysely<Database>, dialect: Dialect, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]> {
  return db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom('mail_outbox')
      .select('id')
      .where((eb) =>
        eb.or([eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]), eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)])]),
      )
      .orderBy('next_attempt_at')
      .limit(limit);
    if (dialect === 'postgres') due = due.forUpdate().skipLocked();
    const ids = (await due.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    await trx
      .updateTable('mail_outbox')
      .set((eb) => ({ status: 'sending', locked_until: leaseUntil, updated_at: now, attempt_count: eb('attempt_count', '+', 1) }))
      .where('id', 'in', ids)
      .execute();
    const rows = await trx.selectFrom('mail_outbox').selectAll().where('id', 'in', ids).execute();
    return rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      to: r.to_address,
      category: r.category,
      template: r.template,
      data: fromJson(r.data),
      attachments: fromJson<StoredAttachmentJson[]>(r.attachments),
      attemptNumber: toNumber(r.attempt_count),
      createdAt: toDate(r.created_at),
    }));
  });
}

export interface MailOutcome {
  status: Extract<MailStatus, 'sent' | 'pending' | 'failed' | 'suppressed'>;
  retryAt: Date | null;
  /** the server's answer or the error */
  response: string | null;
}

/**
 * Records an attempt and moves the mail on. Only the claim that is still current may finish it:
 * if this worker overran its lease and another took the row, this write changes nothing.
 */
export async function finishMail(db: Kysely<Database>, mail: { id: string; attemptNumber: number }, outcome: MailOutcome, attemptId: string, now: Date): Promise<boolean> {
  const response = outcome.response?.slice(0, 500) ?? null;
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('mail_outbox')
      .set({
        status: outcome.status,
        next_attempt_at: outcome.retryAt ?? now,
        locked_until: null,
        last_error: outcome.status === 'sent' ? null : response,
        updated_at: now,
        ...(outcome.status === 'sent' ? { sent_at: now } : {}),
      })
      .where('id', '=', mail.id)
      .where('status', '=', 'sending')
      .where('attempt_count', '=', mail.attemptNumber)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    if (outcome.status !== 'suppressed') {
      await trx
        .insertInto('mail_attempt')
        .values({
          id: attemptId,
          mail_id: mail.id,
          attempt_number: mail.attemptNumber,
          outcome: outcome.status === 'sent' ? 'sent' : outcome.status === 'pending' ? 'retry' : 'failed',
          smtp_response: response,
          created_at: now,
        })
        .execute();
    }
    return true;
  });
}

/** Whether the person turned this category off (no row: on). */
export async function isCategoryEnabled(db: Executor, userId: string, category: string): Promise<boolean> {
  const row = await db.selectFrom('mail_preference').select('enabled').where('user_id', '=', userId).where('category', '=', category).executeTakeFirst();
  return row ? toBoolean(row.enabled) : true;
}

export async function preferencesOf(db: Executor, userId: string): Promise<Map<string, boolean>> {
  const rows = await db.selectFrom('mail_preference').select(['category', 'enabled']).where('user_id', '=', userId).execute();
  return new Map(rows.map((r) => [r.category, toBoolean(r.enabled)]));
}

export async function setPreference(db: Executor, userId: string, category: string, enabled: boolean, now: Date): Promise<void> {
  await db
    .insertInto('mail_preference')
    .values({ user_id: userId, category, enabled, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'category']).doUpdateSet({ enabled, updated_at: now }))
    .execute();
}
