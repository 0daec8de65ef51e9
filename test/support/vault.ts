/**
 * A vault client for server tests: it does in Node what the browser does (common/vault/crypto),
 * so tests send real ciphertext and can check the server never needed a key.
 */
import type { VaultHeader, VaultState } from '@common/contract/vault';
import { encryptEntry, importVaultKey, newEntryId, newRecoveryKey, newVaultId, newVaultKey, passphraseSlot, recoverySlot } from '@common/vault/crypto';
import type { VaultAccount } from '@common/vault/entry';

export const PASSPHRASE = 'a long passphrase nobody guesses 42';

export function vaultAccount(secret: string, overrides: Partial<VaultAccount> = {}): VaultAccount {
  return { type: 'totp', issuer: 'ACME', accountName: 'alice@example.com', secret, algorithm: 'SHA1', digits: 6, period: 30, counter: null, createdAt: new Date().toISOString(), order: 0, ...overrides };
}

export interface TestVault {
  vaultId: string;
  key: CryptoKey;
  recoveryKey: string;
  /** POST /api/user/vault's body */
  body: { vaultId: string; format: 1; slots: VaultHeader['slots']; entries: { id: string; ciphertext: string }[]; replaceLegacyAccounts: boolean };
  entryIds: string[];
}

export async function newTestVault(accounts: VaultAccount[] = [], replaceLegacyAccounts = false): Promise<TestVault> {
  const raw = newVaultKey();
  const vaultId = newVaultId();
  const recoveryKey = newRecoveryKey();
  const slots = [await passphraseSlot(raw, vaultId, PASSPHRASE), await recoverySlot(raw, vaultId, recoveryKey)];
  const key = await importVaultKey(raw);
  raw.fill(0);
  const entries = await Promise.all(accounts.map(async (account) => {
    const id = newEntryId();
    return { id, ciphertext: await encryptEntry(key, vaultId, id, 1, account) };
  }));
  return { vaultId, key, recoveryKey, body: { vaultId, format: 1, slots, entries, replaceLegacyAccounts }, entryIds: entries.map((e) => e.id) };
}

export type { VaultState };
