import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { toBoolean, toDate, toDateOrNull, toNumber } from '../../db/normalize';
import { preparedQuery } from '../../db/prepared';
import type { BusinessTable, Database, Dialect } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface Business {
  id: string;
  ownerUserId: string;
  companyName: string;
  balancePaise: number;
  rateLimitPerMinute: number;
  lowBalanceNotified: boolean;
  autoRefill: { enabled: boolean; thresholdPaise: number | null; packId: string | null };
  createdAt: Date;
  /** API access suspended by the administrator (every /api/v1 call answers 403 `suspended`) */
  suspended: { at: Date; reason: string } | null;
}

export function toBusiness(row: Selectable<BusinessTable>): Business {
  return {
    id: row.id,
    ownerUserId: row.owner_user_id,
    companyName: row.company_name,
    balancePaise: toNumber(row.balance_paise),
    rateLimitPerMinute: toNumber(row.rate_limit_per_minute),
    lowBalanceNotified: toBoolean(row.low_balance_notified),
    autoRefill: {
      enabled: toBoolean(row.auto_refill_enabled),
      thresholdPaise: row.auto_refill_threshold_paise === null ? null : toNumber(row.auto_refill_threshold_paise),
      packId: row.auto_refill_pack_id,
    },
    createdAt: toDate(row.created_at),
    suspended: row.suspended_at ? { at: toDate(row.suspended_at), reason: row.suspended_reason ?? '' } : null,
  };
}

export async function insertBusiness(
  db: Executor,
  values: { id: string; ownerUserId: string; companyName: string; rateLimitPerMinute: number; now: Date },
): Promise<void> {
  await db
    .insertInto('business')
    .values({
      id: values.id,
      owner_user_id: values.ownerUserId,
      company_name: values.companyName,
      balance_paise: 0,
      rate_limit_per_minute: values.rateLimitPerMinute,
      low_balance_notified: false,
      auto_refill_enabled: false,
      auto_refill_threshold_paise: null,
      auto_refill_pack_id: null,
      created_at: values.now,
      updated_at: values.now,
    })
    .execute();
}

export async function findBusinessByOwner(db: Executor, ownerUserId: string): Promise<Business | undefined> {
  const row = await db.selectFrom('business').selectAll().where('owner_user_id', '=', ownerUserId).executeTakeFirst();
  return row && toBusiness(row);
}

export async function findBusinessById(db: Executor, id: string): Promise<Business | undefined> {
  const row = await db.selectFrom('business').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toBusiness(row);
}

export async function updateAutoRefill(
  db: Executor,
  id: string,
  settings: { enabled: boolean; thresholdPaise: number | null; packId: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('business')
    .set({
      auto_refill_enabled: settings.enabled,
      auto_refill_threshold_paise: settings.thresholdPaise,
      auto_refill_pack_id: settings.packId,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function setRateLimit(db: Executor, id: string, perMinute: number): Promise<void> {
  await db.updateTable('business').set({ rate_limit_per_minute: perMinute }).where('id', '=', id).execute();
}

// --- API keys -------------------------------------------------------------------------------

export interface ApiKeyInfo {
  id: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export async function insertApiKey(
  db: Executor,
  values: { id: string; businessId: string; prefix: string; hash: string; livemode: boolean; now: Date },
): Promise<void> {
  await db
    .insertInto('api_key')
    .values({
      id: values.id,
      livemode: values.livemode,
      business_id: values.businessId,
      prefix: values.prefix,
      key_hash: values.hash,
      created_at: values.now,
      revoked_at: null,
      last_used_at: null,
    })
    .execute();
}

/** Revokes the active keys of one mode; the other mode's key keeps working. */
export async function revokeActiveApiKeys(db: Executor, businessId: string, livemode: boolean, now: Date): Promise<void> {
  await db
    .updateTable('api_key')
    .set({ revoked_at: now })
    .where('business_id', '=', businessId)
    .where('livemode', '=', livemode)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function findActiveApiKey(db: Executor, businessId: string, livemode: boolean): Promise<ApiKeyInfo | undefined> {
  const row = await db
    .selectFrom('api_key')
    .select(['id', 'prefix', 'created_at', 'last_used_at'])
    .where('business_id', '=', businessId)
    .where('livemode', '=', livemode)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row && { id: row.id, prefix: row.prefix, createdAt: toDate(row.created_at), lastUsedAt: toDateOrNull(row.last_used_at) };
}

const selectBusinessByKeyHash = preparedQuery((db, hash: string) =>
  db
    .selectFrom('api_key')
    .innerJoin('business', 'business.id', 'api_key.business_id')
    // A removed owner takes the key with them; a banned one is refused by the caller.
    .innerJoin('user', 'user.id', 'business.owner_user_id')
    .selectAll('business')
    .select(['api_key.id as key_id', 'api_key.livemode as key_livemode', 'user.banned as owner_banned'])
    .where('api_key.key_hash', '=', hash)
    .where('api_key.revoked_at', 'is', null),
);

/**
 * The hot path of every public API call: one indexed lookup by hash. The one place a key becomes
 * a business, so whatever stops a key (revocation, suspension, the owner banned or removed) is
 * decided here.
 */
export async function findBusinessByApiKeyHash(
  db: Executor,
  hash: string,
): Promise<{ keyId: string; business: Business; ownerBanned: boolean; livemode: boolean } | undefined> {
  const [row] = (await selectBusinessByKeyHash(db, hash)).rows;
  if (!row) return undefined;
  const { key_id, key_livemode, owner_banned, ...business } = row;
  return { keyId: key_id, business: toBusiness(business), ownerBanned: toBoolean(owner_banned ?? false), livemode: toBoolean(key_livemode) };
}

export async function setSuspended(db: Executor, id: string, suspension: { at: Date; reason: string } | null): Promise<boolean> {
  const result = await db
    .updateTable('business')
    .set({ suspended_at: suspension?.at ?? null, suspended_reason: suspension?.reason ?? null, updated_at: suspension?.at ?? new Date() })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function touchApiKey(db: Executor, keyId: string, now: Date): Promise<void> {
  await db.updateTable('api_key').set({ last_used_at: now }).where('id', '=', keyId).execute();
}

// --- dashboard statistics -------------------------------------------------------------------

export interface PeriodStats {
  total: number;
  verified: number;
  failed: number;
  costPaise: number;
  avgResponseMs: number;
}

export async function periodStats(db: Executor, businessId: string, livemode: boolean, since: Date): Promise<PeriodStats> {
  const row = await db
    .selectFrom('totp_verification')
    .select((eb) => [
      eb.fn.countAll().as('total'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'verified').then(1).else(0).end()).as('verified'),
      eb.fn.sum<number>('cost_paise').as('cost'),
      eb.fn.avg<number>('response_time_ms').as('avg_ms'),
    ])
    .where('business_id', '=', businessId)
    .where('livemode', '=', livemode)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  const total = toNumber(row.total);
  const verified = toNumber(row.verified);
  return { total, verified, failed: total - verified, costPaise: toNumber(row.cost), avgResponseMs: toNumber(row.avg_ms) };
}

export async function dailyCounts(
  db: Executor,
  dialect: Dialect,
  businessId: string,
  livemode: boolean,
  since: Date,
): Promise<Array<{ day: string; total: number; verified: number }>> {
  // ISO-8601 text on SQLite starts with the UTC date; PostgreSQL formats it in UTC.
  const day = dialect === 'sqlite' ? sql<string>`substr(created_at, 1, 10)` : sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('totp_verification')
    .select((eb) => [
      day.as('day'),
      eb.fn.countAll().as('total'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'verified').then(1).else(0).end()).as('verified'),
    ])
    .where('business_id', '=', businessId)
    .where('livemode', '=', livemode)
    .where('created_at', '>=', since)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return rows.map((r) => ({ day: r.day, total: toNumber(r.total), verified: toNumber(r.verified) }));
}
