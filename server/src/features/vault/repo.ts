import { SqliteAdapter, type Kysely, type Transaction } from 'kysely';
import { toDate, toNumber } from '../../db/normalize';
import type { Database } from '../../db/types';

type Executor = Kysely<Database> | Transaction<Database>;

export interface VaultRow {
  userId: string;
  vaultId: string;
  format: number;
  headerVersion: number;
  slots: string;
  revision: number;
}

export interface VaultEntryRow {
  id: string;
  version: number;
  ciphertext: string | null;
  revision: number;
  updatedAt: Date;
}

/** `forUpdate` (PostgreSQL) serialises the person's writes; SQLite's one writer already does. */
export async function findVault(db: Executor, userId: string, forUpdate = false): Promise<VaultRow | undefined> {
  let query = db.selectFrom('vault').selectAll().where('user_id', '=', userId);
  if (forUpdate && !(db.getExecutor().adapter instanceof SqliteAdapter)) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      vaultId: row.vault_id,
      format: toNumber(row.format),
      headerVersion: toNumber(row.header_version),
      slots: row.slots,
      revision: toNumber(row.revision),
    }
  );
}

export async function insertVault(db: Executor, vault: VaultRow, now: Date): Promise<void> {
  await db
    .insertInto('vault')
    .values({
      user_id: vault.userId,
      vault_id: vault.vaultId,
      format: vault.format,
      header_version: vault.headerVersion,
      slots: vault.slots,
      revision: vault.revision,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** Moves the revision on by one if it still is `from`; answers whether it did. */
export async function bumpRevision(db: Executor, userId: string, from: number, now: Date): Promise<boolean> {
  const result = await db.updateTable('vault').set({ revision: from + 1, updated_at: now }).where('user_id', '=', userId).where('revision', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function updateSlots(db: Executor, userId: string, fromVersion: number, slots: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('vault')
    .set({ slots, header_version: fromVersion + 1, updated_at: now })
    .where('user_id', '=', userId)
    .where('header_version', '=', fromVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteVault(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('vault_entry').where('user_id', '=', userId).execute();
  await db.deleteFrom('vault').where('user_id', '=', userId).execute();
}

export async function listEntries(db: Executor, userId: string, sinceRevision: number): Promise<VaultEntryRow[]> {
  const rows = await db.selectFrom('vault_entry').selectAll().where('user_id', '=', userId).where('revision', '>', sinceRevision).orderBy('revision').orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, version: toNumber(row.version), ciphertext: row.ciphertext, revision: toNumber(row.revision), updatedAt: toDate(row.updated_at) }));
}

export async function findEntry(db: Executor, userId: string, id: string): Promise<{ version: number; deleted: boolean } | undefined> {
  const row = await db.selectFrom('vault_entry').select(['version', 'ciphertext']).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return row && { version: toNumber(row.version), deleted: row.ciphertext === null };
}

export async function countLiveEntries(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('vault_entry')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('ciphertext', 'is not', null)
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

export async function insertEntry(db: Executor, userId: string, entry: { id: string; version: number; ciphertext: string | null; revision: number }, now: Date): Promise<void> {
  await db
    .insertInto('vault_entry')
    .values({ user_id: userId, id: entry.id, version: entry.version, ciphertext: entry.ciphertext, revision: entry.revision, updated_at: now })
    .execute();
}

/** Writes version `from + 1` if the entry still is at `from`; answers whether it did. */
export async function updateEntry(db: Executor, userId: string, id: string, from: number, ciphertext: string | null, revision: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('vault_entry')
    .set({ version: from + 1, ciphertext, revision, updated_at: now })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('version', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countLegacyAccounts(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('authenticator_account')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

export async function deleteLegacyAccounts(db: Executor, userId: string): Promise<number> {
  const result = await db.deleteFrom('authenticator_account').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
