import { paiseToDecimalString, verificationsForPaise } from '@common/pricing';
import type { AppContext } from '../../context';
import type { CurrentUser } from '../auth/service';
import * as businessRepo from '../business/repo';
import * as paymentsRepo from '../payments/repo';
import * as verifyRepo from '../verify/repo';
import * as webhooksRepo from '../webhooks/repo';

/** What Luna may say about the asker's own account — read for the signed-in user only. */
export interface AccountFacts {
  businessName: string;
  balance: string;
  verificationsLeft: number;
  apiKey: { prefix: string; lastUsedAt: string | null } | null;
  /** latest checks that did not verify, newest first */
  recentFailures: Array<{ status: string; userId: string | null; at: string }>;
  lastCheck: { status: string; at: string } | null;
  webhookFailures: Array<{ event: string; url: string; status: number | null; error: string | null; at: string }>;
  pendingPayments: Array<{ amount: string; reference: string; at: string }>;
}

export async function accountFacts(ctx: AppContext, user: CurrentUser): Promise<AccountFacts | null> {
  const business = await businessRepo.findBusinessByOwner(ctx.db, user.id);
  if (!business) return null;
  const [key, recent, logs, pending] = await Promise.all([
    // Live data: what Luna reports on is the account's real traffic.
    businessRepo.findActiveApiKey(ctx.db, business.id, true),
    verifyRepo.listRecentVerifications(ctx.db, business.id, true, 20),
    webhooksRepo.listLogs(ctx.db, business.id, true, 20),
    paymentsRepo.listPaymentRequests(ctx.db, { businessId: business.id, status: 'pending', limit: 5 }),
  ]);
  return {
    businessName: business.companyName,
    balance: paiseToDecimalString(business.balancePaise),
    verificationsLeft: verificationsForPaise(business.balancePaise),
    apiKey: key ? { prefix: key.prefix, lastUsedAt: key.lastUsedAt?.toISOString() ?? null } : null,
    recentFailures: recent
      .filter((v) => v.status !== 'verified')
      .slice(0, 5)
      .map((v) => ({ status: v.status, userId: v.externalUserId, at: v.createdAt.toISOString() })),
    lastCheck: recent[0] ? { status: recent[0].status, at: recent[0].createdAt.toISOString() } : null,
    webhookFailures: logs
      .filter((l) => l.responseStatus === null ? l.error !== null : l.responseStatus >= 300)
      .slice(0, 5)
      .map((l) => ({ event: l.event, url: l.webhookUrl, status: l.responseStatus, error: l.error, at: l.createdAt.toISOString() })),
    pendingPayments: pending.map((p) => ({ amount: paiseToDecimalString(p.amountPaise), reference: p.paymentReference, at: p.createdAt.toISOString() })),
  };
}
