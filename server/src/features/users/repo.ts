import type { Kysely, Selectable, Transaction } from 'kysely';
import { toDate } from '../../db/normalize';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface UserRow {
  id: string;
  email: string;
  name: string;
  firstName: string | null;
  lastName: string | null;
  image: string | null;
  role: string;
  createdAt: Date;
}

const columns = ['id', 'email', 'name', 'firstName', 'lastName', 'image', 'role', 'createdAt'] as const;

function toUserRow(row: Pick<Selectable<Database['user']>, (typeof columns)[number]>): UserRow {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    firstName: row.firstName,
    lastName: row.lastName,
    image: row.image,
    role: row.role ?? 'user',
    createdAt: toDate(row.createdAt),
  };
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const row = await db.selectFrom('user').select(columns).where('email', '=', email.toLowerCase()).executeTakeFirst();
  return row && toUserRow(row);
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const row = await db.selectFrom('user').select(columns).where('id', '=', id).executeTakeFirst();
  return row && toUserRow(row);
}

export async function listUsers(db: Executor, options: { limit?: number } = {}): Promise<UserRow[]> {
  const rows = await db.selectFrom('user').select(columns).orderBy('createdAt', 'asc').limit(options.limit ?? 1000).execute();
  return rows.map(toUserRow);
}

export async function updateUserRole(db: Executor, id: string, role: string, now = new Date()): Promise<void> {
  await db.updateTable('user').set({ role, updatedAt: now }).where('id', '=', id).execute();
}
