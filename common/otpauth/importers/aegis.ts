import { scryptAsync } from '@noble/hashes/scrypt.js';
import { base64ToBytes, hexToBytes, utf8 } from '../encoding';
import { accountLabel, validateAccount } from '../fields';
import { OtpauthError, clip, fail, type ImportResult } from '../model';
import { aesGcmDecrypt, collect, concat, isObject, num, parseJson, str, type Json } from './json';

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

export function isAegis(doc: unknown): doc is Json & { header: Json } {
  return isObject(doc) && isObject(doc.header) && 'db' in doc;
}

/** An unencrypted Aegis vault (`aegis-export-plain-*.json`). */
export function parseAegisVault(input: string | unknown): ImportResult {
  const doc = parseJson(input);
  if (!isAegis(doc)) throw new OtpauthError('This is not an Aegis vault.', 'unrecognised');
  if (typeof doc.db === 'string') throw new OtpauthError('This Aegis vault is encrypted: enter its password.', 'password_required');
  return aegisEntries(doc.db);
}

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
