import { validateAccount } from '../fields';
import { OtpauthError, fail, type ImportResult } from '../model';
import { parseOtpauthUri } from '../uri';
import { collect, isObject, parseJson, str, type Json } from './json';

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
