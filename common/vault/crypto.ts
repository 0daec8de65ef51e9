/**
 * The authenticator vault's cryptography, WebCrypto only (+ hash-wasm's Argon2id). It runs in
 * the browser (and in Node 20 for tests); the server never runs it and never holds a key.
 *
 * - The vault key: 256 random bits, made on the device, never sent or stored unwrapped.
 * - Each unlock method wraps it with AES-256-GCM under its own key: Argon2id(passphrase), or
 *   HKDF(recovery key), or HKDF(passkey PRF output). The wrapping AAD names the vault and method.
 * - Each entry: AES-256-GCM under the vault key, AAD = vault id + entry id + version, so the
 *   server cannot swap two entries or pass an old ciphertext off as a newer version.
 */
import { argon2id } from 'hash-wasm';
import { base32Decode, base32Encode } from '../otpauth/encoding';
import type { VaultHeader, VaultKeySlot } from '../contract/vault';

/** Argon2id for the passphrase: 64 MiB, 3 passes (OWASP's first choice is 46 MiB/1 pass; this is stronger). */
export const ARGON2_PARAMS = { memoryKiB: 65_536, iterations: 3, parallelism: 1 } as const;
const FORMAT = 'sixdigit-vault/1';
const IV_BYTES = 12;
/** 160 random bits: 32 base32 characters, shown as 8 groups of 4. */
const RECOVERY_KEY_BYTES = 20;

type PassphraseSlot = Extract<VaultKeySlot, { kind: 'passphrase' }>;
type RecoverySlot = Extract<VaultKeySlot, { kind: 'recovery' }>;
type PasskeySlot = Extract<VaultKeySlot, { kind: 'passkey' }>;

/** The secret given does not open this vault (wrong passphrase, recovery key or passkey). */
export class WrongSecretError extends Error {
  override readonly name = 'WrongSecretError';
}
/** An entry's ciphertext does not match its id/version (tampered, swapped or rolled back). */
export class TamperedEntryError extends Error {
  override readonly name = 'TamperedEntryError';
}

const subtle = () => globalThis.crypto.subtle;
const text = new TextEncoder();

export function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function fromBase64(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** 128 random bits, URL-safe: vault and entry ids. */
export function newVaultId(): string {
  return toBase64(randomBytes(16)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
export const newEntryId = newVaultId;

const slotAad = (vaultId: string, kind: VaultKeySlot['kind']) => text.encode(`${FORMAT}|key|${vaultId}|${kind}`);
const entryAad = (vaultId: string, entryId: string, version: number) => text.encode(`${FORMAT}|entry|${vaultId}|${entryId}|${version}`);

async function seal(key: CryptoKey, plaintext: Uint8Array<ArrayBuffer>, aad: Uint8Array<ArrayBuffer>): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const sealed = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plaintext));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return toBase64(out);
}

/** Undefined when the key or the associated data is not the one it was sealed with. */
async function open(key: CryptoKey, ciphertext: string, aad: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const bytes = fromBase64(ciphertext);
  try {
    return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), additionalData: aad }, key, bytes.slice(IV_BYTES)));
  } catch {
    return undefined;
  }
}

const aesKey = (raw: Uint8Array<ArrayBuffer>, usages: KeyUsage[]) => subtle().importKey('raw', raw, { name: 'AES-GCM' }, false, usages);

async function hkdfKey(ikm: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, info: string): Promise<CryptoKey> {
  const base = await subtle().importKey('raw', ikm, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt, info: text.encode(info) }, base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

async function passphraseKey(passphrase: string, kdf: PassphraseSlot['kdf']): Promise<CryptoKey> {
  const derived = await argon2id({
    password: passphrase.normalize('NFC'),
    salt: fromBase64(kdf.salt),
    memorySize: kdf.memoryKiB,
    iterations: kdf.iterations,
    parallelism: kdf.parallelism,
    hashLength: 32,
    outputType: 'binary',
  });
  const key = await aesKey(new Uint8Array(derived), ['encrypt', 'decrypt']);
  derived.fill(0);
  return key;
}

/** A fresh vault key (raw bytes: wrap it, import it, then `fill(0)` it). */
export function newVaultKey(): Uint8Array<ArrayBuffer> {
  return randomBytes(32);
}

/** The vault key as the page keeps it while unlocked: usable, not exportable. */
export function importVaultKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return aesKey(raw, ['encrypt', 'decrypt']);
}

export async function passphraseSlot(
  vaultKey: Uint8Array<ArrayBuffer>,
  vaultId: string,
  passphrase: string,
  params: { memoryKiB: number; iterations: number; parallelism: number } = ARGON2_PARAMS,
): Promise<PassphraseSlot> {
  const kdf = { name: 'argon2id' as const, salt: toBase64(randomBytes(16)), ...params };
  return { kind: 'passphrase', kdf, wrappedKey: await seal(await passphraseKey(passphrase, kdf), vaultKey, slotAad(vaultId, 'passphrase')) };
}

/** A new recovery key, as the person writes it down: 8 groups of 4 base32 characters. */
export function newRecoveryKey(): string {
  return formatRecoveryKey(randomBytes(RECOVERY_KEY_BYTES));
}

export function formatRecoveryKey(bytes: Uint8Array): string {
  return base32Encode(bytes).replace(/=+$/, '').match(/.{1,4}/g)!.join('-');
}

/**
 * Reads a recovery key typed or pasted any way: case, spaces and dashes do not matter, and the
 * digits 0, 1 and 8 (never in base32) are read as the letters O, I and B they are mistaken for.
 */
export function parseRecoveryKey(typed: string): Uint8Array<ArrayBuffer> | null {
  const compact = typed.toUpperCase().replace(/[\s-]/g, '').replace(/0/g, 'O').replace(/1/g, 'I').replace(/8/g, 'B');
  if (!/^[A-Z2-7]{32}$/.test(compact)) return null;
  return new Uint8Array(base32Decode(compact));
}

export async function recoverySlot(vaultKey: Uint8Array<ArrayBuffer>, vaultId: string, recoveryKey: string): Promise<RecoverySlot> {
  const bytes = parseRecoveryKey(recoveryKey);
  if (!bytes) throw new Error('not a recovery key');
  const kdf = { name: 'hkdf-sha256' as const, salt: toBase64(randomBytes(16)) };
  const key = await hkdfKey(bytes, fromBase64(kdf.salt), `${FORMAT} recovery`);
  return { kind: 'recovery', kdf, wrappedKey: await seal(key, vaultKey, slotAad(vaultId, 'recovery')) };
}

/** A passkey's PRF output (32 bytes from `extensions.prf.results.first`) wraps the vault key. */
export async function passkeySlot(vaultKey: Uint8Array<ArrayBuffer>, vaultId: string, prfOutput: Uint8Array<ArrayBuffer>, credentialId: string, prfSalt: string): Promise<PasskeySlot> {
  const kdf = { name: 'hkdf-sha256' as const, salt: toBase64(randomBytes(16)) };
  const key = await hkdfKey(prfOutput, fromBase64(kdf.salt), `${FORMAT} passkey`);
  return { kind: 'passkey', kdf, credentialId, prfSalt, wrappedKey: await seal(key, vaultKey, slotAad(vaultId, 'passkey')) };
}

/** The raw vault key from the first slot of `kind` the secret opens; WrongSecretError if none. */
async function openSlots(header: Pick<VaultHeader, 'vaultId' | 'slots'>, kind: VaultKeySlot['kind'], keyFor: (slot: VaultKeySlot) => Promise<CryptoKey | null>): Promise<Uint8Array<ArrayBuffer>> {
  for (const slot of header.slots.filter((s) => s.kind === kind)) {
    const key = await keyFor(slot);
    const raw = key && (await open(key, slot.wrappedKey, slotAad(header.vaultId, kind)));
    if (raw && raw.length === 32) return raw;
  }
  throw new WrongSecretError(`That ${kind === 'recovery' ? 'recovery key' : kind} does not open this vault.`);
}

export function openWithPassphrase(header: Pick<VaultHeader, 'vaultId' | 'slots'>, passphrase: string): Promise<Uint8Array<ArrayBuffer>> {
  return openSlots(header, 'passphrase', (slot) => passphraseKey(passphrase, (slot as PassphraseSlot).kdf));
}

export function openWithRecoveryKey(header: Pick<VaultHeader, 'vaultId' | 'slots'>, recoveryKey: string): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = parseRecoveryKey(recoveryKey);
  if (!bytes) return Promise.reject(new WrongSecretError('A recovery key is 32 letters and digits (2–7), in groups of 4.'));
  return openSlots(header, 'recovery', (slot) => hkdfKey(bytes, fromBase64((slot as RecoverySlot).kdf.salt), `${FORMAT} recovery`));
}

export function openWithPasskey(header: Pick<VaultHeader, 'vaultId' | 'slots'>, credentialId: string, prfOutput: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return openSlots(header, 'passkey', async (slot) => {
    const s = slot as PasskeySlot;
    return s.credentialId === credentialId ? hkdfKey(prfOutput, fromBase64(s.kdf.salt), `${FORMAT} passkey`) : null;
  });
}

export async function encryptEntry(key: CryptoKey, vaultId: string, entryId: string, version: number, value: unknown): Promise<string> {
  return seal(key, text.encode(JSON.stringify(value)), entryAad(vaultId, entryId, version));
}

export async function decryptEntry(key: CryptoKey, vaultId: string, entryId: string, version: number, ciphertext: string): Promise<unknown> {
  const plain = await open(key, ciphertext, entryAad(vaultId, entryId, version));
  if (!plain) throw new TamperedEntryError(`Entry ${entryId} (version ${version}) does not decrypt: it was changed, swapped or rolled back.`);
  return JSON.parse(new TextDecoder().decode(plain)) as unknown;
}
