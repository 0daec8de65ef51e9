import type { Kysely, Transaction } from 'kysely';
import { toDate, toNumber } from '../../db/normalize';
import type { Database, LedgerKind } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface LedgerEntry {
  id: string;
  businessId: string;
  amountPaise: number;
  kind: LedgerKind;
  reference: string | null;
  reason: string | null;
  actorLabel: string;
  createdAt: Date;
}

/** Appends a credit and raises the cached balance, in the caller's transaction. */
export async function appendCredit(
  trx: Transaction<Database>,
  entry: Omit<LedgerEntry, 'createdAt'>,
  now: Date,
): Promise<number> {
  await trx
    .insertInto('ledger_entry')
    .values({
      id: entry.id,
      business_id: entry.businessId,
      amount_paise: entry.amountPaise,
      kind: entry.kind,
      reference: entry.reference,
      reason: entry.reason,
      actor_label: entry.actorLabel,
      created_at: now,
    })
    .execute();
  const row = await trx
    .updateTable('business')
    .set((eb) => ({ balance_paise: eb('balance_paise', '+', entry.amountPaise), updated_at: now }))
    .where('id', '=', entry.businessId)
    .returning('balance_paise')
    .executeTakeFirstOrThrow();
  return toNumber(row.balance_paise);
}

export async function listLedger(db: Executor, businessId: string, limit = 50): Promise<LedgerEntry[]> {
  const rows = await db
    .selectFrom('ledger_entry')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    businessId: r.business_id,
    amountPaise: toNumber(r.amount_paise),
    kind: r.kind,
    reference: r.reference,
    reason: r.reason,
    actorLabel: r.actor_label,
    createdAt: toDate(r.created_at),
  }));
}

export interface LedgerTotals {
  balancePaise: number;
  creditedPaise: number;
  spentPaise: number;
}

/** The numbers behind the invariant: balance = credited − cost of recorded live verifications. */
export async function ledgerTotals(db: Executor, businessId: string): Promise<LedgerTotals> {
  const [business, credited, spent] = await Promise.all([
    db.selectFrom('business').select('balance_paise').where('id', '=', businessId).executeTakeFirstOrThrow(),
    db.selectFrom('ledger_entry').select((eb) => eb.fn.sum<number>('amount_paise').as('sum')).where('business_id', '=', businessId).executeTakeFirstOrThrow(),
    // Live checks only: a test check costs 0 and never touches the balance.
    db
      .selectFrom('totp_verification')
      .select((eb) => eb.fn.sum<number>('cost_paise').as('sum'))
      .where('business_id', '=', businessId)
      .where('livemode', '=', true)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    balancePaise: toNumber(business.balance_paise),
    creditedPaise: toNumber(credited.sum),
    spentPaise: toNumber(spent.sum),
  };
}
