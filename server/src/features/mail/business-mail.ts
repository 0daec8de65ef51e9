import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { queueMail } from './outbox';
import * as repo from './repo';

type Executor = Kysely<Database> | Transaction<Database>;

const DAY_MS = 86_400_000;

/**
 * The owner's mail when a verification takes the balance under the low-balance line, or to zero
 * (called from the check's transaction only on the debit that crossed, like `credit.low`). The
 * low-balance mail goes at most once in 24 hours per business: a balance hovering around the line
 * (top-up, spend, top-up) would otherwise mail on every crossing. The day's dedupe key is the
 * last guard should two crossings ever commit together.
 */
export async function queueBalanceMail(
  trx: Executor,
  businessId: string,
  template: 'balance_low' | 'balance_depleted',
  figures: { balancePaise?: number; thresholdPaise?: number },
  now: Date,
): Promise<void> {
  const business = await repo.businessForMail(trx, businessId);
  if (!business) return;
  if (template === 'balance_low') {
    if (await repo.mailedSince(trx, business.ownerUserId, `balance_low:${businessId}:`, new Date(now.getTime() - DAY_MS))) return;
    await queueMail(trx, {
      to: { userId: business.ownerUserId },
      template,
      data: { companyName: business.companyName, balancePaise: figures.balancePaise ?? 0, thresholdPaise: figures.thresholdPaise ?? 0 },
      dedupeKey: `balance_low:${businessId}:${now.toISOString().slice(0, 10)}`,
      now,
    });
    return;
  }
  await queueMail(trx, { to: { userId: business.ownerUserId }, template, data: { companyName: business.companyName }, now });
}

/** The owner's mail when an endpoint is switched off after a day of failures (in that transaction). */
export async function queueWebhookDisabledMail(trx: Executor, webhookId: string, url: string, reason: string, now: Date): Promise<void> {
  const owner = await repo.webhookOwner(trx, webhookId);
  if (!owner) return;
  await queueMail(trx, { to: { userId: owner.ownerUserId }, template: 'webhook_disabled', data: { url, reason }, now });
}
