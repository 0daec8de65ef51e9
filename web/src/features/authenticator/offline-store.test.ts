import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  hasOfflineData,
  loadVaultSnapshot,
  loadLastUser,
  saveVaultSnapshot,
  saveLastUser,
  wipeOfflineData,
  wipeOfflineDataIfAny,
} from './offline-store';

interface Account {
  id: string;
  accountName: string;
  secret: string;
}

const ACCOUNTS: Account[] = [
  { id: 'a1', accountName: 'alice@example.com', secret: 'JBSWY3DPEHPK3PXP' },
  { id: 'a2', accountName: 'Ünïcode ✓', secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' },
];

/** Reads the raw stored records and keys straight from IndexedDB. */
async function rawDump(): Promise<{ records: unknown[]; keys: unknown[] }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open('sixdigit-offline');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const all = (store: string) =>
    new Promise<unknown[]>((resolve, reject) => {
      const req = db.transaction(store).objectStore(store).getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  const result = { records: await all('records'), keys: await all('keys') };
  db.close();
  return result;
}

interface StoredRecord {
  userId: string;
  iv: Uint8Array;
  data: ArrayBuffer;
}

function bytesOf(value: unknown): Uint8Array {
  if (value === undefined) throw new Error('no record');
  if (value instanceof ArrayBuffer || Object.prototype.toString.call(value) === '[object ArrayBuffer]') {
    return new Uint8Array(value as ArrayBuffer);
  }
  const view = value as ArrayBufferView;
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

afterEach(async () => {
  await wipeOfflineData();
});

describe('offline store', () => {
  it('round-trips accounts per user', async () => {
    await saveVaultSnapshot('user-1', ACCOUNTS);
    expect(await loadVaultSnapshot<Account>('user-1')).toEqual(ACCOUNTS);
    expect(await loadVaultSnapshot('user-2')).toBeNull();

    await saveVaultSnapshot('user-1', [ACCOUNTS[0]]);
    expect(await loadVaultSnapshot<Account>('user-1')).toEqual([ACCOUNTS[0]]);
    await saveVaultSnapshot('user-1', []);
    expect(await loadVaultSnapshot('user-1')).toEqual([]);
  });

  it('stores ciphertext, never the plaintext secrets, with a fresh IV per save', async () => {
    await saveVaultSnapshot('user-1', ACCOUNTS);
    const first = (await rawDump()).records as StoredRecord[];
    expect(first).toHaveLength(1);
    const bytes = bytesOf(first[0]?.data);
    const asText = new TextDecoder('latin1').decode(bytes);
    for (const account of ACCOUNTS) {
      expect(asText).not.toContain(account.secret);
      expect(asText).not.toContain(account.accountName);
    }
    expect(JSON.stringify(first)).not.toContain('JBSWY3DPEHPK3PXP');
    // JSON plaintext + 16-byte GCM tag.
    expect(bytes.byteLength).toBe(new TextEncoder().encode(JSON.stringify(ACCOUNTS)).byteLength + 16);
    expect(bytesOf(first[0]?.iv).byteLength).toBe(12);

    await saveVaultSnapshot('user-1', ACCOUNTS);
    const second = (await rawDump()).records as StoredRecord[];
    expect(Array.from(bytesOf(second[0]?.iv))).not.toEqual(Array.from(bytesOf(first[0]?.iv)));
    expect(Array.from(bytesOf(second[0]?.data))).not.toEqual(Array.from(bytes));
  });

  it('keeps one non-extractable AES-GCM key, which cannot be exported', async () => {
    await saveVaultSnapshot('user-1', ACCOUNTS);
    await saveVaultSnapshot('user-1', ACCOUNTS);
    const { keys } = await rawDump();
    expect(keys).toHaveLength(1);
    const key = keys[0] as CryptoKey;
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    expect([...key.usages].sort()).toEqual(['decrypt', 'encrypt']);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });

  it('binds the record to its user: a record moved to another user does not decrypt', async () => {
    await saveVaultSnapshot('user-1', ACCOUNTS);
    const [record] = (await rawDump()).records as StoredRecord[];
    const db = await new Promise<IDBDatabase>((resolve) => {
      const req = indexedDB.open('sixdigit-offline');
      req.onsuccess = () => resolve(req.result);
    });
    await new Promise<void>((resolve) => {
      const tx = db.transaction('records', 'readwrite');
      tx.objectStore('records').put({ ...record, userId: 'user-2' }, 'accounts:user-2');
      tx.oncomplete = () => resolve();
    });
    db.close();
    expect(await loadVaultSnapshot('user-2')).toBeNull();
    expect(await loadVaultSnapshot<Account>('user-1')).toEqual(ACCOUNTS);
  });

  it('wipes everything, key included', async () => {
    await saveVaultSnapshot('user-1', ACCOUNTS);
    await saveLastUser({ id: 'user-1', email: 'alice@example.com' });
    expect(await hasOfflineData()).toBe(true);
    await wipeOfflineData();
    expect(await rawDump()).toEqual({ records: [], keys: [] });
    expect(await loadVaultSnapshot('user-1')).toBeNull();
    expect(await loadLastUser()).toBeNull();
    // And it works again afterwards, under a new key.
    await saveVaultSnapshot('user-1', ACCOUNTS);
    expect(await loadVaultSnapshot<Account>('user-1')).toEqual(ACCOUNTS);
  });

  it('remembers the last user, encrypted', async () => {
    await saveLastUser({ id: 'user-1', email: 'alice@example.com' });
    expect(await loadLastUser()).toEqual({ id: 'user-1', email: 'alice@example.com' });
    expect(JSON.stringify((await rawDump()).records)).not.toContain('alice@example.com');
  });

  it("drops another person's copy when a different user signs in", async () => {
    await saveVaultSnapshot('user-1', ACCOUNTS);
    await saveLastUser({ id: 'user-1' });
    await saveLastUser({ id: 'user-1' });
    expect(await loadVaultSnapshot<Account>('user-1')).toEqual(ACCOUNTS);
    await saveLastUser({ id: 'user-2' });
    expect(await loadVaultSnapshot('user-1')).toBeNull();
    expect(await loadLastUser()).toEqual({ id: 'user-2' });
  });

  it('wipeOfflineDataIfAny wipes only when something is stored', async () => {
    await wipeOfflineDataIfAny();
    expect(await hasOfflineData()).toBe(false);
    await saveVaultSnapshot('user-1', ACCOUNTS);
    await wipeOfflineDataIfAny();
    expect(await hasOfflineData()).toBe(false);
  });
});
