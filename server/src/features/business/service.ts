import type { ApiMode, BusinessDashboard, BusinessProfile } from '@common/contract/business';
import { LOW_BALANCE_THRESHOLD_PAISE, getTopUpPack, paiseToDecimalString, verificationsForPaise } from '@common/pricing';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import { afterSettingsSaved, autoRefillView, checkCanEnable } from '../autorefill/service';
import type { CurrentUser } from '../auth/service';
import { listRecentVerifications } from '../verify/repo';
import { generateApiKey, invalidateApiKeys } from './api-keys';
import * as repo from './repo';

export async function toProfile(ctx: AppContext, business: repo.Business): Promise<BusinessProfile> {
  const [key, testKey] = await Promise.all([repo.findActiveApiKey(ctx.db, business.id, true), repo.findActiveApiKey(ctx.db, business.id, false)]);
  const verificationsLeft = verificationsForPaise(business.balancePaise);
  return {
    id: business.id,
    companyName: business.companyName,
    balance: paiseToDecimalString(business.balancePaise),
    balancePaise: business.balancePaise,
    credits: verificationsLeft,
    verificationsLeft,
    lowBalance: business.balancePaise < LOW_BALANCE_THRESHOLD_PAISE,
    rateLimitPerMinute: business.rateLimitPerMinute,
    apiKeyPrefix: key?.prefix ?? null,
    apiKeyCreatedAt: key?.createdAt.toISOString() ?? null,
    apiKeyLastUsedAt: key?.lastUsedAt?.toISOString() ?? null,
    testApiKeyPrefix: testKey?.prefix ?? null,
    testApiKeyCreatedAt: testKey?.createdAt.toISOString() ?? null,
    testApiKeyLastUsedAt: testKey?.lastUsedAt?.toISOString() ?? null,
    testRateLimitPerMinute: ctx.config.testKeyRateLimitPerMinute,
    autoRefill: await autoRefillView(ctx, business),
    createdAt: business.createdAt.toISOString(),
  };
}

export async function requireBusiness(ctx: AppContext, user: CurrentUser): Promise<repo.Business> {
  const business = await repo.findBusinessByOwner(ctx.db, user.id);
  if (!business) throw new AppError('not_found', 'You have no business account yet.');
  return business;
}

/** One business per user; its first live and test keys are made with it and shown once. */
export async function createBusiness(
  ctx: AppContext,
  user: CurrentUser,
  companyName: string,
  now = new Date(),
): Promise<{ profile: BusinessProfile; apiKey: string; testApiKey: string }> {
  const name = companyName.trim();
  if (!name) throw new AppError('validation_failed', 'Company Name Required: Please enter your company name.');
  if (await repo.findBusinessByOwner(ctx.db, user.id)) {
    throw new AppError('conflict', 'You already have a business account.');
  }
  const id = newId('biz');
  const key = generateApiKey(true);
  const testKey = generateApiKey(false);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertBusiness(trx, { id, ownerUserId: user.id, companyName: name, rateLimitPerMinute: ctx.config.apiRateLimitPerMinute, now });
      await repo.insertApiKey(trx, { id: newId('key'), businessId: id, prefix: key.prefix, hash: key.hash, livemode: true, now });
      await repo.insertApiKey(trx, { id: newId('key'), businessId: id, prefix: testKey.prefix, hash: testKey.hash, livemode: false, now });
      await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'business.created', subjectType: 'business', subjectId: id, details: { company_name: name } }, now);
    });
  } catch (err) {
    // Two tabs racing: the unique owner index lets exactly one win.
    if (await repo.findBusinessByOwner(ctx.db, user.id)) throw new AppError('conflict', 'You already have a business account.');
    throw err;
  }
  const business = (await repo.findBusinessById(ctx.db, id))!;
  return { profile: await toProfile(ctx, business), apiKey: key.key, testApiKey: testKey.key };
}

/**
 * Revokes the active key of one mode and returns its replacement (shown once); the other mode's
 * key keeps working. A business made before test mode gets its first test key this way.
 */
export async function regenerateApiKey(
  ctx: AppContext,
  user: CurrentUser,
  impersonatedBy: string | null,
  mode: ApiMode = 'live',
  now = new Date(),
): Promise<{ apiKey: string; prefix: string; mode: ApiMode }> {
  if (impersonatedBy) throw new AppError('impersonation_forbidden', 'API keys cannot be regenerated while impersonating a user.');
  const business = await requireBusiness(ctx, user);
  const livemode = mode === 'live';
  const key = generateApiKey(livemode);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.revokeActiveApiKeys(trx, business.id, livemode, now);
    await repo.insertApiKey(trx, { id: newId('key'), businessId: business.id, prefix: key.prefix, hash: key.hash, livemode, now });
    await insertAuditEntry(
      trx,
      { actorUserId: user.id, actorLabel: user.email, action: 'api_key.regenerated', subjectType: 'business', subjectId: business.id, details: { prefix: key.prefix, mode } },
      now,
    );
  });
  invalidateApiKeys(ctx);
  return { apiKey: key.key, prefix: key.prefix, mode };
}

export async function updateAutoRefill(
  ctx: AppContext,
  user: CurrentUser,
  settings: { enabled: boolean; thresholdPaise: number; packId: string },
  now = new Date(),
): Promise<BusinessProfile> {
  const business = await requireBusiness(ctx, user);
  if (!getTopUpPack(settings.packId)) throw new AppError('validation_failed', `Unknown top-up pack "${settings.packId}".`);
  if (settings.enabled) await checkCanEnable(ctx, business.id);
  await repo.updateAutoRefill(ctx.db, business.id, settings, now);
  await afterSettingsSaved(ctx, business.id, settings.enabled);
  return toProfile(ctx, (await repo.findBusinessById(ctx.db, business.id))!);
}

const DAY_MS = 86_400_000;

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The dashboard's figures for one mode's data: live by default, test when asked. */
export async function dashboard(ctx: AppContext, user: CurrentUser, mode: ApiMode = 'live', now = new Date()): Promise<BusinessDashboard> {
  const business = await requireBusiness(ctx, user);
  const livemode = mode === 'live';
  const today = startOfUtcDay(now);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const chartStart = new Date(today.getTime() - 29 * DAY_MS);
  const [todayStats, monthStats, daily, recent] = await Promise.all([
    repo.periodStats(ctx.db, business.id, livemode, today),
    repo.periodStats(ctx.db, business.id, livemode, monthStart),
    repo.dailyCounts(ctx.db, ctx.database.dialect, business.id, livemode, chartStart),
    listRecentVerifications(ctx.db, business.id, livemode, 20),
  ]);
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const series = Array.from({ length: 30 }, (_, i) => {
    const day = new Date(chartStart.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const found = byDay.get(day);
    return { date: day, total: found?.total ?? 0, verified: found?.verified ?? 0, failed: (found?.total ?? 0) - (found?.verified ?? 0) };
  });
  const rate = (s: repo.PeriodStats) => (s.total === 0 ? 0 : Math.round((s.verified / s.total) * 1000) / 10);
  return {
    stats: {
      today: {
        totalRequests: todayStats.total,
        successRate: rate(todayStats),
        avgResponseTime: Math.round(todayStats.avgResponseMs * 10) / 10,
        failedVerifications: todayStats.failed,
      },
      month: {
        totalRequests: monthStats.total,
        successfulVerifications: monthStats.verified,
        totalCost: paiseToDecimalString(monthStats.costPaise),
        avgResponseTime: Math.round(monthStats.avgResponseMs * 10) / 10,
      },
      daily: series,
    },
    recentVerifications: recent.map((v) => ({
      id: v.id,
      isVerified: v.status === 'verified',
      status: v.status,
      userId: v.externalUserId,
      purpose: v.purpose,
      createdAt: v.createdAt.toISOString(),
      responseTime: v.responseTimeMs,
      cost: paiseToDecimalString(v.costPaise),
    })),
    mode,
  };
}
