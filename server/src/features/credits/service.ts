import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import * as businessRepo from '../business/repo';
import { findUserByEmail } from '../users/repo';
import type { Actor } from '../users/service';
import * as repo from './repo';

/** ₹1,00,00,000 (one crore) per grant: anything bigger is a typo, not a top-up. */
const MAX_GRANT_PAISE = 1_000_000_000;

export async function resolveBusiness(db: Kysely<Database>, businessIdOrEmail: string): Promise<businessRepo.Business> {
  const business = businessIdOrEmail.includes('@')
    ? await findUserByEmail(db, businessIdOrEmail).then((u) => (u ? businessRepo.findBusinessByOwner(db, u.id) : undefined))
    : await businessRepo.findBusinessById(db, businessIdOrEmail);
  if (!business) throw new AppError('not_found', `No business for "${businessIdOrEmail}".`);
  return business;
}

/** An operator's credit grant: ledger row, balance and audit entry in one transaction. */
export async function grantCredits(
  db: Kysely<Database>,
  input: { businessIdOrEmail: string; amountPaise: number; reason: string },
  actor: Actor,
  now = new Date(),
): Promise<{ business: businessRepo.Business; balancePaise: number; entryId: string }> {
  if (!Number.isSafeInteger(input.amountPaise) || input.amountPaise <= 0 || input.amountPaise > MAX_GRANT_PAISE) {
    throw new AppError('validation_failed', 'The amount must be a positive number of rupees, at most ₹1,00,00,000, with at most two decimals.');
  }
  const reason = input.reason.trim();
  if (!reason) throw new AppError('validation_failed', 'A reason is required for a credit grant.');
  const business = await resolveBusiness(db, input.businessIdOrEmail);
  const entryId = newId('led');
  const balancePaise = await db.transaction().execute(async (trx) => {
    const balance = await repo.appendCredit(
      trx,
      { id: entryId, businessId: business.id, amountPaise: input.amountPaise, kind: 'grant', reference: null, reason, actorLabel: actor.label },
      now,
    );
    await insertAuditEntry(
      trx,
      {
        actorUserId: actor.userId,
        actorLabel: actor.label,
        action: 'credits.granted',
        subjectType: 'business',
        subjectId: business.id,
        details: { amount_paise: input.amountPaise, reason, ledger_entry_id: entryId, balance_after_paise: balance },
      },
      now,
    );
    return balance;
  });
  return { business, balancePaise, entryId };
}
