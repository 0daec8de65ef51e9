/**
 * The one module that reads and writes authenticator accounts, imported by the server and the
 * browser alike (so: no `node:` imports; WebCrypto, atob/btoa and TextEncoder only).
 *
 * - `parseOtpauthUri`: one `otpauth://totp|hotp/…` link (Google's Key URI format).
 * - `validateAccount`: the same rules for fields typed by hand or sent to the API.
 * - importers (`importAny` and one per format): otpauth URI lists, Google Authenticator
 *   `otpauth-migration://offline?data=…` links (protobuf), Aegis vaults, 2FAS backups,
 *   Bitwarden JSON; each answers `{ accounts, skipped: [{ reason, label }] }`.
 * - exporters: an otpauth URI list and Google-Authenticator-compatible migration links.
 * - `generateCode` / `secondsRemaining`: codes computed where they are shown (DESIGN.md §9).
 */

export {
  DEFAULTS,
  INVALID_QR_MESSAGE,
  LIMITS,
  OTP_ALGORITHMS,
  OTP_TYPES,
  OtpauthError,
  QR_NOT_FOUND_MESSAGE,
  type AccountInput,
  type ImportFormat,
  type ImportResult,
  type OtpAccount,
  type OtpAlgorithm,
  type OtpauthErrorCode,
  type OtpType,
  type SkippedEntry,
} from './model';
export { base32Decode, base32Encode } from './encoding';
export { accountKey, accountLabel, dedupeAccounts, normaliseAlgorithm, normaliseSecret, validateAccount } from './fields';
export { parseOtpauthUri, toOtpauthUri } from './uri';
export { parseMigrationUri, toMigrationUris, type MigrationBatch } from './migration';
export { parseUriList, toUriList } from './uri-list';
export { decryptAegisVault, parseAegisVault } from './importers/aegis';
export { decryptTwoFasBackup, parseTwoFasBackup } from './importers/two-fas';
export { parseBitwardenExport } from './importers/bitwarden';
export { importAny } from './import-any';
export { codeExpiresAt, generateCode, secondsRemaining } from './codes';
