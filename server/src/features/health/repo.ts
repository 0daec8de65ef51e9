import { sql, type Kysely, type Transaction } from 'kysely';
import { toDate } from '../../db/normalize';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}

export async function beat(db: Executor, name: string, now: Date): Promise<void> {
  const updated = await db.updateTable('service_heartbeat').set({ beat_at: now }).where('name', '=', name).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db.insertInto('service_heartbeat').values({ name, beat_at: now }).onConflict((oc) => oc.column('name').doUpdateSet({ beat_at: now })).execute();
}

/** The latest beat of any instance whose name starts with `prefix`. */
export async function lastBeat(db: Executor, prefix: string): Promise<Date | null> {
  const row = await db.selectFrom('service_heartbeat').select((eb) => eb.fn.max('beat_at').as('at')).where('name', 'like', `${prefix}%`).executeTakeFirst();
  return row?.at ? toDate(row.at) : null;
}
