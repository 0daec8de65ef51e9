/**
 * The authenticator vault (/api/user/vault*): end-to-end encrypted. The server stores and returns
 * only what the browser cannot use without the vault key: wrapped keys with their KDF parameters,
 * and entries as opaque ciphertext. Nothing here is readable by the server.
 */
import { z } from 'zod';
import { isoDateTime } from './shared';

/** Base64 (standard alphabet, padded) of at most `max` characters. */
const base64 = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64');

/** One encrypted account: at most 16 KiB of ciphertext (an account is well under 1 KiB). */
export const MAX_ENTRY_CIPHERTEXT_CHARS = 22_000;
/** Accounts per vault (the old server-side authenticator allowed 500). */
export const MAX_VAULT_ENTRIES = 1000;
/** A wrapped vault key: 12-byte IV + 32-byte key + 16-byte tag = 60 bytes, 80 in base64. */
const wrappedKey = base64(200);

export const EntryId = z.string().regex(/^[A-Za-z0-9_-]{8,40}$/, 'not an entry id');

/** How a slot's wrapping key is made from what the person holds. */
export const Argon2idKdf = z.object({
  name: z.literal('argon2id'),
  salt: base64(64),
  /** KiB */
  memoryKiB: z.number().int().min(65_536).max(1_048_576),
  iterations: z.number().int().min(3).max(20),
  parallelism: z.number().int().min(1).max(8),
});
export const HkdfKdf = z.object({ name: z.literal('hkdf-sha256'), salt: base64(64) });

/** One way to unlock: the vault key wrapped (AES-256-GCM) under a key only the person can make. */
export const VaultKeySlot = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('passphrase'), kdf: Argon2idKdf, wrappedKey }),
  z.object({ kind: z.literal('recovery'), kdf: HkdfKdf, wrappedKey }),
  z.object({ kind: z.literal('passkey'), kdf: HkdfKdf, credentialId: base64(1400), prfSalt: base64(64), wrappedKey }),
]);
export type VaultKeySlot = z.infer<typeof VaultKeySlot>;

export const VaultSlots = z
  .array(VaultKeySlot)
  .min(1)
  .max(20)
  .refine((slots) => slots.some((s) => s.kind === 'passphrase'), 'a vault needs a passphrase slot');

export const VaultHeader = z.object({
  /** random, chosen by the browser; bound into every entry's associated data */
  vaultId: EntryId,
  /** format of the slots and entries (1: AES-256-GCM, AAD `sixdigit-vault/1|vault|entry|version`) */
  format: z.literal(1),
  /** moves on each change of the slots (baseVersion of PUT /api/user/vault/keys) */
  version: z.number().int().min(1),
  slots: z.array(VaultKeySlot),
});
export type VaultHeader = z.infer<typeof VaultHeader>;

/** An entry as stored: id, version, ciphertext (null once deleted: a tombstone), when. */
export const VaultEntry = z.object({
  id: EntryId,
  version: z.number().int().min(1),
  ciphertext: z.string().nullable(),
  updatedAt: isoDateTime,
  /** the vault's change counter when this entry was last written (what `?since=` compares) */
  revision: z.number().int(),
});
export type VaultEntry = z.infer<typeof VaultEntry>;

/** GET /api/user/vault[?since=revision] */
export const VaultQuery = z.object({ since: z.coerce.number().int().min(0).optional() });
export const VaultState = z.object({
  header: VaultHeader.nullable(),
  /** the vault's change counter now; pass it as `since` to get only what changed after */
  revision: z.number().int(),
  entries: z.array(VaultEntry),
  /** how many accounts the old server-side authenticator still holds (they move in at creation) */
  legacyAccounts: z.number().int(),
});
export type VaultState = z.infer<typeof VaultState>;

const NewEntry = z.object({ id: EntryId, ciphertext: base64(MAX_ENTRY_CIPHERTEXT_CHARS) });

/** POST /api/user/vault: the vault's first version, with its first entries (version 1 each). */
export const CreateVaultBody = z.object({
  vaultId: EntryId,
  format: z.literal(1),
  slots: VaultSlots,
  entries: z.array(NewEntry).max(MAX_VAULT_ENTRIES).default([]),
  /** the old server-side accounts were read and are in `entries`: delete them in the same transaction */
  replaceLegacyAccounts: z.boolean().default(false),
});
export type CreateVaultBody = z.input<typeof CreateVaultBody>;

export const EntryParams = z.object({ id: EntryId });

/** PUT /api/user/vault/entries/:id: the new version is baseVersion + 1 (0 for a new entry). */
export const PutEntryBody = z.object({ baseVersion: z.number().int().min(0), ciphertext: base64(MAX_ENTRY_CIPHERTEXT_CHARS) });
export type PutEntryBody = z.infer<typeof PutEntryBody>;
/** DELETE /api/user/vault/entries/:id?baseVersion=n */
export const DeleteEntryQuery = z.object({ baseVersion: z.coerce.number().int().min(1) });

/** PUT /api/user/vault/keys: new slots (passphrase changed, new recovery key), entries untouched. */
export const PutKeysBody = z.object({ baseVersion: z.number().int().min(1), slots: VaultSlots });
export type PutKeysBody = z.infer<typeof PutKeysBody>;
