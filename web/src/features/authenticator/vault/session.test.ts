import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthenticatorAccount } from '@common/contract/authenticator';
import { jsonResponse } from '@/test/render-app';
import { fakeVault, TEST_VAULT_PASSPHRASE, type FakeVault } from '@/test/fake-vault';
import { saveVaultSnapshot } from '../offline-store';
import { VaultSession } from './session';

vi.mock('../offline-store', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../offline-store')>()),
  saveVaultSnapshot: vi.fn(async () => undefined),
  loadVaultSnapshot: vi.fn(async () => null),
}));

const HOTP: AuthenticatorAccount = {
  id: 'entry_hotp_1',
  type: 'hotp',
  issuer: 'Bank',
  accountName: 'ada',
  secret: 'JBSWY3DPEHPK3PXP',
  algorithm: 'SHA1',
  digits: 6,
  period: 30,
  counter: 4,
  createdAt: '2025-01-01T00:00:00.000Z',
};

/** Routes the fake vault answers, as `fetch`. */
function serveVault(vault: FakeVault) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const key = `${init?.method ?? 'GET'} ${url.pathname}`;
      const handler = vault.routes[key] ?? Object.entries(vault.routes).find(([route]) => route.endsWith('/*') && key.startsWith(route.slice(0, -1)))?.[1];
      return handler ? handler(init, url) : jsonResponse(404, { error: { code: 'not_found', message: key, request_id: 'r' } });
    }),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the vault session on two devices', () => {
  it('unlocks with the passphrase or the recovery key, and locks', async () => {
    const vault = await fakeVault([HOTP]);
    serveVault(vault);
    const session = new VaultSession('user_1');
    await session.load();
    expect(session.getView().status).toBe('locked');
    await expect(session.unlockWithPassphrase('wrong passphrase')).rejects.toThrow(/does not open/);
    await session.unlockWithPassphrase(TEST_VAULT_PASSPHRASE);
    expect(session.getView()).toMatchObject({ status: 'unlocked', accounts: [expect.objectContaining({ id: HOTP.id, counter: 4 })] });
    session.lock();
    expect(session.getView().status).toBe('locked');
    await session.unlockWithRecoveryKey(vault.recoveryKey);
    expect(session.getView().status).toBe('unlocked');
  });

  it('after a 409 fetches the newer entry, applies its own change on top, and retries', async () => {
    const vault = await fakeVault([HOTP]);
    serveVault(vault);
    const phone = new VaultSession('user_1');
    const laptop = new VaultSession('user_1');
    for (const device of [phone, laptop]) {
      await device.load();
      await device.unlockWithRecoveryKey(vault.recoveryKey);
    }
    // The phone renames the account; the laptop, not yet synced, uses a code (counter 4 → 5).
    await phone.writeAccount(HOTP.id, (current) => ({ ...current!, issuer: 'Bank (renamed)' }));
    const fetchMock = vi.mocked(fetch);
    fetchMock.mockClear();
    await laptop.advanceCounter(HOTP.id);
    // Stale first (409), then a refresh since the last revision, then the retry on version 2.
    expect(fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url).split('?')[0]}`)).toEqual([
      `PUT /api/user/vault/entries/${HOTP.id}`,
      'GET /api/user/vault',
      `PUT /api/user/vault/entries/${HOTP.id}`,
    ]);
    expect(await vault.accounts()).toEqual([expect.objectContaining({ issuer: 'Bank (renamed)', counter: 5 })]);
    await phone.refresh();
    expect(phone.getView()).toMatchObject({ accounts: [expect.objectContaining({ issuer: 'Bank (renamed)', counter: 5 })] });
  });

  it('sees another device delete an entry, and never goes back to an older version', async () => {
    const vault = await fakeVault([HOTP]);
    serveVault(vault);
    const a = new VaultSession('user_1');
    const b = new VaultSession('user_1');
    for (const device of [a, b]) {
      await device.load();
      await device.unlockWithRecoveryKey(vault.recoveryKey);
    }
    await a.deleteAccount(HOTP.id);
    await b.refresh();
    expect(b.getView()).toMatchObject({ status: 'unlocked', accounts: [] });
  });

  it('counts an entry whose ciphertext was swapped or rolled back as unreadable, and shows no code for it', async () => {
    const vault = await fakeVault([HOTP, { ...HOTP, id: 'entry_other_1', issuer: 'Other' }]);
    const original = vault.routes['GET /api/user/vault']!;
    vault.routes['GET /api/user/vault'] = async (init, url) => {
      const state = await (await original(init, url)).json();
      // The server hands entry 1's ciphertext out as entry 2's.
      state.entries[1].ciphertext = state.entries[0].ciphertext;
      return jsonResponse(200, state);
    };
    serveVault(vault);
    const session = new VaultSession('user_1');
    await session.load();
    await session.unlockWithRecoveryKey(vault.recoveryKey);
    expect(session.getView()).toMatchObject({ status: 'unlocked', unreadable: 1, accounts: [expect.objectContaining({ id: HOTP.id })] });
  });
});

describe('adding many accounts (an import)', () => {
  const input = (n: number) => ({ type: 'totp' as const, issuer: `Site${n}`, accountName: 'ada', secret: 'GEZDGNBVGY3TQOJQ', algorithm: 'SHA1' as const, digits: 6, period: 30, counter: null });

  async function unlocked(vault: FakeVault) {
    serveVault(vault);
    const session = new VaultSession('user_1');
    await session.load();
    await session.unlockWithRecoveryKey(vault.recoveryKey);
    let renders = 0;
    session.subscribe(() => (renders += 1));
    vi.mocked(saveVaultSnapshot).mockClear();
    return { session, renders: () => renders };
  }

  it('adds them in order after the accounts there, one entry each, telling the page and saving the copy once', async () => {
    const vault = await fakeVault([HOTP]);
    const { session, renders } = await unlocked(vault);
    const reported: string[] = [];
    const added = await session.addAccounts([1, 2, 3, 4, 5].map(input), (account) => reported.push(account.issuer ?? ''));
    expect(reported).toEqual(['Site1', 'Site2', 'Site3', 'Site4', 'Site5']);
    expect(added.map((a) => a.order)).toEqual([1, 2, 3, 4, 5]);
    expect((await vault.accounts()).map((a) => a.issuer)).toEqual(['Bank', 'Site1', 'Site2', 'Site3', 'Site4', 'Site5']);
    expect(renders()).toBe(1);
    expect(saveVaultSnapshot).toHaveBeenCalledTimes(1);
    expect(session.getView()).toMatchObject({ accounts: [{ issuer: 'Bank' }, { issuer: 'Site1' }, {}, {}, {}, { issuer: 'Site5' }] });
  });

  it('stops at the first refused entry, keeps and shows what was added before it', async () => {
    const vault = await fakeVault([]);
    const put = vault.routes['PUT /api/user/vault/entries/*']!;
    let puts = 0;
    vault.routes['PUT /api/user/vault/entries/*'] = async (init, url) =>
      (puts += 1) === 3 ? jsonResponse(500, { error: { code: 'internal', message: 'down', request_id: 'r' } }) : put(init, url);
    const { session, renders } = await unlocked(vault);
    const reported: string[] = [];
    await expect(session.addAccounts([1, 2, 3, 4].map(input), (account) => reported.push(account.issuer ?? ''))).rejects.toThrow();
    expect(reported).toEqual(['Site1', 'Site2']);
    expect((await vault.accounts()).map((a) => a.issuer)).toEqual(['Site1', 'Site2']);
    expect(renders()).toBe(1);
    expect(saveVaultSnapshot).toHaveBeenCalledTimes(1);
    expect(session.getView()).toMatchObject({ accounts: [{ issuer: 'Site1' }, { issuer: 'Site2' }] });
  });
});

describe('changing the unlock methods', () => {
  it('changes the passphrase and the recovery key without re-encrypting an entry', async () => {
    const vault = await fakeVault([HOTP]);
    let keys: { baseVersion: number; slots: unknown[] } | null = null;
    vault.routes['PUT /api/user/vault/keys'] = (init) => {
      keys = JSON.parse(String(init?.body));
      return jsonResponse(200, { ...vault.header, version: 2, slots: keys!.slots });
    };
    serveVault(vault);
    const session = new VaultSession('user_1');
    await session.load();
    await session.unlockWithPassphrase(TEST_VAULT_PASSPHRASE);
    await expect(session.changePassphrase('not it', 'a brand new passphrase here')).rejects.toThrow(/does not open/);
    await session.changePassphrase(TEST_VAULT_PASSPHRASE, 'a brand new passphrase here');
    expect(keys).toMatchObject({ baseVersion: 1 });
    const recoveryKey = await session.replaceRecoveryKey('a brand new passphrase here');
    session.lock();
    await expect(session.unlockWithPassphrase(TEST_VAULT_PASSPHRASE)).rejects.toThrow(/does not open/);
    await expect(session.unlockWithRecoveryKey(vault.recoveryKey)).rejects.toThrow(/does not open/);
    await session.unlockWithRecoveryKey(recoveryKey);
    expect(session.getView()).toMatchObject({ status: 'unlocked', accounts: [expect.objectContaining({ id: HOTP.id })] });
    // No entry was written.
    expect(vi.mocked(fetch).mock.calls.filter(([url]) => String(url).includes('/entries/'))).toEqual([]);
  });
});
