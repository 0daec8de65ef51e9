import type { Kysely, Transaction } from 'kysely';
import { toNumber } from '../../db/normalize';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

/** Bank/UPI payment requests waiting on the financial desk. */
export async function pendingPaymentRequests(db: Executor): Promise<number> {
  const row = await db.selectFrom('payment_request').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
  return toNumber(row.n);
}
