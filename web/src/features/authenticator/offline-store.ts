/**
 * The authenticator's offline copy: the vault as it was last loaded (wrapped keys and entry
 * ciphertext, issue 20), kept in IndexedDB so an installed or offline app unlocks and shows live
 * codes. The vault key itself is never stored here, wrapped or not, beyond what the server holds.
 *
 * The record is encrypted once more (older versions kept plaintext accounts here): AES-GCM (256 bit) under a key that WebCrypto
 * generates once with `extractable: false` and that is stored in the same database as a
 * CryptoKey object (structured-cloneable; script can use it but never read its bytes). Every save
 * gets a fresh random 96-bit IV, and the user id is the additional authenticated data, so one
 * user's record cannot be passed off as another's. Everything is wiped on logout, and when the
 * server says nobody is signed in while a copy exists.
 *
 * The last signed-in user is kept the same way, so that the app knows who is signed in when it
 * starts without a network (see `fetchCurrentUser`).
 */

const DB_NAME = 'sixdigit-offline';
const DB_VERSION = 1;
/** Encrypted records: `{ iv, data }`, keyed by `vault:<userId>` or `user`. */
const RECORDS = 'records';
/** The one non-extractable AES-GCM key, under KEY_ID. */
const KEYS = 'keys';
const KEY_ID = 'aes-gcm';
const LAST_USER = 'user';
const IV_BYTES = 12;

interface EncryptedRecord {
  /** Whose data this is (also bound into the ciphertext as additional data). */
  userId: string;
  iv: Uint8Array<ArrayBuffer>;
  data: ArrayBuffer;
}

let dbPromise: Promise<IDBDatabase> | null = null;
let keyPromise: Promise<CryptoKey> | null = null;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

function openDb(): Promise<IDBDatabase> {
  if (!dbPromise) {
    dbPromise = new Promise<IDBDatabase>((resolve, reject) => {
      if (typeof indexedDB === 'undefined') {
        reject(new Error('IndexedDB is not available'));
        return;
      }
      const req = indexedDB.open(DB_NAME, DB_VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(RECORDS)) db.createObjectStore(RECORDS);
        if (!db.objectStoreNames.contains(KEYS)) db.createObjectStore(KEYS);
      };
      req.onsuccess = () => {
        const db = req.result;
        // Another tab upgrading or deleting the database: let it, and reopen next time.
        db.onversionchange = () => {
          db.close();
          dbPromise = null;
          keyPromise = null;
        };
        resolve(db);
      };
      req.onerror = () => reject(req.error ?? new Error('Could not open IndexedDB'));
      req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    });
    dbPromise.catch(() => {
      dbPromise = null;
    });
  }
  return dbPromise;
}

/** The stored key, or a new non-extractable one stored for next time. */
async function getKey(): Promise<CryptoKey> {
  if (!keyPromise) {
    keyPromise = (async () => {
      const db = await openDb();
      const existing = await request(db.transaction(KEYS).objectStore(KEYS).get(KEY_ID) as IDBRequest<unknown>);
      if (isCryptoKeyLike(existing)) return existing as CryptoKey;
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      // `add` fails if another tab stored its key first; then use that one.
      const tx = db.transaction(KEYS, 'readwrite');
      const added = request(tx.objectStore(KEYS).add(key, KEY_ID)).then(
        () => true,
        () => false,
      );
      try {
        await done(tx);
      } catch {
        // The add lost the race; read the winner below.
      }
      if (await added) return key;
      const winner = await request(db.transaction(KEYS).objectStore(KEYS).get(KEY_ID) as IDBRequest<unknown>);
      if (!isCryptoKeyLike(winner)) throw new Error('No offline encryption key');
      return winner as CryptoKey;
    })();
    keyPromise.catch(() => {
      keyPromise = null;
    });
  }
  return keyPromise;
}

/** A stored CryptoKey (checked by shape: `instanceof` fails across realms, e.g. in tests). */
function isCryptoKeyLike(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    'algorithm' in value &&
    'usages' in value &&
    (value as { type: unknown }).type === 'secret'
  );
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function putEncrypted(id: string, userId: string, value: unknown): Promise<void> {
  const key = await getKey();
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(userId) },
    key,
    encoder.encode(JSON.stringify(value)),
  );
  const record: EncryptedRecord = { userId, iv, data };
  const db = await openDb();
  const tx = db.transaction(RECORDS, 'readwrite');
  tx.objectStore(RECORDS).put(record, id);
  await done(tx);
}

/** The decrypted value, or null when there is none or it cannot be decrypted (then it is dropped). */
async function getDecrypted<T>(id: string, userId: string | null): Promise<T | null> {
  const db = await openDb();
  const record = await request(
    db.transaction(RECORDS).objectStore(RECORDS).get(id) as IDBRequest<EncryptedRecord | undefined>,
  );
  if (!record) return null;
  if (userId !== null && record.userId !== userId) return null;
  try {
    const key = await getKey();
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: record.iv, additionalData: encoder.encode(record.userId) },
      key,
      record.data,
    );
    return JSON.parse(decoder.decode(plain)) as T;
  } catch {
    // Tampered with, or encrypted under a key that is gone: useless, so drop it.
    const tx = db.transaction(RECORDS, 'readwrite');
    tx.objectStore(RECORDS).delete(id);
    await done(tx).catch(() => undefined);
    return null;
  }
}

const accountsId = (userId: string) => `accounts:${userId}`;
const vaultId = (userId: string) => `vault:${userId}`;

/**
 * The vault as the server last sent it (wrapped keys and entry ciphertext: nothing readable
 * without the passphrase, recovery key or passkey), for unlocking offline. The plaintext copy
 * that versions before the vault kept (`accounts:<userId>`) is deleted as soon as a vault is saved.
 */
export async function saveVaultSnapshot<T>(userId: string, snapshot: T): Promise<void> {
  await putEncrypted(vaultId(userId), userId, snapshot);
  const db = await openDb();
  const tx = db.transaction(RECORDS, 'readwrite');
  tx.objectStore(RECORDS).delete(accountsId(userId));
  await done(tx);
}

export async function loadVaultSnapshot<T>(userId: string): Promise<T | null> {
  return getDecrypted<T>(vaultId(userId), userId);
}

/**
 * Remembers who is signed in, for starting without a network. Another person's offline copy
 * (someone who signed in on this browser before and did not log out) is dropped.
 */
export async function saveLastUser<T extends { id: string }>(user: T): Promise<void> {
  const db = await openDb();
  const tx = db.transaction(RECORDS, 'readwrite');
  const cursorRequest = tx.objectStore(RECORDS).openCursor();
  cursorRequest.onsuccess = () => {
    const cursor = cursorRequest.result;
    if (!cursor) return;
    if ((cursor.value as EncryptedRecord).userId !== user.id) cursor.delete();
    cursor.continue();
  };
  await done(tx);
  await putEncrypted(LAST_USER, user.id, user);
}

/** The last signed-in user, or null. */
export async function loadLastUser<T extends { id: string }>(): Promise<T | null> {
  return getDecrypted<T>(LAST_USER, null);
}

/** True when any offline data is stored (accounts or the last user). */
export async function hasOfflineData(): Promise<boolean> {
  const db = await openDb();
  const count = await request(db.transaction(RECORDS).objectStore(RECORDS).count());
  return count > 0;
}

/**
 * Deletes every offline record and the encryption key. Never throws: logging out must go on even
 * when storage is unavailable.
 */
export async function wipeOfflineData(): Promise<void> {
  try {
    const db = await openDb();
    const tx = db.transaction([RECORDS, KEYS], 'readwrite');
    tx.objectStore(RECORDS).clear();
    tx.objectStore(KEYS).clear();
    await done(tx);
  } catch {
    // Nothing stored, or no IndexedDB at all.
  } finally {
    keyPromise = null;
  }
}

/** Wipes the offline data if there is any (used when the server says nobody is signed in). */
export async function wipeOfflineDataIfAny(): Promise<void> {
  try {
    if (await hasOfflineData()) await wipeOfflineData();
  } catch {
    // No IndexedDB: nothing to wipe.
  }
}
