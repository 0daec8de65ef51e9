import type { CreateVaultBody, PutEntryBody, PutKeysBody, VaultEntry, VaultHeader, VaultKeySlot, VaultState } from '@common/contract/vault';
import { MAX_VAULT_ENTRIES } from '@common/contract/vault';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { insertAuditEntry } from '../audit/repo';
import type { CurrentUser } from '../auth/service';
import * as repo from './repo';

/**
 * The end-to-end encrypted authenticator vault. The server never sees a key or a secret: it
 * stores what the browser sends, checks versions (so two devices cannot overwrite each other
 * unseen), and scopes everything by the signed-in person.
 */

type CreateVault = Omit<CreateVaultBody, 'entries' | 'replaceLegacyAccounts'> & { entries: { id: string; ciphertext: string }[]; replaceLegacyAccounts: boolean };

function header(row: repo.VaultRow): VaultHeader {
  return { vaultId: row.vaultId, format: 1, version: row.headerVersion, slots: JSON.parse(row.slots) as VaultKeySlot[] };
}

const toEntry = (row: repo.VaultEntryRow): VaultEntry => ({ id: row.id, version: row.version, ciphertext: row.ciphertext, revision: row.revision, updatedAt: row.updatedAt.toISOString() });

const noVault = () => new AppError('not_found', 'You have no authenticator vault yet. Create it first.');

function versionConflict(current: number, what: string): AppError {
  return new AppError('version_conflict', `${what} changed on another device (now version ${current}). Reload and try again.`, { 'x-current-version': String(current) });
}

export async function getState(ctx: AppContext, user: CurrentUser, since = 0): Promise<VaultState> {
  const [vault, legacyAccounts] = await Promise.all([repo.findVault(ctx.db, user.id), repo.countLegacyAccounts(ctx.db, user.id)]);
  if (!vault) return { header: null, revision: 0, entries: [], legacyAccounts };
  const entries = await repo.listEntries(ctx.db, user.id, since);
  // Entries are read after the header: a write in between only shows up twice, never goes missing.
  return { header: header(vault), revision: Math.max(vault.revision, ...entries.map((e) => e.revision)), entries: entries.map(toEntry), legacyAccounts };
}

/**
 * The vault's first version. With `replaceLegacyAccounts` the old server-side accounts (which the
 * browser read, encrypted and sends as `entries`) are deleted in the same transaction: a tab
 * closed before this commits leaves them where they were; after it, they are in the vault.
 */
export async function createVault(ctx: AppContext, user: CurrentUser, body: CreateVault): Promise<VaultState> {
  const ids = new Set(body.entries.map((e) => e.id));
  if (ids.size !== body.entries.length) throw new AppError('validation_failed', 'Two entries have the same id.');
  const now = new Date();
  await ctx.db.transaction().execute(async (trx) => {
    if (await repo.findVault(trx, user.id, true)) throw new AppError('conflict', 'You already have an authenticator vault. Unlock it instead.');
    const revision = body.entries.length > 0 ? 1 : 0;
    await repo.insertVault(trx, { userId: user.id, vaultId: body.vaultId, format: 1, headerVersion: 1, slots: JSON.stringify(body.slots), revision }, now);
    for (const entry of body.entries) await repo.insertEntry(trx, user.id, { id: entry.id, version: 1, ciphertext: entry.ciphertext, revision }, now);
    const moved = body.replaceLegacyAccounts ? await repo.deleteLegacyAccounts(trx, user.id) : 0;
    await insertAuditEntry(
      trx,
      { actorUserId: user.id, actorLabel: user.email, action: 'vault.created', subjectType: 'user', subjectId: user.id, details: { entries: body.entries.length, legacyAccountsDeleted: moved } },
      now,
    );
  }).catch((err: unknown) => {
    // Two devices creating at once: the second insert hits the primary key.
    if (err instanceof AppError) throw err;
    if (/unique|duplicate|constraint/i.test(String((err as Error).message))) throw new AppError('conflict', 'You already have an authenticator vault. Unlock it instead.');
    throw err;
  });
  return getState(ctx, user);
}

/** Writes version baseVersion + 1 of an entry (baseVersion 0: a new entry). */
export async function putEntry(ctx: AppContext, user: CurrentUser, id: string, body: PutEntryBody): Promise<VaultEntry> {
  return writeEntry(ctx, user, id, body.baseVersion, body.ciphertext);
}

/** Deleting keeps a tombstone (no ciphertext, the next version), so other devices learn of it. */
export async function deleteEntry(ctx: AppContext, user: CurrentUser, id: string, baseVersion: number): Promise<VaultEntry> {
  return writeEntry(ctx, user, id, baseVersion, null);
}

async function writeEntry(ctx: AppContext, user: CurrentUser, id: string, baseVersion: number, ciphertext: string | null): Promise<VaultEntry> {
  const now = new Date();
  return ctx.db.transaction().execute(async (trx) => {
    const vault = await repo.findVault(trx, user.id, true);
    if (!vault) throw noVault();
    const current = await repo.findEntry(trx, user.id, id);
    const currentVersion = current?.version ?? 0;
    if (currentVersion !== baseVersion) throw versionConflict(currentVersion, 'This account');
    if (ciphertext === null && (!current || current.deleted)) throw new AppError('not_found', 'No such account in your vault.');
    const adds = ciphertext !== null && (!current || current.deleted);
    if (adds && (await repo.countLiveEntries(trx, user.id)) >= MAX_VAULT_ENTRIES) {
      throw new AppError('unprocessable', `Your vault holds the most accounts it can (${MAX_VAULT_ENTRIES}).`);
    }
    const revision = vault.revision + 1;
    if (!(await repo.bumpRevision(trx, user.id, vault.revision, now))) throw versionConflict(currentVersion, 'This account');
    if (current) {
      if (!(await repo.updateEntry(trx, user.id, id, baseVersion, ciphertext, revision, now))) throw versionConflict(currentVersion, 'This account');
    } else {
      await repo.insertEntry(trx, user.id, { id, version: 1, ciphertext, revision }, now);
    }
    return { id, version: baseVersion + 1, ciphertext, revision, updatedAt: now.toISOString() };
  });
}

/** New wrapped keys (passphrase changed, new recovery key): entries stay as they are. */
export async function putKeys(ctx: AppContext, user: CurrentUser, body: PutKeysBody): Promise<VaultHeader> {
  const now = new Date();
  return ctx.db.transaction().execute(async (trx) => {
    const vault = await repo.findVault(trx, user.id, true);
    if (!vault) throw noVault();
    if (vault.headerVersion !== body.baseVersion || !(await repo.updateSlots(trx, user.id, body.baseVersion, JSON.stringify(body.slots), now))) {
      throw versionConflict(vault.headerVersion, 'Your unlock methods');
    }
    await insertAuditEntry(
      trx,
      { actorUserId: user.id, actorLabel: user.email, action: 'vault.keys_changed', subjectType: 'user', subjectId: user.id, details: { slots: body.slots.map((s) => s.kind) } },
      now,
    );
    return { vaultId: vault.vaultId, format: 1, version: body.baseVersion + 1, slots: body.slots };
  });
}

/**
 * A forgotten passphrase with no recovery key: nobody can open the vault, so the person may
 * start again with an empty one. Everything in the old vault is gone for good.
 */
export async function deleteVault(ctx: AppContext, user: CurrentUser): Promise<void> {
  const now = new Date();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.findVault(trx, user.id, true))) throw noVault();
    await repo.deleteVault(trx, user.id);
    await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'vault.deleted', subjectType: 'user', subjectId: user.id, details: {} }, now);
  });
}
