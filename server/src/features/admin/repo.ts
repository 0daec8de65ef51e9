import { sql, type Kysely, type Transaction } from 'kysely';
import { toBoolean, toDate, toDateOrNull, toNumber } from '../../db/normalize';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface DashboardTotals {
  users: number;
  activeApiKeys: number;
  verificationsToday: number;
  revenueTodayPaise: number;
}

/** The admin dashboard's headline figures, counted from the rows themselves. */
export async function dashboardTotals(db: Executor, since: Date): Promise<DashboardTotals> {
  const [users, keys, verifications, revenue] = await Promise.all([
    db.selectFrom('user').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('api_key').select((eb) => eb.fn.countAll().as('n')).where('revoked_at', 'is', null).where('livemode', '=', true).executeTakeFirstOrThrow(),
    db.selectFrom('totp_verification').select((eb) => eb.fn.countAll().as('n')).where('created_at', '>=', since).where('livemode', '=', true).executeTakeFirstOrThrow(),
    // Money that came in: bank/UPI approvals and card payments are `top_up` ledger rows (grants are not revenue).
    db
      .selectFrom('ledger_entry')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_paise'), eb.val(0)).as('paise'))
      .where('kind', '=', 'top_up')
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    users: toNumber(users.n),
    activeApiKeys: toNumber(keys.n),
    verificationsToday: toNumber(verifications.n),
    revenueTodayPaise: toNumber(revenue.paise),
  };
}

/** Deliveries waiting to be made (pending or being delivered) and the oldest that is already due. */
export async function outboxStats(db: Executor, now: Date): Promise<{ depth: number; oldestDueAt: Date | null }> {
  const row = await db
    .selectFrom('webhook_delivery')
    .select((eb) => [eb.fn.countAll().as('n')])
    .where('status', 'in', ['pending', 'delivering'])
    .executeTakeFirstOrThrow();
  const oldest = await db
    .selectFrom('webhook_delivery')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('status', 'in', ['pending', 'delivering'])
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  return { depth: toNumber(row.n), oldestDueAt: oldest?.at ? toDate(oldest.at) : null };
}

export interface PaymentOverview {
  pending: number;
  approved: number;
  rejected: number;
  pendingPaise: number;
  avgProcessingSeconds: number | null;
}

export async function paymentOverview(db: Executor): Promise<PaymentOverview> {
  const rows = await db
    .selectFrom('payment_request')
    .select((eb) => ['status', eb.fn.countAll().as('n'), eb.fn.coalesce(eb.fn.sum<number>('amount_paise'), eb.val(0)).as('paise')])
    .groupBy('status')
    .execute();
  const processed = await db.selectFrom('payment_request').select(['created_at', 'processed_at']).where('processed_at', 'is not', null).orderBy('processed_at', 'desc').limit(500).execute();
  const count = (status: string) => toNumber(rows.find((r) => r.status === status)?.n ?? 0);
  const durations = processed.map((r) => (toDate(r.processed_at).getTime() - toDate(r.created_at).getTime()) / 1000);
  return {
    pending: count('pending'),
    approved: count('approved'),
    rejected: count('rejected'),
    pendingPaise: toNumber(rows.find((r) => r.status === 'pending')?.paise ?? 0),
    avgProcessingSeconds: durations.length ? Math.round(durations.reduce((a, b) => a + b, 0) / durations.length) : null,
  };
}

export async function listFinancialManagers(db: Executor): Promise<Array<{ id: string; email: string; name: string }>> {
  return db.selectFrom('user').select(['id', 'email', 'name']).where('role', '=', 'financial_manager').orderBy('email').execute();
}

export interface BusinessRow {
  id: string;
  companyName: string;
  ownerUserId: string;
  ownerEmail: string;
  ownerBanned: boolean;
  balancePaise: number;
  rateLimitPerMinute: number;
  suspendedAt: Date | null;
  suspendedReason: string | null;
  apiKey: { prefix: string; createdAt: Date; lastUsedAt: Date | null } | null;
  createdAt: Date;
}

/** Businesses for the admin: by company name, business id, owner e-mail or owner id (case-insensitive). */
export async function searchBusinesses(db: Executor, query: string, limit: number, onlyId?: string): Promise<BusinessRow[]> {
  const needle = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let q = db
    .selectFrom('business')
    .innerJoin('user', 'user.id', 'business.owner_user_id')
    // The live key: a business also has a test key, which would double the row.
    .leftJoin('api_key', (join) => join.onRef('api_key.business_id', '=', 'business.id').on('api_key.revoked_at', 'is', null).on('api_key.livemode', '=', true))
    .select([
      'business.id',
      'business.company_name',
      'business.owner_user_id',
      'business.balance_paise',
      'business.rate_limit_per_minute',
      'business.suspended_at',
      'business.suspended_reason',
      'business.created_at',
      'user.email',
      'user.banned',
      'api_key.prefix',
      'api_key.created_at as key_created_at',
      'api_key.last_used_at',
    ])
    .orderBy('business.created_at', 'desc')
    .limit(limit);
  if (onlyId) q = q.where('business.id', '=', onlyId);
  else if (query) {
    q = q.where((eb) =>
      eb.or(['business.company_name', 'business.id', 'user.email', 'user.id'].map((column) => sql<boolean>`lower(${sql.ref(column)}) like ${needle} escape '\\'`)),
    );
  }
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    companyName: r.company_name,
    ownerUserId: r.owner_user_id,
    ownerEmail: r.email,
    ownerBanned: toBoolean(r.banned ?? false),
    balancePaise: toNumber(r.balance_paise),
    rateLimitPerMinute: toNumber(r.rate_limit_per_minute),
    suspendedAt: toDateOrNull(r.suspended_at),
    suspendedReason: r.suspended_reason,
    apiKey: r.prefix ? { prefix: r.prefix, createdAt: toDate(r.key_created_at), lastUsedAt: toDateOrNull(r.last_used_at) } : null,
    createdAt: toDate(r.created_at),
  }));
}

export async function setUserBanned(db: Executor, userId: string, ban: { reason: string } | null, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('user')
    .set({ banned: ban !== null, banReason: ban?.reason ?? null, banExpires: null, updatedAt: now })
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Signs the user out everywhere (a banned user keeps no session). */
export async function deleteSessionsOf(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('session').where('userId', '=', userId).execute();
}
