import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
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

function toAuditRecord(row: Selectable<Database['audit_log']>) {
  return {
    id: row.id,
    actorUserId: row.actor_user_id,
    actorLabel: row.actor_label,
    action: row.action,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    details: fromJson<Record<string, unknown>>(row.details),
    createdAt: toDate(row.created_at),
  };
}

export async function listAuditEntries(db: Executor, filter: { subjectId?: string; limit?: number } = {}) {
  let query = db.selectFrom('audit_log').selectAll().orderBy('created_at', 'desc').limit(filter.limit ?? 100);
  if (filter.subjectId) query = query.where('subject_id', '=', filter.subjectId);
  const rows = await query.execute();
  return rows.map(toAuditRecord);
}

export interface AuditFilter {
  /** part of the actor's label (an e-mail, `cli:<user>`) or the actor's user id */
  actor?: string;
  /** an action, or a prefix ending in "." (e.g. `impersonation.`) */
  action?: string;
  /** the subject's id (a user, business or payment id) */
  target?: string;
  from?: Date;
  /** exclusive */
  to?: Date;
}

/** The admin's audit viewer and `audit:list`: filtered, newest first, paged, with the total. */
export async function searchAuditEntries(db: Executor, filter: AuditFilter, page: { offset: number; limit: number }) {
  let base = db.selectFrom('audit_log');
  if (filter.actor) {
    const needle = `%${filter.actor.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([sql<boolean>`lower(actor_label) like ${needle} escape '\\'`, eb('actor_user_id', '=', filter.actor!)]));
  }
  if (filter.action) base = filter.action.endsWith('.') ? base.where('action', 'like', `${filter.action.replace(/[\\%_]/g, '')}%`) : base.where('action', '=', filter.action);
  if (filter.target) base = base.where('subject_id', '=', filter.target);
  if (filter.from) base = base.where('created_at', '>=', filter.from);
  if (filter.to) base = base.where('created_at', '<', filter.to);
  const [{ n }] = [await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()];
  const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();
  return {
    total: Number(n),
    entries: rows.map(toAuditRecord),
  };
}
