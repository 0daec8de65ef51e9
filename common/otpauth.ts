import { scryptAsync } from '@noble/hashes/scrypt.js';
import { HOTP, Secret, TOTP } from 'otpauth';

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

// --- the shapes ------------------------------------------------------------------------------

export const OTP_TYPES = ['totp', 'hotp'] as const;
export type OtpType = (typeof OTP_TYPES)[number];
export const OTP_ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const;
export type OtpAlgorithm = (typeof OTP_ALGORITHMS)[number];

/** A normalised account: base32 secret upper case without spaces or padding. */
export interface OtpAccount {
  type: OtpType;
  issuer: string | null;
  accountName: string;
  secret: string;
  algorithm: OtpAlgorithm;
  digits: number;
  /** seconds per code (TOTP); 30 for HOTP, where it is not used */
  period: number;
  /** the next HOTP counter; null for TOTP */
  counter: number | null;
}

/** What a person types or a client sends: everything but the name and the secret is optional. */
export interface AccountInput {
  accountName?: string | null;
  issuer?: string | null;
  secret?: string | null;
  algorithm?: string | null;
  digits?: number | string | null;
  period?: number | string | null;
  type?: string | null;
  counter?: number | string | null;
}

export interface SkippedEntry {
  /** why it was not imported, in words for a person */
  reason: string;
  /** which entry: "Issuer: name", "line 3", … — never the secret */
  label: string;
}

export interface ImportResult {
  accounts: OtpAccount[];
  skipped: SkippedEntry[];
}

export type ImportFormat = 'otpauth' | 'aegis' | '2fas' | 'bitwarden';

export const LIMITS = {
  digits: { min: 6, max: 8 },
  period: { min: 10, max: 300 },
  /** base32 characters: 8 = 40 bits (short legacy secrets exist); 256 = 160 bytes */
  secret: { min: 8, max: 256 },
  accountName: { max: 200 },
  issuer: { max: 200 },
} as const;

export const DEFAULTS = { algorithm: 'SHA1' as OtpAlgorithm, digits: 6, period: 30 };

/** SPEC.md §5 and §8: the words a person sees for a QR code that is not a TOTP one. */
export const INVALID_QR_MESSAGE = "Invalid QR Code: This doesn't appear to be a valid TOTP QR code.";
/** SPEC.md §8: the words for an image in which no QR code could be read. */
export const QR_NOT_FOUND_MESSAGE = 'QR Scan Failed: Could not read QR code from the image. Please try again or enter details manually.';

export type OtpauthErrorCode = 'invalid' | 'unrecognised' | 'password_required' | 'wrong_password';

/** A rule that input broke; `message` is written for a person and never contains a secret. */
export class OtpauthError extends Error {
  constructor(
    message: string,
    readonly code: OtpauthErrorCode = 'invalid',
    readonly field?: keyof OtpAccount | 'uri',
  ) {
    super(message);
    this.name = 'OtpauthError';
  }
}

const fail = (message: string, field?: OtpauthError['field']): never => {
  throw new OtpauthError(message, 'invalid', field);
};

// --- base32 / base64 / text --------------------------------------------------------------------

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** Decodes normalised base32 (see `normaliseSecret`); trailing bits that make no byte are dropped. */
export function base32Decode(text: string): Uint8Array {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new OtpauthError('The secret is not valid base32 (letters A–Z and digits 2–7).', 'invalid', 'secret');
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

function base64ToBytes(text: string): Uint8Array {
  // Accept URL-safe base64, missing padding, and `+` that a form decoder turned into a space.
  let clean = text.trim().replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw new OtpauthError('The data is not valid base64.');
  clean = clean.replace(/=+$/, '');
  if (clean.length % 4 === 1) throw new OtpauthError('The data is not valid base64.');
  const binary = atob(clean + '='.repeat((4 - (clean.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new OtpauthError('The vault holds a value that is not hexadecimal.', 'unrecognised');
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// --- the field rules ---------------------------------------------------------------------------

/** Spaces, hyphens and lower case accepted; `=` padding dropped. Throws on anything else. */
export function normaliseSecret(input: string | null | undefined): string {
  const secret = (input ?? '').replace(/[\s-]+/g, '').replace(/=+$/, '').toUpperCase();
  if (!secret) fail('The secret is missing.', 'secret');
  if (!/^[A-Z2-7]+$/.test(secret)) fail('The secret is not valid base32 (letters A–Z and digits 2–7).', 'secret');
  if (secret.length < LIMITS.secret.min) fail(`The secret is too short (at least ${LIMITS.secret.min} characters).`, 'secret');
  if (secret.length > LIMITS.secret.max) fail(`The secret is too long (at most ${LIMITS.secret.max} characters).`, 'secret');
  return secret;
}

export function normaliseAlgorithm(input: string | null | undefined): OtpAlgorithm {
  if (input === null || input === undefined || input.trim() === '') return DEFAULTS.algorithm;
  const name = input.trim().toUpperCase().replace(/^HMAC-?/, '').replace(/-/g, '');
  if ((OTP_ALGORITHMS as readonly string[]).includes(name)) return name as OtpAlgorithm;
  return fail(`Unsupported algorithm "${clip(input.trim(), 20)}" (use SHA1, SHA256 or SHA512).`, 'algorithm');
}

function integerIn(input: number | string | null | undefined, field: 'digits' | 'period' | 'counter', min: number, max: number, fallback?: number): number {
  if (input === null || input === undefined || (typeof input === 'string' && input.trim() === '')) {
    if (fallback !== undefined) return fallback;
    return fail(field === 'counter' ? 'An HOTP account needs its counter.' : `The ${field} are missing.`, field);
  }
  const text = typeof input === 'number' ? String(input) : input.trim();
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    if (field === 'digits') return fail(`Codes must have ${min} to ${max} digits (got "${clip(text, 12)}").`, field);
    if (field === 'period') return fail(`The period must be ${min} to ${max} seconds (got "${clip(text, 12)}").`, field);
    return fail(`The counter must be a whole number from 0 (got "${clip(text, 24)}").`, field);
  }
  return value;
}

function cleanText(input: string | null | undefined, what: 'account name' | 'issuer', max: number): string {
  const text = (input ?? '').normalize('NFC').trim();
  if (text.includes('\u0000')) fail(`The ${what} must not contain NUL characters.`, what === 'issuer' ? 'issuer' : 'accountName');
  if ([...text].length > max) fail(`The ${what} is too long (at most ${max} characters).`, what === 'issuer' ? 'issuer' : 'accountName');
  return text;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The rules for one account, whatever it came from. Name and secret are required (SPEC.md §5);
 * the rest default to SHA1, 6 digits, 30 seconds, TOTP. HOTP needs a counter.
 */
export function validateAccount(input: AccountInput): OtpAccount {
  const typeText = (input.type ?? 'totp').trim().toLowerCase() || 'totp';
  if (typeText === 'steam') fail('Steam Guard accounts are not supported.', 'type');
  if (!(OTP_TYPES as readonly string[]).includes(typeText)) fail(`Unknown OTP type "${clip(typeText, 20)}" (use totp or hotp).`, 'type');
  const type = typeText as OtpType;
  const issuer = cleanText(input.issuer, 'issuer', LIMITS.issuer.max) || null;
  const accountName = cleanText(input.accountName, 'account name', LIMITS.accountName.max);
  if (!accountName) fail('The account name is missing.', 'accountName');
  return {
    type,
    issuer,
    accountName,
    secret: normaliseSecret(input.secret),
    algorithm: normaliseAlgorithm(input.algorithm),
    digits: integerIn(input.digits, 'digits', LIMITS.digits.min, LIMITS.digits.max, DEFAULTS.digits),
    period: type === 'totp' ? integerIn(input.period, 'period', LIMITS.period.min, LIMITS.period.max, DEFAULTS.period) : DEFAULTS.period,
    counter: type === 'hotp' ? integerIn(input.counter, 'counter', 0, Number.MAX_SAFE_INTEGER) : null,
  };
}

/** How an account is named to a person: "Issuer: name" or "name". */
export function accountLabel(account: { issuer?: string | null; accountName?: string | null }): string {
  const name = (account.accountName ?? '').trim();
  const issuer = (account.issuer ?? '').trim();
  if (issuer && name && issuer !== name) return `${issuer}: ${name}`;
  return issuer || name || '(unnamed)';
}

/** Two entries are the same account when issuer, name (both case-insensitive) and secret agree. */
export function accountKey(account: Pick<OtpAccount, 'issuer' | 'accountName' | 'secret'>): string {
  return [(account.issuer ?? '').trim().toLowerCase(), account.accountName.trim().toLowerCase(), account.secret].join('\u0000');
}

/** Drops repeats within a list (and of `existing` keys), saying which were dropped. */
export function dedupeAccounts(accounts: OtpAccount[], existing: Iterable<string> = []): ImportResult {
  const seen = new Set(existing);
  const result: ImportResult = { accounts: [], skipped: [] };
  for (const account of accounts) {
    const key = accountKey(account);
    if (seen.has(key)) {
      result.skipped.push({ reason: 'Already in the list.', label: accountLabel(account) });
      continue;
    }
    seen.add(key);
    result.accounts.push(account);
  }
  return result;
}

// --- otpauth:// --------------------------------------------------------------------------------

const OTPAUTH = /^otpauth:\/\/([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?(?:#.*)?$/i;

function decodeComponent(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return fail(`The ${what} is not valid percent-encoding.`, 'uri');
  }
}

/** Query parameters with form semantics (`+` is a space), names case-insensitive, first wins. */
function queryParams(query: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of query.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = decodeComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '), 'link').toLowerCase();
    const value = eq < 0 ? '' : decodeComponent(part.slice(eq + 1).replace(/\+/g, ' '), `"${clip(name, 20)}" parameter`);
    if (!params.has(name)) params.set(name, value);
  }
  return params;
}

/**
 * Splits a decoded label "Issuer:name" (spaces around the colon ignored). `%3A`/`%3a` have
 * already become ":" by then, so they split too, as Google's Key URI format says.
 */
function splitLabel(label: string): { prefix: string | null; name: string } {
  const colon = label.indexOf(':');
  if (colon < 0) return { prefix: null, name: label.trim() };
  return { prefix: label.slice(0, colon).trim() || null, name: label.slice(colon + 1).trim() };
}

/** Only the readable part of a link, for messages: "otpauth://totp/Issuer:name" without the query. */
function describeUri(uri: string): string {
  const match = OTPAUTH.exec(uri.trim());
  if (!match) return clip(uri.trim().split('?')[0] ?? '', 60);
  try {
    return clip(decodeURIComponent(match[2] ?? '') || `otpauth://${match[1]}`, 80);
  } catch {
    return clip(match[2] ?? '', 80);
  }
}

/**
 * Reads one `otpauth://totp/…` or `otpauth://hotp/…` link. The issuer parameter wins over the
 * label prefix; the prefix is used when there is no parameter. Throws `OtpauthError` saying what
 * is wrong; show `INVALID_QR_MESSAGE` to a person who scanned it.
 */
export function parseOtpauthUri(uri: string): OtpAccount {
  const text = uri.trim();
  if (/^otpauth-migration:/i.test(text)) fail('This is a Google Authenticator export link: import it instead.', 'uri');
  const match = OTPAUTH.exec(text);
  if (!match) return fail('Not an otpauth:// link.', 'uri');
  const type = (match[1] ?? '').toLowerCase();
  if (type === 'steam') fail('Steam Guard accounts are not supported.', 'type');
  if (!(OTP_TYPES as readonly string[]).includes(type)) fail(`Unknown OTP type "${clip(type, 20)}" (use totp or hotp).`, 'type');
  const label = decodeComponent(match[2] ?? '', 'label');
  const params = queryParams(match[3] ?? '');
  if (!params.has('secret')) fail('The secret is missing.', 'secret');
  const issuerParam = (params.get('issuer') ?? '').trim();
  // An issuer that itself holds a colon ("A:B") still prefixes the label as a whole.
  const repeated = issuerParam.includes(':') && label.trimStart().startsWith(issuerParam) ? label.trimStart().slice(issuerParam.length).trimStart() : null;
  const { prefix, name } = repeated?.startsWith(':') ? { prefix: issuerParam, name: repeated.slice(1).trim() } : splitLabel(label);
  const issuer = issuerParam || prefix;
  return validateAccount({
    type,
    issuer,
    // A label of only "Issuer:" (or nothing) names the account after its issuer.
    accountName: name || issuer,
    secret: params.get('secret'),
    algorithm: params.get('algorithm'),
    digits: params.get('digits'),
    period: params.get('period'),
    counter: params.get('counter'),
  });
}

/** Writes an account as an otpauth:// link that Google Authenticator, Aegis, 2FAS… read. */
export function toOtpauthUri(account: OtpAccount): string {
  const enc = encodeURIComponent;
  const label = account.issuer ? `${enc(account.issuer)}:${enc(account.accountName)}` : enc(account.accountName);
  const params = [`secret=${account.secret}`];
  if (account.issuer) params.push(`issuer=${enc(account.issuer)}`);
  params.push(`algorithm=${account.algorithm}`, `digits=${account.digits}`);
  params.push(account.type === 'hotp' ? `counter=${account.counter ?? 0}` : `period=${account.period}`);
  return `otpauth://${account.type}/${label}?${params.join('&')}`;
}

// --- Google Authenticator export: otpauth-migration://offline?data=… -------------------------

/** One QR code of a Google Authenticator export ("batch_index of batch_size", same batch_id). */
export interface MigrationBatch {
  id: number;
  index: number;
  size: number;
}

/** Minimal protobuf wire-format reader (varint, length-delimited; fixed32/64 skipped). */
class ProtoReader {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw new OtpauthError('The export data is cut short.', 'unrecognised');
      const byte = this.bytes[this.pos++]!;
      result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new OtpauthError('The export data is not a Google Authenticator export.', 'unrecognised');
  }

  bytesField(): Uint8Array {
    const length = this.varint();
    if (length > this.bytes.length - this.pos) throw new OtpauthError('The export data is cut short.', 'unrecognised');
    const out = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  /** Reads a field tag, or skips the value of one this reader does not want. */
  tag(): { field: number; wire: number } {
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: key % 8 };
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 2) this.bytesField();
    else if (wire === 1 || wire === 5) {
      this.pos += wire === 1 ? 8 : 4;
      if (this.pos > this.bytes.length) throw new OtpauthError('The export data is cut short.', 'unrecognised');
    } else throw new OtpauthError('The export data is not a Google Authenticator export.', 'unrecognised');
  }
}

class ProtoWriter {
  private readonly out: number[] = [];

  varint(value: number): this {
    let v = value;
    while (v >= 128) {
      this.out.push((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    this.out.push(v);
    return this;
  }

  uint(field: number, value: number): this {
    return this.varint(field * 8).varint(value);
  }

  bytes(field: number, value: Uint8Array): this {
    this.varint(field * 8 + 2).varint(value.length);
    for (const byte of value) this.out.push(byte);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

const MIGRATION_ALGORITHMS: Record<number, OtpAlgorithm | 'MD5'> = { 0: 'SHA1', 1: 'SHA1', 2: 'SHA256', 3: 'SHA512', 4: 'MD5' };

interface RawOtpParameters {
  secret: Uint8Array;
  name: string;
  issuer: string;
  algorithm: number;
  digits: number;
  type: number;
  counter: number;
}

function readOtpParameters(bytes: Uint8Array): RawOtpParameters {
  const reader = new ProtoReader(bytes);
  const p: RawOtpParameters = { secret: new Uint8Array(), name: '', issuer: '', algorithm: 0, digits: 0, type: 0, counter: 0 };
  const text = (b: Uint8Array) => {
    try {
      return strictUtf8.decode(b);
    } catch {
      throw new OtpauthError('A name in the export is not valid UTF-8.', 'unrecognised');
    }
  };
  while (!reader.done) {
    const { field, wire } = reader.tag();
    if (field === 1 && wire === 2) p.secret = reader.bytesField();
    else if (field === 2 && wire === 2) p.name = text(reader.bytesField());
    else if (field === 3 && wire === 2) p.issuer = text(reader.bytesField());
    else if (field === 4 && wire === 0) p.algorithm = reader.varint();
    else if (field === 5 && wire === 0) p.digits = reader.varint();
    else if (field === 6 && wire === 0) p.type = reader.varint();
    else if (field === 7 && wire === 0) p.counter = reader.varint();
    else reader.skip(wire);
  }
  return p;
}

function fromOtpParameters(p: RawOtpParameters): OtpAccount {
  const algorithm = MIGRATION_ALGORITHMS[p.algorithm];
  if (algorithm === undefined || algorithm === 'MD5') fail(`Unsupported algorithm${algorithm ? ` "${algorithm}"` : ''} (use SHA1, SHA256 or SHA512).`, 'algorithm');
  const digits = p.digits === 2 ? 8 : p.digits === 0 || p.digits === 1 ? 6 : fail('Unsupported number of digits.', 'digits');
  if (p.secret.length === 0) fail('The secret is missing.', 'secret');
  // Google keeps the whole label as the name; drop an "Issuer:" prefix that repeats the issuer.
  const { prefix, name } = splitLabel(p.name);
  const issuer = p.issuer.trim() || prefix;
  const accountName = prefix && (!p.issuer.trim() || prefix.toLowerCase() === p.issuer.trim().toLowerCase()) ? name : p.name.trim();
  return validateAccount({
    type: p.type === 1 ? 'hotp' : 'totp',
    issuer,
    accountName: accountName || issuer,
    secret: base32Encode(p.secret),
    algorithm,
    digits,
    period: DEFAULTS.period,
    counter: p.type === 1 ? p.counter : null,
  });
}

/** Reads one migration link: its accounts, the ones it could not take, and which batch it is. */
export function parseMigrationUri(uri: string): ImportResult & { batch: MigrationBatch | null } {
  const text = uri.trim();
  const match = /^otpauth-migration:\/\/offline\/?\?(.*)$/i.exec(text);
  if (!match) throw new OtpauthError('Not a Google Authenticator export link (otpauth-migration://offline?data=…).', 'unrecognised');
  // Read `data` without form decoding: base64 may hold a literal "+".
  const raw = (match[1] ?? '').split('&').find((part) => /^data=/i.test(part));
  if (!raw || raw.length <= 5) throw new OtpauthError('The export link has no data.', 'unrecognised');
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(decodeURIComponent(raw.slice(5)));
  } catch {
    throw new OtpauthError('The export link data is not valid.', 'unrecognised');
  }
  const reader = new ProtoReader(bytes);
  const result: ImportResult & { batch: MigrationBatch | null } = { accounts: [], skipped: [], batch: null };
  const batch = { id: 0, index: 0, size: 0 };
  let entry = 0;
  while (!reader.done) {
    const { field, wire } = reader.tag();
    if (field === 1 && wire === 2) {
      entry += 1;
      const raw = readOtpParameters(reader.bytesField());
      const label = accountLabel({ issuer: raw.issuer, accountName: raw.name }) || `entry ${entry}`;
      try {
        result.accounts.push(fromOtpParameters(raw));
      } catch (err) {
        if (!(err instanceof OtpauthError)) throw err;
        result.skipped.push({ reason: err.message, label });
      }
    } else if (field === 3 && wire === 0) batch.size = reader.varint();
    else if (field === 4 && wire === 0) batch.index = reader.varint();
    else if (field === 5 && wire === 0) batch.id = reader.varint();
    else reader.skip(wire);
  }
  if (batch.size > 1) result.batch = batch;
  return result;
}

/**
 * Google-Authenticator-compatible export links, `batchSize` accounts per link (one QR code
 * each). That format has no period and only 6 or 8 digits: other accounts are listed as skipped.
 */
export function toMigrationUris(accounts: OtpAccount[], options: { batchSize?: number; batchId?: number } = {}): { uris: string[]; skipped: SkippedEntry[] } {
  const batchSize = Math.max(1, Math.min(options.batchSize ?? 10, 50));
  const skipped: SkippedEntry[] = [];
  const fitting = accounts.filter((a) => {
    if (a.type === 'totp' && a.period !== 30) skipped.push({ reason: `Google Authenticator exports only 30-second codes (this one is ${a.period} s).`, label: accountLabel(a) });
    else if (a.digits !== 6 && a.digits !== 8) skipped.push({ reason: `Google Authenticator exports only 6 or 8 digits (this one has ${a.digits}).`, label: accountLabel(a) });
    else return true;
    return false;
  });
  const batchId = options.batchId ?? crypto.getRandomValues(new Uint32Array(1))[0]! & 0x7fffffff;
  const batches = Math.ceil(fitting.length / batchSize);
  const uris: string[] = [];
  for (let index = 0; index < batches; index++) {
    const payload = new ProtoWriter();
    for (const account of fitting.slice(index * batchSize, (index + 1) * batchSize)) {
      const p = new ProtoWriter()
        .bytes(1, base32Decode(account.secret))
        .string(2, account.accountName)
        .string(3, account.issuer ?? '')
        .uint(4, { SHA1: 1, SHA256: 2, SHA512: 3 }[account.algorithm])
        .uint(5, account.digits === 8 ? 2 : 1)
        .uint(6, account.type === 'hotp' ? 1 : 2);
      if (account.type === 'hotp') p.uint(7, account.counter ?? 0);
      payload.bytes(1, p.finish());
    }
    payload.uint(2, 1).uint(3, batches).uint(4, index).uint(5, batchId);
    uris.push(`otpauth-migration://offline?data=${encodeURIComponent(bytesToBase64(payload.finish()))}`);
  }
  return { uris, skipped };
}

// --- lists of links ------------------------------------------------------------------------------

/**
 * One link per line: otpauth:// and otpauth-migration:// (several QR codes of one export are
 * merged, and a missing one is reported). Blank lines and lines starting with # are ignored.
 */
export function parseUriList(text: string): ImportResult {
  const result: ImportResult = { accounts: [], skipped: [] };
  const batches = new Map<number, { size: number; seen: Set<number> }>();
  const lines = text.split(/\r?\n/);
  lines.forEach((rawLine, i) => {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) return;
    const where = `line ${i + 1}`;
    if (/^otpauth-migration:/i.test(line)) {
      try {
        const part = parseMigrationUri(line);
        result.accounts.push(...part.accounts);
        result.skipped.push(...part.skipped);
        if (part.batch) {
          const known = batches.get(part.batch.id) ?? { size: part.batch.size, seen: new Set<number>() };
          known.seen.add(part.batch.index);
          batches.set(part.batch.id, known);
        }
      } catch (err) {
        if (!(err instanceof OtpauthError)) throw err;
        result.skipped.push({ reason: err.message, label: where });
      }
      return;
    }
    if (!/^otpauth:/i.test(line)) {
      result.skipped.push({ reason: 'Not an otpauth:// link.', label: where });
      return;
    }
    try {
      result.accounts.push(parseOtpauthUri(line));
    } catch (err) {
      if (!(err instanceof OtpauthError)) throw err;
      result.skipped.push({ reason: err.message, label: `${where} (${describeUri(line)})` });
    }
  });
  for (const { size, seen } of batches.values()) {
    const missing = Array.from({ length: size }, (_, i) => i).filter((i) => !seen.has(i));
    if (missing.length > 0) {
      result.skipped.push({
        reason: `QR code${missing.length > 1 ? 's' : ''} ${missing.map((i) => i + 1).join(', ')} of ${size} of this Google Authenticator export ${missing.length > 1 ? 'are' : 'is'} missing: add ${missing.length > 1 ? 'them' : 'it'} to import every account.`,
        label: 'Google Authenticator export',
      });
    }
  }
  return result;
}

// --- JSON backups ----------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const num = (v: unknown): number | string | null => (typeof v === 'number' || typeof v === 'string' ? v : null);

function parseJson(input: string | unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input.replace(/^\uFEFF/, ''));
  } catch {
    throw new OtpauthError('The file is not valid JSON.', 'unrecognised');
  }
}

function collect(entries: unknown[], convert: (entry: Json) => OtpAccount, labelOf: (entry: Json, index: number) => string): ImportResult {
  const result: ImportResult = { accounts: [], skipped: [] };
  entries.forEach((entry, i) => {
    if (!isObject(entry)) {
      result.skipped.push({ reason: 'Not an account entry.', label: `entry ${i + 1}` });
      return;
    }
    try {
      result.accounts.push(convert(entry));
    } catch (err) {
      if (!(err instanceof OtpauthError)) throw err;
      result.skipped.push({ reason: err.message, label: labelOf(entry, i) });
    }
  });
  return result;
}

// Aegis (https://github.com/beemdevelopment/Aegis/blob/master/docs/vault.md)

function aegisEntries(db: unknown): ImportResult {
  if (!isObject(db) || !Array.isArray(db.entries)) throw new OtpauthError('This is not an Aegis vault.', 'unrecognised');
  return collect(
    db.entries,
    (e) => {
      const info = isObject(e.info) ? e.info : {};
      const type = str(e.type)?.toLowerCase() ?? 'totp';
      if (type !== 'totp' && type !== 'hotp') fail(type === 'steam' ? 'Steam Guard accounts are not supported.' : `Unsupported OTP type "${clip(type, 20)}".`, 'type');
      return validateAccount({
        type,
        issuer: str(e.issuer),
        accountName: str(e.name) || str(e.issuer),
        secret: str(info.secret),
        algorithm: str(info.algo),
        digits: num(info.digits),
        period: num(info.period),
        counter: num(info.counter),
      });
    },
    (e, i) => accountLabel({ issuer: str(e.issuer), accountName: str(e.name) }) || `entry ${i + 1}`,
  );
}

function isAegis(doc: unknown): doc is Json & { header: Json } {
  return isObject(doc) && isObject(doc.header) && 'db' in doc;
}

/** An unencrypted Aegis vault (`aegis-export-plain-*.json`). */
export function parseAegisVault(input: string | unknown): ImportResult {
  const doc = parseJson(input);
  if (!isAegis(doc)) throw new OtpauthError('This is not an Aegis vault.', 'unrecognised');
  if (typeof doc.db === 'string') throw new OtpauthError('This Aegis vault is encrypted: enter its password.', 'password_required');
  return aegisEntries(doc.db);
}

async function aesGcmDecrypt(key: Uint8Array, iv: Uint8Array, ciphertextAndTag: Uint8Array): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey('raw', key as BufferSource, 'AES-GCM', false, ['decrypt']);
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv as BufferSource }, cryptoKey, ciphertextAndTag as BufferSource));
}

const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/** An encrypted Aegis vault: scrypt (per password slot) unwraps the master key, AES-256-GCM. */
export async function decryptAegisVault(input: string | unknown, password: string): Promise<ImportResult> {
  const doc = parseJson(input);
  if (!isAegis(doc)) throw new OtpauthError('This is not an Aegis vault.', 'unrecognised');
  if (typeof doc.db !== 'string') return aegisEntries(doc.db);
  const params = doc.header.params;
  const slots = Array.isArray(doc.header.slots) ? doc.header.slots.filter((s): s is Json => isObject(s) && s.type === 1) : [];
  if (!isObject(params) || slots.length === 0) throw new OtpauthError('This Aegis vault has no password slot to open it with.', 'unrecognised');
  let masterKey: Uint8Array | null = null;
  for (const slot of slots) {
    const n = Number(slot.n);
    const r = Number(slot.r);
    const p = Number(slot.p);
    const keyParams = isObject(slot.key_params) ? slot.key_params : {};
    // Guard against a crafted file asking for gigabytes of memory.
    if (!Number.isInteger(n) || n < 2 || n > 2 ** 20 || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16)) continue;
    const derived = await scryptAsync(utf8.encode(password), hexToBytes(str(slot.salt) ?? ''), { N: n, r, p, dkLen: 32, maxmem: 2 ** 31 });
    try {
      masterKey = await aesGcmDecrypt(derived, hexToBytes(str(keyParams.nonce) ?? ''), concat(hexToBytes(str(slot.key) ?? ''), hexToBytes(str(keyParams.tag) ?? '')));
      break;
    } catch {
      // wrong password for this slot: try the next one
    }
  }
  if (!masterKey) throw new OtpauthError('Wrong password for this Aegis vault.', 'wrong_password');
  let plain: Uint8Array;
  try {
    plain = await aesGcmDecrypt(masterKey, hexToBytes(str(params.nonce) ?? ''), concat(base64ToBytes(doc.db), hexToBytes(str(params.tag) ?? '')));
  } catch {
    throw new OtpauthError('The Aegis vault is damaged: it cannot be decrypted.', 'unrecognised');
  }
  return aegisEntries(parseJson(new TextDecoder().decode(plain)));
}

// 2FAS (`.2fas` backups, schema versions 2–4)

function twoFasServices(services: unknown[]): ImportResult {
  return collect(
    services,
    (s) => {
      const otp = isObject(s.otp) ? s.otp : {};
      const tokenType = str(otp.tokenType)?.toUpperCase() ?? (otp.counter !== undefined ? 'HOTP' : 'TOTP');
      if (tokenType !== 'TOTP' && tokenType !== 'HOTP') fail(tokenType === 'STEAM' ? 'Steam Guard accounts are not supported.' : `Unsupported OTP type "${clip(tokenType, 20)}".`, 'type');
      const issuer = str(otp.issuer) || str(s.name);
      const labelName = str(otp.label) ? splitLabel(str(otp.label)!).name : null;
      return validateAccount({
        type: tokenType.toLowerCase(),
        issuer,
        accountName: str(otp.account) || labelName || issuer,
        secret: str(s.secret),
        algorithm: str(otp.algorithm),
        digits: num(otp.digits),
        period: num(otp.period),
        counter: num(otp.counter),
      });
    },
    (s, i) => {
      const otp = isObject(s.otp) ? s.otp : {};
      return accountLabel({ issuer: str(otp.issuer) || str(s.name), accountName: str(otp.account) }) || `entry ${i + 1}`;
    },
  );
}

function isTwoFas(doc: unknown): doc is Json {
  return isObject(doc) && (Array.isArray(doc.services) || typeof doc.servicesEncrypted === 'string');
}

const twoFasEncrypted = (doc: Json) => typeof doc.servicesEncrypted === 'string' && doc.servicesEncrypted.length > 0;

/** An unencrypted 2FAS backup (`.2fas`). */
export function parseTwoFasBackup(input: string | unknown): ImportResult {
  const doc = parseJson(input);
  if (!isTwoFas(doc)) throw new OtpauthError('This is not a 2FAS backup.', 'unrecognised');
  if (twoFasEncrypted(doc)) throw new OtpauthError('This 2FAS backup is encrypted: enter its password.', 'password_required');
  return twoFasServices(doc.services as unknown[]);
}

/** An encrypted 2FAS backup: PBKDF2-HMAC-SHA256 (10,000 rounds) and AES-256-GCM. */
export async function decryptTwoFasBackup(input: string | unknown, password: string): Promise<ImportResult> {
  const doc = parseJson(input);
  if (!isTwoFas(doc)) throw new OtpauthError('This is not a 2FAS backup.', 'unrecognised');
  if (!twoFasEncrypted(doc)) return twoFasServices((doc.services as unknown[]) ?? []);
  const [data, salt, iv] = (doc.servicesEncrypted as string).split(':');
  if (!data || !salt || !iv) throw new OtpauthError('The 2FAS backup is damaged: it cannot be decrypted.', 'unrecognised');
  const baseKey = await crypto.subtle.importKey('raw', utf8.encode(password) as BufferSource, 'PBKDF2', false, ['deriveBits']);
  const key = new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: base64ToBytes(salt) as BufferSource, iterations: 10_000 }, baseKey, 256),
  );
  let plain: Uint8Array;
  try {
    plain = await aesGcmDecrypt(key, base64ToBytes(iv), base64ToBytes(data));
  } catch {
    throw new OtpauthError('Wrong password for this 2FAS backup.', 'wrong_password');
  }
  const services = parseJson(new TextDecoder().decode(plain));
  if (!Array.isArray(services)) throw new OtpauthError('The 2FAS backup is damaged: it cannot be decrypted.', 'unrecognised');
  return twoFasServices(services);
}

// Bitwarden (unencrypted JSON export): each login's `totp` is a link or a bare secret.

/** An unencrypted Bitwarden JSON export: the logins that carry a TOTP. */
export function parseBitwardenExport(input: string | unknown): ImportResult {
  const doc = parseJson(input);
  if (!isObject(doc) || !Array.isArray(doc.items)) throw new OtpauthError('This is not a Bitwarden export.', 'unrecognised');
  if (doc.encrypted === true) throw new OtpauthError('Encrypted Bitwarden exports are not supported: export unencrypted JSON.', 'unrecognised');
  const withTotp = doc.items.filter((item) => isObject(item) && isObject(item.login) && typeof item.login.totp === 'string' && item.login.totp.trim());
  return collect(
    withTotp,
    (item) => {
      const login = item.login as Json;
      const totp = (str(login.totp) ?? '').trim();
      if (/^steam:/i.test(totp)) fail('Steam Guard accounts are not supported.', 'type');
      if (/^otpauth:/i.test(totp)) return parseOtpauthUri(totp);
      return validateAccount({ issuer: str(item.name), accountName: str(login.username) || str(item.name), secret: totp });
    },
    (item, i) => str(item.name) || `item ${i + 1}`,
  );
}

// --- one entry point for files and pasted text ---------------------------------------------------

/**
 * Recognises the format of a file or pasted text and imports it. Encrypted Aegis and 2FAS
 * backups need `password` (else an `OtpauthError` with code `password_required`). Repeats
 * within the input are dropped and listed as skipped.
 */
export async function importAny(input: string, options: { password?: string } = {}): Promise<ImportResult & { format: ImportFormat }> {
  const text = input.replace(/^\uFEFF/, '').trim();
  if (!text) throw new OtpauthError('There is nothing to import.', 'unrecognised');
  let format: ImportFormat;
  let result: ImportResult;
  if (text.startsWith('{')) {
    const doc = parseJson(text);
    if (isAegis(doc)) {
      format = 'aegis';
      result = typeof doc.db === 'string' && options.password === undefined ? parseAegisVault(doc) : await decryptAegisVault(doc, options.password ?? '');
    } else if (isTwoFas(doc)) {
      format = '2fas';
      result = twoFasEncrypted(doc) && options.password === undefined ? parseTwoFasBackup(doc) : await decryptTwoFasBackup(doc, options.password ?? '');
    } else if (isObject(doc) && Array.isArray(doc.items)) {
      format = 'bitwarden';
      result = parseBitwardenExport(doc);
    } else {
      throw new OtpauthError('This file is not a backup this app can read (Aegis, 2FAS, Bitwarden or a list of otpauth:// links).', 'unrecognised');
    }
  } else {
    format = 'otpauth';
    result = parseUriList(text);
    if (result.accounts.length === 0 && result.skipped.every((s) => s.reason === 'Not an otpauth:// link.')) {
      throw new OtpauthError('This file is not a backup this app can read (Aegis, 2FAS, Bitwarden or a list of otpauth:// links).', 'unrecognised');
    }
  }
  const deduped = dedupeAccounts(result.accounts);
  return { format, accounts: deduped.accounts, skipped: [...result.skipped, ...deduped.skipped] };
}

/** Every account as an otpauth:// link, one per line (the format `parseUriList` reads back). */
export function toUriList(accounts: OtpAccount[]): string {
  return accounts.map(toOtpauthUri).join('\n') + (accounts.length ? '\n' : '');
}

// --- codes -------------------------------------------------------------------------------------------

/** The code for a TOTP account at `timestamp` (ms), or for an HOTP account at its counter. */
export function generateCode(account: Pick<OtpAccount, 'type' | 'secret' | 'algorithm' | 'digits' | 'period' | 'counter'>, timestamp = Date.now()): string {
  const secret = Secret.fromBase32(account.secret);
  if (account.type === 'hotp') {
    return HOTP.generate({ secret, algorithm: account.algorithm, digits: account.digits, counter: account.counter ?? 0 });
  }
  return TOTP.generate({ secret, algorithm: account.algorithm, digits: account.digits, period: account.period, timestamp });
}

/** Whole seconds until the current TOTP code changes (1…period). */
export function secondsRemaining(period: number, timestamp = Date.now()): number {
  const ms = period * 1000;
  return Math.ceil((ms - (timestamp % ms)) / 1000);
}

/** When the current TOTP code stops being the current one. */
export function codeExpiresAt(period: number, timestamp = Date.now()): Date {
  const ms = period * 1000;
  return new Date(Math.floor(timestamp / ms) * ms + ms);
}
