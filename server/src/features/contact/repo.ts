import type { Kysely, Selectable, Transaction } from 'kysely';
import { toDate, toDateOrNull, toNumber } from '../../db/normalize';
import type { ContactCategory, ContactMessageTable, ContactStatus, Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface ContactMessage {
  id: string;
  reference: string;
  userId: string | null;
  email: string;
  companyName: string | null;
  category: ContactCategory;
  subject: string;
  message: string;
  status: ContactStatus;
  escalatedTo: 'luna' | 'admin' | null;
  lunaResponse: string | null;
  resolution: string | null;
  closedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

const toMessage = (r: Selectable<ContactMessageTable>): ContactMessage => ({
  id: r.id,
  reference: r.reference,
  userId: r.user_id,
  email: r.email,
  companyName: r.company_name,
  category: r.category,
  subject: r.subject,
  message: r.message,
  status: r.status,
  escalatedTo: r.escalated_to,
  lunaResponse: r.luna_response,
  resolution: r.resolution,
  closedBy: r.closed_by,
  createdAt: toDate(r.created_at),
  updatedAt: toDate(r.updated_at),
  closedAt: toDateOrNull(r.closed_at),
});

export async function insertMessage(db: Executor, m: Omit<ContactMessage, 'updatedAt' | 'closedAt' | 'closedBy' | 'resolution'>): Promise<void> {
  await db
    .insertInto('contact_message')
    .values({
      id: m.id,
      reference: m.reference,
      user_id: m.userId,
      email: m.email,
      company_name: m.companyName,
      category: m.category,
      subject: m.subject,
      message: m.message,
      status: m.status,
      escalated_to: m.escalatedTo,
      luna_response: m.lunaResponse,
      resolution: null,
      closed_by: null,
      created_at: m.createdAt,
      updated_at: m.createdAt,
      closed_at: null,
    })
    .execute();
}

export async function findById(db: Executor, id: string): Promise<ContactMessage | undefined> {
  const row = await db.selectFrom('contact_message').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toMessage(row);
}

export async function findByReference(db: Executor, reference: string): Promise<ContactMessage | undefined> {
  const row = await db.selectFrom('contact_message').selectAll().where('reference', '=', reference).executeTakeFirst();
  return row && toMessage(row);
}

export async function listForUser(db: Executor, userId: string, limit: number): Promise<ContactMessage[]> {
  const rows = await db.selectFrom('contact_message').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(limit).execute();
  return rows.map(toMessage);
}

export async function listByStatus(db: Executor, status: ContactStatus | 'all' | 'active', limit: number): Promise<ContactMessage[]> {
  let q = db.selectFrom('contact_message').selectAll().orderBy('created_at', 'desc').limit(limit);
  if (status === 'active') q = q.where('status', '!=', 'closed');
  else if (status !== 'all') q = q.where('status', '=', status);
  return (await q.execute()).map(toMessage);
}

export async function countSince(db: Executor, userId: string, since: Date): Promise<number> {
  const row = await db.selectFrom('contact_message').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).where('created_at', '>=', since).executeTakeFirstOrThrow();
  return toNumber(row.n);
}

/** Messages someone still has to act on: everything not closed. */
export async function countOpen(db: Executor): Promise<number> {
  const row = await db.selectFrom('contact_message').select((eb) => eb.fn.countAll().as('n')).where('status', '!=', 'closed').executeTakeFirstOrThrow();
  return toNumber(row.n);
}

/** Moves a message that is not closed; answers the updated row, or undefined when it was closed meanwhile. */
export async function transition(
  db: Executor,
  id: string,
  change: Partial<Pick<ContactMessageTable, 'status' | 'escalated_to' | 'luna_response' | 'resolution' | 'closed_by'>> & { closed_at?: Date },
  now: Date,
): Promise<ContactMessage | undefined> {
  const result = await db
    .updateTable('contact_message')
    .set({ ...change, updated_at: now })
    .where('id', '=', id)
    .where('status', '!=', 'closed')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return findById(db, id);
}
