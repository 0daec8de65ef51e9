import { describe, expect, it } from 'vitest';
import type { VaultHeader } from '../contract/vault';
import {
  ARGON2_PARAMS,
  TamperedEntryError,
  WrongSecretError,
  decryptEntry,
  encryptEntry,
  formatRecoveryKey,
  fromBase64,
  importVaultKey,
  newRecoveryKey,
  newVaultId,
  newVaultKey,
  openWithPasskey,
  openWithPassphrase,
  openWithRecoveryKey,
  parseRecoveryKey,
  passkeySlot,
  passphraseSlot,
  randomBytes,
  recoverySlot,
  toBase64,
} from './crypto';

async function makeVault(passphrase = 'correct horse battery staple') {
  const raw = newVaultKey();
  const vaultId = newVaultId();
  const recoveryKey = newRecoveryKey();
  const header: VaultHeader = { vaultId, format: 1, version: 1, slots: [await passphraseSlot(raw, vaultId, passphrase), await recoverySlot(raw, vaultId, recoveryKey)] };
  return { raw: raw.slice(), vaultId, recoveryKey, header, key: await importVaultKey(raw) };
}

describe('vault crypto', () => {
  it('unwraps the same vault key with the passphrase and with the recovery key, not with a wrong one', async () => {
    const v = await makeVault();
    expect(toBase64(await openWithPassphrase(v.header, 'correct horse battery staple'))).toBe(toBase64(v.raw));
    expect(toBase64(await openWithRecoveryKey(v.header, v.recoveryKey.toLowerCase().replace(/-/g, ' ')))).toBe(toBase64(v.raw));
    await expect(openWithPassphrase(v.header, 'correct horse battery stapler')).rejects.toBeInstanceOf(WrongSecretError);
    await expect(openWithRecoveryKey(v.header, newRecoveryKey())).rejects.toBeInstanceOf(WrongSecretError);
    await expect(openWithRecoveryKey(v.header, 'not a key')).rejects.toBeInstanceOf(WrongSecretError);
  });

  it('stores the Argon2id parameters and a fresh salt beside the wrapped key', async () => {
    const v = await makeVault();
    const slot = v.header.slots[0]!;
    expect(slot.kind).toBe('passphrase');
    if (slot.kind !== 'passphrase') return;
    expect(slot.kdf).toMatchObject({ name: 'argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 1 });
    expect(ARGON2_PARAMS.memoryKiB).toBeGreaterThanOrEqual(64 * 1024);
    expect(fromBase64(slot.kdf.salt)).toHaveLength(16);
    // The wrapped key is IV + 32-byte key + tag, and not the key itself.
    expect(fromBase64(slot.wrappedKey)).toHaveLength(12 + 32 + 16);
    expect(slot.wrappedKey).not.toContain(toBase64(v.raw));
    const other = await makeVault();
    expect((other.header.slots[0] as typeof slot).kdf.salt).not.toBe(slot.kdf.salt);
  });

  it('refuses a wrapped key moved to another vault or to another unlock method', async () => {
    const v = await makeVault();
    const moved = { ...v.header, vaultId: newVaultId() };
    await expect(openWithPassphrase(moved, 'correct horse battery staple')).rejects.toBeInstanceOf(WrongSecretError);
    const relabelled = { ...v.header, slots: [{ ...v.header.slots[0]!, wrappedKey: v.header.slots[1]!.wrappedKey }] };
    await expect(openWithPassphrase(relabelled, 'correct horse battery staple')).rejects.toBeInstanceOf(WrongSecretError);
  });

  it('reads a recovery key back from its written form', () => {
    const bytes = randomBytes(20);
    const written = formatRecoveryKey(bytes);
    expect(written).toMatch(/^([A-Z2-7]{4}-){7}[A-Z2-7]{4}$/);
    expect(toBase64(parseRecoveryKey(` ${written.toLowerCase()} `)!)).toBe(toBase64(bytes));
    expect(parseRecoveryKey(written.slice(1))).toBeNull();
    // O/I/B typed as 0/1/8 still read.
    const letters = 'OIBA'.repeat(8);
    expect(toBase64(parseRecoveryKey(letters.replace(/O/g, '0').replace(/I/g, '1').replace(/B/g, '8'))!)).toBe(toBase64(parseRecoveryKey(letters)!));
  });

  it('binds each entry to its vault, id and version: swapped or rolled-back entries fail', async () => {
    const v = await makeVault();
    const a = await encryptEntry(v.key, v.vaultId, 'entry-a-0001', 2, { secret: 'A' });
    const b = await encryptEntry(v.key, v.vaultId, 'entry-b-0001', 1, { secret: 'B' });
    expect(await decryptEntry(v.key, v.vaultId, 'entry-a-0001', 2, a)).toEqual({ secret: 'A' });
    // Swapped: B's ciphertext served as A.
    await expect(decryptEntry(v.key, v.vaultId, 'entry-a-0001', 2, b)).rejects.toBeInstanceOf(TamperedEntryError);
    // Rolled back: version 1's ciphertext served as version 2.
    const a1 = await encryptEntry(v.key, v.vaultId, 'entry-a-0001', 1, { secret: 'old' });
    await expect(decryptEntry(v.key, v.vaultId, 'entry-a-0001', 2, a1)).rejects.toBeInstanceOf(TamperedEntryError);
    // Another vault's key opens nothing.
    const other = await makeVault('another passphrase');
    await expect(decryptEntry(other.key, v.vaultId, 'entry-a-0001', 2, a)).rejects.toBeInstanceOf(TamperedEntryError);
  });

  it('opens a passkey slot only with the same credential and PRF output', async () => {
    const v = await makeVault();
    const prf = randomBytes(32);
    const header = { ...v.header, slots: [...v.header.slots, await passkeySlot(v.raw.slice(), v.vaultId, prf, 'cred-1', toBase64(randomBytes(32)))] };
    expect(toBase64(await openWithPasskey(header, 'cred-1', prf))).toBe(toBase64(v.raw));
    await expect(openWithPasskey(header, 'cred-1', randomBytes(32))).rejects.toBeInstanceOf(WrongSecretError);
    await expect(openWithPasskey(header, 'cred-2', prf)).rejects.toBeInstanceOf(WrongSecretError);
  });
});
