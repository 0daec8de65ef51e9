import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
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

export interface UserSearchRow extends UserRow {
  banned: boolean;
  businessId: string | null;
  companyName: string | null;
  balancePaise: number | null;
  apiKeyPrefix: string | null;
  lastActiveAt: Date | null;
}

/**
 * Users for the admin's search: matches e-mail, name, user id, business name or business id,
 * case-insensitively (LOWER on both engines; `%`, `_` and `\` in the query match themselves).
 */
export async function searchUsers(db: Executor, query: string, limit: number): Promise<UserSearchRow[]> {
  const needle = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let q = db
    .selectFrom('user')
    .leftJoin('business', 'business.owner_user_id', 'user.id')
    // The live key: a business also has a test key, which would double the row.
    .leftJoin('api_key', (join) => join.onRef('api_key.business_id', '=', 'business.id').on('api_key.revoked_at', 'is', null).on('api_key.livemode', '=', true))
    .select([
      'user.id',
      'user.email',
      'user.name',
      'user.firstName',
      'user.lastName',
      'user.image',
      'user.role',
      'user.createdAt',
      'user.banned',
      'business.id as business_id',
      'business.company_name',
      'business.balance_paise',
      'api_key.prefix as api_key_prefix',
    ])
    .select((eb) =>
      eb.selectFrom('session').select((s) => s.fn.max('session.updatedAt').as('last')).whereRef('session.userId', '=', 'user.id').as('last_active'),
    )
    .orderBy('user.createdAt', 'desc')
    .limit(limit);
  if (query) {
    q = q.where((eb) =>
      eb.or(
        ['user.email', 'user.name', 'user.id', 'business.company_name', 'business.id'].map((column) =>
          sql<boolean>`lower(${sql.ref(column)}) like ${needle} escape '\\'`,
        ),
      ),
    );
  }
  const rows = await q.execute();
  return rows.map((row) => ({
    ...toUserRow(row),
    banned: Boolean(row.banned),
    businessId: row.business_id ?? null,
    companyName: row.company_name ?? null,
    balancePaise: row.balance_paise === null || row.balance_paise === undefined ? null : Number(row.balance_paise),
    apiKeyPrefix: row.api_key_prefix ?? null,
    lastActiveAt: row.last_active ? toDate(row.last_active) : null,
  }));
}
