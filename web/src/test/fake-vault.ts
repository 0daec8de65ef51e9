/**
 * A fake of the vault routes for page tests: it keeps entries as the server would (versions,
 * tombstones, 409 on a stale base) and holds real ciphertext made with common/vault/crypto, so
 * a test can decrypt what the page sent and prove it sent no plaintext.
 */
import type { AuthenticatorAccount } from '@common/contract/authenticator';
import type { VaultEntry, VaultHeader, VaultState } from '@common/contract/vault';
import { decryptEntry, encryptEntry, importVaultKey, newRecoveryKey, newVaultId, newVaultKey, passphraseSlot, recoverySlot } from '@common/vault/crypto';
import type { VaultAccount } from '@common/vault/entry';
import { jsonResponse } from './render-app';

type Handler = (init: RequestInit | undefined, url: URL) => Response | Promise<Response>;

export const TEST_VAULT_PASSPHRASE = 'test vault passphrase';

export interface FakeVault {
  routes: Record<string, Handler>;
  recoveryKey: string;
  header: VaultHeader;
  /** The accounts the fake server holds now, decrypted (as the page would see them). */
  accounts(): Promise<Array<VaultAccount & { id: string }>>;
  /** What a PUT sent, decrypted. */
  decryptPut(init: RequestInit | undefined, url: URL): Promise<VaultAccount>;
}

/**
 * A vault holding `accounts` (their ids become entry ids). The passphrase slot uses small Argon2
 * parameters so tests stay fast; the page does not choose them when unlocking, the header does.
 */
export async function fakeVault(accounts: AuthenticatorAccount[], options: { legacyAccounts?: number } = {}): Promise<FakeVault> {
  const raw = newVaultKey();
  const vaultId = newVaultId();
  const recoveryKey = newRecoveryKey();
  const header: VaultHeader = {
    vaultId,
    format: 1,
    version: 1,
    slots: [await passphraseSlot(raw, vaultId, TEST_VAULT_PASSPHRASE, { memoryKiB: 64, iterations: 1, parallelism: 1 }), await recoverySlot(raw, vaultId, recoveryKey)],
  };
  const key = await importVaultKey(raw);
  let revision = 1;
  const entries = new Map<string, VaultEntry>();
  for (const [order, { id, ...account }] of accounts.entries()) {
    entries.set(id, { id, version: 1, ciphertext: await encryptEntry(key, vaultId, id, 1, { ...account, order }), revision, updatedAt: new Date(0).toISOString() });
  }
  const state = (since: number): VaultState => ({
    header,
    revision,
    entries: [...entries.values()].filter((e) => e.revision > since),
    legacyAccounts: options.legacyAccounts ?? 0,
  });
  const conflict = (current: number) =>
    jsonResponse(409, { error: { code: 'version_conflict', message: `changed elsewhere (now version ${current})`, request_id: 'r' } });
  const idOf = (url: URL) => decodeURIComponent(url.pathname.split('/').pop()!);

  const routes: Record<string, Handler> = {
    'GET /api/user/vault': (_init, url) => jsonResponse(200, state(Number(url.searchParams.get('since') ?? 0))),
  };
  const put: Handler = (init, url) => {
    const id = idOf(url);
    const body = JSON.parse(String(init?.body)) as { baseVersion: number; ciphertext: string };
    const current = entries.get(id)?.version ?? 0;
    if (current !== body.baseVersion) return conflict(current);
    revision += 1;
    const saved = { id, version: current + 1, ciphertext: body.ciphertext, revision, updatedAt: new Date().toISOString() };
    entries.set(id, saved);
    return jsonResponse(200, saved);
  };
  const remove: Handler = (_init, url) => {
    const id = idOf(url);
    const current = entries.get(id)?.version ?? 0;
    if (String(current) !== url.searchParams.get('baseVersion')) return conflict(current);
    revision += 1;
    const saved = { id, version: current + 1, ciphertext: null, revision, updatedAt: new Date().toISOString() };
    entries.set(id, saved);
    return jsonResponse(200, saved);
  };

  return {
    header,
    recoveryKey,
    // Entry routes carry the id in the path: the tests' `serve` looks handlers up by exact path,
    // so these are matched by prefix (see `vaultHandler`).
    routes: { ...routes, 'PUT /api/user/vault/entries/*': put, 'DELETE /api/user/vault/entries/*': remove },
    async accounts() {
      const out: Array<VaultAccount & { id: string }> = [];
      for (const entry of entries.values()) {
        if (entry.ciphertext) out.push({ ...((await decryptEntry(key, vaultId, entry.id, entry.version, entry.ciphertext)) as VaultAccount), id: entry.id });
      }
      return out.sort((a, b) => a.order - b.order);
    },
    async decryptPut(init, url) {
      const body = JSON.parse(String(init?.body)) as { baseVersion: number; ciphertext: string };
      return (await decryptEntry(key, vaultId, idOf(url), body.baseVersion + 1, body.ciphertext)) as VaultAccount;
    },
  };
}
