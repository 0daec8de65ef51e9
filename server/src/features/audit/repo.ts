import type { Kysely, Transaction } from 'kysely';
import { toDate, fromJson, toJson } from '../../db/normalize';
import type { Database } from '../../db/types';
import { newId } from '../../lib/ids';

type Executor = Kysely<Database> | Transaction<Database>;

export interface AuditEntry {
  actorUserId: string | null;
  actorLabel: string;
  action: string;
  subjectType?: string | null;
  subjectId?: string | null;
  details?: Record<string, unknown>;
}

/** Append-only: there is no update or delete here on purpose. */
export async function insertAuditEntry(db: Executor, entry: AuditEntry, now = new Date()): Promise<string> {
  const id = newId('aud');
  await db
    .insertInto('audit_log')
    .values({
      id,
      actor_user_id: entry.actorUserId,
      actor_label: entry.actorLabel,
      action: entry.action,
      subject_type: entry.subjectType ?? null,
      subject_id: entry.subjectId ?? null,
      details: toJson(entry.details ?? {}),
      created_at: now,
    })
    .execute();
  return id;
}

export async function listAuditEntries(db: Executor, filter: { subjectId?: string; limit?: number } = {}) {
  let query = db.selectFrom('audit_log').selectAll().orderBy('created_at', 'desc').limit(filter.limit ?? 100);
  if (filter.subjectId) query = query.where('subject_id', '=', filter.subjectId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    actorUserId: row.actor_user_id,
    actorLabel: row.actor_label,
    action: row.action,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    details: fromJson<Record<string, unknown>>(row.details),
    createdAt: toDate(row.created_at),
  }));
}
