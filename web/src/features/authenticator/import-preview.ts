/**
 * What an import will add and what it will skip, before anything is sent. The formats are read
 * by `common/otpauth` (`importAny`) or, for QR images, by `qr-decode.ts` on this device (zxing-wasm,
 * which reads Google Authenticator export QR codes too); this file only combines the results.
 */
import { accountKey, accountLabel, type ImportResult, type OtpAccount, type SkippedEntry } from '@common/otpauth';
import type { ScanResult } from './api';

export interface ImportPreview {
  accounts: OtpAccount[];
  skipped: SkippedEntry[];
}

export const ALREADY_ADDED = 'Already in your authenticator.';
export const REPEATED = 'Already in the list.';

/** Drops accounts already in the authenticator and repeats within the import, saying why. */
export function buildPreview(result: ImportResult, existing: ReadonlyArray<Pick<OtpAccount, 'issuer' | 'accountName' | 'secret'>>): ImportPreview {
  const stored = new Set(existing.map(accountKey));
  const seen = new Set<string>();
  const preview: ImportPreview = { accounts: [], skipped: [...result.skipped] };
  for (const account of result.accounts) {
    const key = accountKey(account);
    if (stored.has(key)) preview.skipped.push({ reason: ALREADY_ADDED, label: accountLabel(account) });
    else if (seen.has(key)) preview.skipped.push({ reason: REPEATED, label: accountLabel(account) });
    else {
      seen.add(key);
      preview.accounts.push(account);
    }
  }
  return preview;
}

export interface ImageScan {
  /** the file name, to say which image failed */
  name: string;
  result?: ScanResult;
  /** why the image could not be read */
  error?: string;
}

/** The note `parseUriList` writes when QR codes of a multi-part Google export are missing. */
const MISSING_PARTS = /^QR codes? ([\d, ]+) of (\d+) of this Google Authenticator export (?:is|are) missing/;
export const EXPORT_LABEL = 'Google Authenticator export';

function missingNote(missing: number[], size: number): SkippedEntry {
  const many = missing.length > 1;
  return {
    reason: `QR code${many ? 's' : ''} ${missing.join(', ')} of ${size} of this Google Authenticator export ${many ? 'are' : 'is'} missing: add ${many ? 'them' : 'it'} to import every account.`,
    label: EXPORT_LABEL,
  };
}

/**
 * Combines the QR images of one import. The server reads each image on its own, so an image
 * holding QR code 1 of 3 says "2 and 3 are missing" even when the next image holds them: the
 * parts each image holds are pooled, and only the parts no image holds are reported missing.
 */
export function mergeImageScans(scans: ImageScan[]): ImportResult {
  const merged: ImportResult = { accounts: [], skipped: [] };
  /** per export size: the parts some image held */
  const held = new Map<number, Set<number>>();
  for (const scan of scans) {
    if (!scan.result) {
      merged.skipped.push({ reason: scan.error ?? 'Could not read a QR code in this image.', label: scan.name });
      continue;
    }
    merged.accounts.push(...scan.result.accounts);
    for (const entry of scan.result.skipped) {
      const match = entry.label === EXPORT_LABEL ? MISSING_PARTS.exec(entry.reason) : null;
      if (!match) {
        merged.skipped.push(entry);
        continue;
      }
      const size = Number(match[2]);
      const missing = new Set(match[1]!.split(',').map((part) => Number(part.trim())));
      const parts = held.get(size) ?? new Set<number>();
      for (let part = 1; part <= size; part++) if (!missing.has(part)) parts.add(part);
      held.set(size, parts);
    }
  }
  for (const [size, parts] of held) {
    const missing = Array.from({ length: size }, (_, i) => i + 1).filter((part) => !parts.has(part));
    if (missing.length > 0) merged.skipped.push(missingNote(missing, size));
  }
  return merged;
}

/** The non-default settings of an account, for the preview ("HOTP", "SHA256", "8 digits", "60 s"). */
export function settingsOf(account: OtpAccount): string[] {
  const settings: string[] = [];
  if (account.type === 'hotp') settings.push(`HOTP, counter ${account.counter ?? 0}`);
  if (account.algorithm !== 'SHA1') settings.push(account.algorithm);
  if (account.digits !== 6) settings.push(`${account.digits} digits`);
  if (account.type === 'totp' && account.period !== 30) settings.push(`${account.period} s`);
  return settings;
}
