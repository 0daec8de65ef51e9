import { parseMigrationUri } from './migration';
import { OtpauthError, type ImportResult, type OtpAccount } from './model';
import { describeUri, parseOtpauthUri, toOtpauthUri } from './uri';

// Plain text with one link per line: what `toUriList` writes and `parseUriList` reads back.

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

/** Every account as an otpauth:// link, one per line (the format `parseUriList` reads back). */
export function toUriList(accounts: OtpAccount[]): string {
  return accounts.map(toOtpauthUri).join('\n') + (accounts.length ? '\n' : '');
}
