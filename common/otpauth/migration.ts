import { base32Decode, base32Encode, base64ToBytes, bytesToBase64, strictUtf8, utf8 } from './encoding';
import { accountLabel, validateAccount } from './fields';
import { DEFAULTS, OtpauthError, fail, type ImportResult, type OtpAccount, type OtpAlgorithm, type SkippedEntry } from './model';
import { splitLabel } from './uri';

// Google Authenticator exports: `otpauth-migration://offline?data=…` (a protobuf payload), read and written.

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
