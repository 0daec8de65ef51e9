/**
 * The vault on this page: what the server sent (wrapped keys, entry ciphertext), and while
 * unlocked the vault key (a non-extractable CryptoKey, in memory only) and the decrypted
 * accounts. Locking drops both; a reload or sign-out loses them with the page.
 *
 * Every write names the version it was based on. When another device wrote first the server
 * answers 409: the session fetches what changed, applies the person's change again on top of the
 * newer entry, and retries (last writer wins per entry; a change is a function of the entry, so
 * an HOTP counter moved elsewhere still moves on).
 */
import type { AuthenticatorAccount } from '@common/contract/authenticator';
import type { VaultEntry, VaultHeader, VaultKeySlot, VaultState } from '@common/contract/vault';
import * as vc from '@common/vault/crypto';
import { VaultAccount } from '@common/vault/entry';
import { ApiError, apiGet, apiSend } from '@/lib/api';
import { loadVaultSnapshot, saveVaultSnapshot } from '../offline-store';
import { passkeyPrf } from './passkey-prf';
import { onSignOut } from './sign-out';

export const VAULT_PATH = '/api/user/vault';
export const LEGACY_ACCOUNTS_PATH = '/api/user/totp-accounts';
/** Writes retried after a 409 before giving up (each retry follows a fresh read). */
const MAX_CONFLICT_RETRIES = 4;

/** An account as the list shows it: the entry's id and its place in the list. */
export type VaultListAccount = AuthenticatorAccount & { order: number };

export type VaultView =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'none'; legacyAccounts: number; offline: boolean }
  | { status: 'locked'; offline: boolean; hasRecoverySlot: boolean; hasPasskeySlot: boolean }
  | { status: 'unlocked'; accounts: VaultListAccount[]; offline: boolean; unreadable: number; passkeys: number };

interface Snapshot {
  header: VaultHeader;
  revision: number;
  entries: VaultEntry[];
}

export class OfflineError extends Error {
  override readonly name = 'OfflineError';
  constructor() {
    super('You are offline: changes to your vault need a connection.');
  }
}

export function isNetworkFailure(error: unknown): boolean {
  if (error instanceof ApiError) return false;
  if (error instanceof DOMException && error.name === 'AbortError') return false;
  return error instanceof TypeError || (typeof navigator !== 'undefined' && navigator.onLine === false);
}

const isConflict = (error: unknown) => error instanceof ApiError && error.status === 409;

export interface PreparedVault {
  recoveryKey: string;
  /** Stores the vault (and moves the old server-side accounts in); then it is unlocked. */
  commit: () => Promise<void>;
}

export class VaultSession {
  private header: VaultHeader | null = null;
  private revision = 0;
  private readonly entries = new Map<string, VaultEntry>();
  private key: CryptoKey | null = null;
  private readonly plain = new Map<string, VaultAccount>();
  private unreadable = 0;
  private offline = false;
  private legacyAccounts = 0;
  private view: VaultView = { status: 'loading' };
  private readonly listeners = new Set<() => void>();
  private loading: Promise<void> | null = null;

  constructor(readonly userId: string) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getView = (): VaultView => this.view;

  get isUnlocked(): boolean {
    return this.key !== null;
  }

  private emit(): void {
    if (!this.header) this.view = { status: 'none', legacyAccounts: this.legacyAccounts, offline: this.offline };
    else if (!this.key) {
      const kinds = new Set(this.header.slots.map((s) => s.kind));
      this.view = { status: 'locked', offline: this.offline, hasRecoverySlot: kinds.has('recovery'), hasPasskeySlot: kinds.has('passkey') };
    } else {
      const accounts = [...this.plain.entries()]
        .map(([id, account]): VaultListAccount => ({ ...account, id }))
        .sort((a, b) => a.order - b.order || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      this.view = { status: 'unlocked', accounts, offline: this.offline, unreadable: this.unreadable, passkeys: this.header.slots.filter((s) => s.kind === 'passkey').length };
    }
    for (const listener of this.listeners) listener();
  }

  /** First load: the server's vault, or (no network) the copy on this device. */
  load(): Promise<void> {
    if (this.view.status !== 'loading' && this.view.status !== 'error') return Promise.resolve();
    this.loading ??= this.refresh().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /** Fetches what changed since the last revision (everything the first time) and merges it. */
  async refresh(): Promise<void> {
    try {
      const since = this.header ? this.revision : 0;
      const state = await apiGet<VaultState>(`${VAULT_PATH}${since ? `?since=${since}` : ''}`);
      this.offline = false;
      this.legacyAccounts = state.legacyAccounts;
      await this.merge(state, since === 0);
    } catch (error) {
      if (!isNetworkFailure(error)) {
        if (this.view.status === 'loading') {
          this.view = { status: 'error', error };
          for (const listener of this.listeners) listener();
        }
        throw error;
      }
      this.offline = true;
      if (!this.header) {
        const saved = await loadVaultSnapshot<Snapshot>(this.userId).catch(() => null);
        if (!saved) {
          this.view = { status: 'error', error };
          for (const listener of this.listeners) listener();
          throw error;
        }
        await this.merge({ ...saved, legacyAccounts: 0 }, true);
      }
      this.emit();
    }
  }

  private async merge(state: VaultState | (Snapshot & { legacyAccounts: number }), full: boolean): Promise<void> {
    if (!state.header) {
      // No vault on the server (never made, or deleted from another device): nothing to show.
      this.header = null;
      this.entries.clear();
      this.plain.clear();
      this.key = null;
      this.revision = 0;
      this.emit();
      return;
    }
    if (this.header && this.header.vaultId !== state.header.vaultId) {
      // Another device started a new vault: this one's key and entries are of the old one.
      this.entries.clear();
      this.plain.clear();
      this.key = null;
    }
    if (!this.header || state.header.version >= this.header.version) this.header = state.header;
    if (full) {
      // Ids the server no longer lists at all (a vault reset elsewhere) go; tombstones stay.
      const listed = new Set(state.entries.map((e) => e.id));
      for (const id of [...this.entries.keys()]) if (!listed.has(id)) this.entries.delete(id);
    }
    for (const entry of state.entries) {
      const known = this.entries.get(entry.id);
      // Never go back to an older version than one already seen (a rollback by the server).
      if (known && known.version > entry.version) continue;
      this.entries.set(entry.id, entry);
    }
    this.revision = Math.max(this.revision, state.revision);
    if (this.key) await this.decryptAll();
    this.emit();
    this.saveSnapshot();
  }

  private saveSnapshot(): void {
    if (!this.header) return;
    const snapshot: Snapshot = { header: this.header, revision: this.revision, entries: [...this.entries.values()] };
    saveVaultSnapshot(this.userId, snapshot).catch(() => undefined);
  }

  private async decryptAll(): Promise<void> {
    const key = this.key!;
    const vaultId = this.header!.vaultId;
    this.unreadable = 0;
    for (const [id, entry] of this.entries) {
      if (entry.ciphertext === null) {
        this.plain.delete(id);
        continue;
      }
      try {
        this.plain.set(id, VaultAccount.parse(await vc.decryptEntry(key, vaultId, id, entry.version, entry.ciphertext)));
      } catch {
        // Tampered, swapped or rolled back: shown as a count, never as a wrong code.
        this.plain.delete(id);
        this.unreadable += 1;
      }
    }
  }

  private async unlockWith(open: (header: VaultHeader) => Promise<Uint8Array<ArrayBuffer>>): Promise<void> {
    if (!this.header) throw new Error('There is no vault to unlock.');
    const raw = await open(this.header);
    try {
      this.key = await vc.importVaultKey(raw);
    } finally {
      raw.fill(0);
    }
    await this.decryptAll();
    this.emit();
  }

  unlockWithPassphrase(passphrase: string): Promise<void> {
    return this.unlockWith((header) => vc.openWithPassphrase(header, passphrase));
  }

  unlockWithRecoveryKey(recoveryKey: string): Promise<void> {
    return this.unlockWith((header) => vc.openWithRecoveryKey(header, recoveryKey));
  }

  /** Unlocks with one of the passkeys the vault knows (their PRF outputs wrap the vault key). */
  async unlockWithPasskey(): Promise<void> {
    if (!this.header) throw new Error('There is no vault to unlock.');
    const slots = this.header.slots.flatMap((s) => (s.kind === 'passkey' ? [{ credentialId: s.credentialId, salt: vc.fromBase64(s.prfSalt) }] : []));
    const { credentialId, output } = await passkeyPrf({ byCredential: slots });
    try {
      await this.unlockWith((header) => vc.openWithPasskey(header, credentialId, output));
    } finally {
      output.fill(0);
    }
  }

  /** Adds a passkey (one with PRF) as a way to unlock; asked first, then the current passphrase unwraps the key. */
  async addPasskey(currentPassphrase: string): Promise<void> {
    const prfSalt = vc.randomBytes(32);
    const { credentialId, output } = await passkeyPrf({ salt: prfSalt });
    try {
      await this.changeSlots(currentPassphrase, async (slots, raw, vaultId) => [
        ...slots.filter((s) => !(s.kind === 'passkey' && s.credentialId === credentialId)),
        await vc.passkeySlot(raw, vaultId, output, credentialId, vc.toBase64(prfSalt)),
      ]);
    } finally {
      output.fill(0);
    }
  }

  async removePasskeys(currentPassphrase: string): Promise<void> {
    await this.changeSlots(currentPassphrase, async (slots) => slots.filter((s) => s.kind !== 'passkey'));
  }

  lock(): void {
    if (!this.key) return;
    this.key = null;
    this.plain.clear();
    this.emit();
  }

  /**
   * Makes a vault key, wraps it under the passphrase (Argon2id) and a new recovery key; nothing
   * is sent until `commit`, after the person has saved the recovery key.
   */
  async prepareVault(passphrase: string): Promise<PreparedVault> {
    const raw = vc.newVaultKey();
    const vaultId = vc.newVaultId();
    const recoveryKey = vc.newRecoveryKey();
    const slots = [await vc.passphraseSlot(raw, vaultId, passphrase), await vc.recoverySlot(raw, vaultId, recoveryKey)];
    const key = await vc.importVaultKey(raw);
    raw.fill(0);
    const commit = async () => {
      // The old server-side accounts are read once, encrypted here, and moved in by the same
      // request that creates the vault (the server deletes its copies in that transaction).
      const legacy = this.legacyAccounts > 0 ? await apiGet<AuthenticatorAccount[]>(LEGACY_ACCOUNTS_PATH) : [];
      const entries = await Promise.all(
        legacy.map(async (account, order) => {
          const id = vc.newEntryId();
          const { id: _oldId, ...fields } = account;
          return { id, ciphertext: await vc.encryptEntry(key, vaultId, id, 1, { ...fields, order } satisfies VaultAccount) };
        }),
      );
      const state = await apiSend<VaultState>('POST', VAULT_PATH, { vaultId, format: 1, slots, entries, replaceLegacyAccounts: legacy.length > 0 });
      this.header = null;
      this.entries.clear();
      this.revision = 0;
      this.key = key;
      this.legacyAccounts = state.legacyAccounts;
      await this.merge(state, true);
    };
    return { recoveryKey, commit };
  }

  /**
   * Changes the unlock methods without touching a single entry: the current passphrase unwraps
   * the vault key once more, `change` answers the new slots, the server stores them if no other
   * device changed them meanwhile (else this reads the newer header and applies `change` again).
   */
  async changeSlots(currentPassphrase: string, change: (slots: VaultKeySlot[], vaultKey: Uint8Array<ArrayBuffer>, vaultId: string) => Promise<VaultKeySlot[]>): Promise<void> {
    if (!this.header) throw new Error('There is no vault.');
    if (this.offline) throw new OfflineError();
    const raw = await vc.openWithPassphrase(this.header, currentPassphrase);
    try {
      for (let attempt = 0; ; attempt += 1) {
        const header: VaultHeader = this.header!;
        const slots = await change(header.slots, raw, header.vaultId);
        try {
          this.header = await apiSend<VaultHeader>('PUT', `${VAULT_PATH}/keys`, { baseVersion: header.version, slots });
          this.saveSnapshot();
          this.emit();
          return;
        } catch (error) {
          if (!isConflict(error) || attempt >= MAX_CONFLICT_RETRIES) throw error;
          await this.refresh();
        }
      }
    } finally {
      raw.fill(0);
    }
  }

  changePassphrase(currentPassphrase: string, newPassphrase: string): Promise<void> {
    return this.changeSlots(currentPassphrase, async (slots, raw, vaultId) => [
      await vc.passphraseSlot(raw, vaultId, newPassphrase),
      ...slots.filter((s) => s.kind !== 'passphrase'),
    ]);
  }

  /** A new recovery key replaces the old one (which stops working); answers it, to show once. */
  async replaceRecoveryKey(currentPassphrase: string): Promise<string> {
    const recoveryKey = vc.newRecoveryKey();
    await this.changeSlots(currentPassphrase, async (slots, raw, vaultId) => [
      ...slots.filter((s) => s.kind !== 'recovery'),
      await vc.recoverySlot(raw, vaultId, recoveryKey),
    ]);
    return recoveryKey;
  }

  /** Forgotten passphrase, no recovery key: the old vault is deleted for good, a new one can start. */
  async discardVault(): Promise<void> {
    await apiSend<void>('DELETE', VAULT_PATH);
    this.header = null;
    this.entries.clear();
    this.plain.clear();
    this.key = null;
    this.revision = 0;
    this.emit();
  }

  private requireWritable(): { key: CryptoKey; vaultId: string } {
    if (!this.key || !this.header) throw new Error('Unlock your vault first.');
    if (this.offline) throw new OfflineError();
    return { key: this.key, vaultId: this.header.vaultId };
  }

  /**
   * Writes an entry: `change` gets the entry as it is now (undefined for a new one) and answers
   * the new account. On a 409 it runs again on the newer entry.
   */
  async writeAccount(id: string, change: (current: VaultAccount | undefined) => VaultAccount): Promise<VaultListAccount> {
    const written = await this.putAccount(id, change);
    this.emit();
    this.saveSnapshot();
    return written;
  }

  /** writeAccount without telling the page or saving the copy on this device: the caller does, once. */
  private async putAccount(id: string, change: (current: VaultAccount | undefined) => VaultAccount): Promise<VaultListAccount> {
    for (let attempt = 0; ; attempt += 1) {
      const { key, vaultId } = this.requireWritable();
      const base = this.entries.get(id)?.version ?? 0;
      const next = VaultAccount.parse(change(this.plain.get(id)));
      const ciphertext = await vc.encryptEntry(key, vaultId, id, base + 1, next);
      try {
        const saved = await apiSend<VaultEntry>('PUT', `${VAULT_PATH}/entries/${encodeURIComponent(id)}`, { baseVersion: base, ciphertext });
        this.entries.set(id, saved);
        this.plain.set(id, next);
        return { ...next, id };
      } catch (error) {
        if (!isConflict(error) || attempt >= MAX_CONFLICT_RETRIES) throw error;
        await this.refresh();
      }
    }
  }

  async addAccount(account: Omit<VaultAccount, 'createdAt' | 'order'>): Promise<VaultListAccount> {
    return (await this.addAccounts([account]))[0]!;
  }

  /**
   * Adds accounts one entry each, in order, after the accounts already there. The page is told and
   * the copy on this device saved once, at the end or at the first failure (what was added stays):
   * once per entry, an import of n accounts rendered the list and saved the whole vault n times.
   */
  async addAccounts(accounts: ReadonlyArray<Omit<VaultAccount, 'createdAt' | 'order'>>, onAdded?: (added: VaultListAccount) => void): Promise<VaultListAccount[]> {
    const added: VaultListAccount[] = [];
    try {
      for (const account of accounts) {
        const order = Math.max(-1, ...[...this.plain.values()].map((a) => a.order)) + 1;
        const written = await this.putAccount(vc.newEntryId(), () => ({ ...account, createdAt: new Date().toISOString(), order }));
        added.push(written);
        onAdded?.(written);
      }
      return added;
    } finally {
      this.emit();
      this.saveSnapshot();
    }
  }

  async deleteAccount(id: string): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      this.requireWritable();
      const entry = this.entries.get(id);
      if (!entry || entry.ciphertext === null) return;
      try {
        const saved = await apiSend<VaultEntry>('DELETE', `${VAULT_PATH}/entries/${encodeURIComponent(id)}?baseVersion=${entry.version}`);
        this.entries.set(id, saved);
        this.plain.delete(id);
        this.emit();
        this.saveSnapshot();
        return;
      } catch (error) {
        if (!isConflict(error) || attempt >= MAX_CONFLICT_RETRIES) throw error;
        await this.refresh();
      }
    }
  }

  /** HOTP: the code shown was used, so the counter moves on (in the vault, for every device). */
  advanceCounter(id: string): Promise<VaultListAccount> {
    return this.writeAccount(id, (current) => {
      if (!current || current.type !== 'hotp') throw new Error('Not a counter-based account.');
      return { ...current, counter: (current.counter ?? 0) + 1 };
    });
  }

  /** Moves an account one place up or down the list (two entries swap their order). */
  async move(id: string, direction: -1 | 1): Promise<void> {
    if (this.view.status !== 'unlocked') return;
    const list = this.view.accounts;
    const at = list.findIndex((a) => a.id === id);
    const other = list[at + direction];
    if (at < 0 || !other) return;
    // Renumber so that orders are distinct, then swap the two.
    const orders = list.map((_, i) => i);
    [orders[at], orders[at + direction]] = [orders[at + direction]!, orders[at]!];
    for (const [i, account] of list.entries()) {
      if (account.order !== orders[i]) await this.writeAccount(account.id, (current) => ({ ...(current ?? account), order: orders[i]! }));
    }
  }
}

let current: VaultSession | null = null;

/** The page's vault session for this person (a new one when another person signs in). */
export function vaultSession(userId: string): VaultSession {
  if (!current || current.userId !== userId) {
    current?.lock();
    current = new VaultSession(userId);
  }
  return current;
}

/** Sign-out and session expiry lock the vault before the page goes. */
export function lockVault(): void {
  current?.lock();
}

onSignOut(() => dropVaultSession());

/** Locks and forgets the session entirely (sign-out; tests start each case afresh). */
export function dropVaultSession(): void {
  current?.lock();
  current = null;
}
