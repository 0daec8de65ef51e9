import { paiseToDecimalString, verificationsForPaise } from '@common/pricing';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { insertAuditEntry } from '../audit/repo';
import { invalidateApiKeys } from '../business/api-keys';
import * as businessRepo from '../business/repo';
import { listLedger } from '../credits/repo';
import { grantCredits } from '../credits/service';
import * as usersRepo from '../users/repo';
import type { Actor } from '../users/service';
import * as repo from './repo';

const view = (b: repo.BusinessRow) => ({
  id: b.id,
  companyName: b.companyName,
  ownerUserId: b.ownerUserId,
  ownerEmail: b.ownerEmail,
  ownerStatus: b.ownerBanned ? ('banned' as const) : ('active' as const),
  balance: paiseToDecimalString(b.balancePaise),
  verificationsLeft: verificationsForPaise(b.balancePaise),
  rateLimitPerMinute: b.rateLimitPerMinute,
  apiKey: b.apiKey && { prefix: b.apiKey.prefix, createdAt: b.apiKey.createdAt.toISOString(), lastUsedAt: b.apiKey.lastUsedAt?.toISOString() ?? null },
  suspended: b.suspendedAt ? { at: b.suspendedAt.toISOString(), reason: b.suspendedReason ?? '' } : null,
  createdAt: b.createdAt.toISOString(),
});

async function load(ctx: AppContext, id: string) {
  const [row] = await repo.searchBusinesses(ctx.db, '', 1, id);
  if (!row) throw new AppError('not_found', 'No such business.');
  return row;
}

export async function search(ctx: AppContext, query: string, limit: number) {
  return { businesses: (await repo.searchBusinesses(ctx.db, query, limit)).map(view) };
}

export async function detail(ctx: AppContext, id: string) {
  const row = await load(ctx, id);
  const ledger = await listLedger(ctx.db, id, 50);
  return {
    business: view(row),
    ledger: ledger.map((e) => ({ id: e.id, kind: e.kind, amount: paiseToDecimalString(e.amountPaise), reason: e.reason, reference: e.reference, actor: e.actorLabel, createdAt: e.createdAt.toISOString() })),
  };
}

export async function grant(ctx: AppContext, id: string, input: { amountPaise: number; reason: string }, actor: Actor) {
  await load(ctx, id);
  const result = await grantCredits(ctx.db, { businessIdOrEmail: id, amountPaise: input.amountPaise, reason: input.reason }, actor);
  return { balance: paiseToDecimalString(result.balancePaise), verificationsLeft: verificationsForPaise(result.balancePaise) };
}

export async function setRateLimit(ctx: AppContext, id: string, perMinute: number, actor: Actor, now = new Date()) {
  const before = await load(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    await businessRepo.setRateLimit(trx, id, perMinute);
    await insertAuditEntry(trx, { actorUserId: actor.userId, actorLabel: actor.label, action: 'business.rate_limit_set', subjectType: 'business', subjectId: id, details: { from: before.rateLimitPerMinute, to: perMinute } }, now);
  });
  invalidateApiKeys(ctx);
  return { rateLimitPerMinute: perMinute };
}

/** Suspending stops the business's API key at once (the key lookup refuses it); restoring lets it work again. */
export async function setSuspended(ctx: AppContext, id: string, suspension: { reason: string } | null, actor: Actor, now = new Date()) {
  const before = await load(ctx, id);
  if (suspension && before.suspendedAt) throw new AppError('conflict', 'This business is already suspended.');
  if (!suspension && !before.suspendedAt) throw new AppError('conflict', 'This business is not suspended.');
  await ctx.db.transaction().execute(async (trx) => {
    await businessRepo.setSuspended(trx, id, suspension ? { at: now, reason: suspension.reason } : null);
    await insertAuditEntry(
      trx,
      { actorUserId: actor.userId, actorLabel: actor.label, action: suspension ? 'business.suspended' : 'business.restored', subjectType: 'business', subjectId: id, details: suspension ? { reason: suspension.reason } : {} },
      now,
    );
  });
  invalidateApiKeys(ctx);
  return { business: view(await load(ctx, id)) };
}

/** Banning signs the user out everywhere, keeps them from signing in and stops their business's API key. */
export async function setBanned(ctx: AppContext, userId: string, ban: { reason: string } | null, actor: Actor, now = new Date()) {
  const user = await usersRepo.findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_found', 'No such user.');
  if (user.email === ctx.config.adminEmail) throw new AppError('conflict', 'The administrator account cannot be banned.');
  await ctx.db.transaction().execute(async (trx) => {
    await repo.setUserBanned(trx, userId, ban, now);
    if (ban) await repo.deleteSessionsOf(trx, userId);
    await insertAuditEntry(
      trx,
      { actorUserId: actor.userId, actorLabel: actor.label, action: ban ? 'user.banned' : 'user.unbanned', subjectType: 'user', subjectId: userId, details: { email: user.email, ...(ban ? { reason: ban.reason } : {}) } },
      now,
    );
  });
  invalidateApiKeys(ctx);
  return { user: { id: user.id, email: user.email, status: ban ? ('banned' as const) : ('active' as const) } };
}
