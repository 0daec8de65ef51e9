import { dedupeAccounts } from './fields';
import { decryptAegisVault, isAegis, parseAegisVault } from './importers/aegis';
import { parseBitwardenExport } from './importers/bitwarden';
import { isObject, parseJson } from './importers/json';
import { decryptTwoFasBackup, isTwoFas, parseTwoFasBackup, twoFasEncrypted } from './importers/two-fas';
import { OtpauthError, type ImportFormat, type ImportResult } from './model';
import { parseUriList } from './uri-list';

// One entry point for files and pasted text.

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
