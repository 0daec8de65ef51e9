import { base64ToBytes, utf8 } from '../encoding';
import { accountLabel, validateAccount } from '../fields';
import { OtpauthError, clip, fail, type ImportResult } from '../model';
import { splitLabel } from '../uri';
import { aesGcmDecrypt, collect, isObject, num, parseJson, str, type Json } from './json';

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

export function isTwoFas(doc: unknown): doc is Json {
  return isObject(doc) && (Array.isArray(doc.services) || typeof doc.servicesEncrypted === 'string');
}

export const twoFasEncrypted = (doc: Json) => typeof doc.servicesEncrypted === 'string' && doc.servicesEncrypted.length > 0;

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
