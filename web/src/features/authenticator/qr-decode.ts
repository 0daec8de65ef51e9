/**
 * Reads the QR codes of an image on this device: the browser decodes the picture (PNG, JPEG,
 * WebP, a phone photo) and zxing-wasm (ZXing compiled to WebAssembly, served from our own
 * origin) finds the codes. The image never leaves the page: a QR of an authenticator holds
 * its secret.
 */
import { INVALID_QR_MESSAGE, OtpauthError, parseOtpauthUri, parseUriList, type OtpAccount, type SkippedEntry } from '@common/otpauth';
import type { ScanResult } from '@common/contract/authenticator';
import { QrScanError, readQrTexts } from './qr-pixels';

export { QrScanError };

/** The accounts in QR texts: otpauth:// links, else Google Authenticator export (migration) codes. */
export function accountsFromQrTexts(texts: string[]): ScanResult {
  const migration = texts.filter((t) => /^otpauth-migration:/i.test(t.trim()));
  const links = texts.filter((t) => /^otpauth:/i.test(t.trim()));
  let accounts: OtpAccount[] = [];
  let skipped: SkippedEntry[] = [];
  if (links.length > 0) {
    for (const link of links) {
      try {
        accounts.push(parseOtpauthUri(link));
      } catch (err) {
        if (!(err instanceof OtpauthError)) throw err;
      }
    }
  } else if (migration.length > 0) {
    ({ accounts, skipped } = parseUriList(migration.join('\n')));
  }
  const first = accounts[0];
  if (!first) throw new QrScanError(INVALID_QR_MESSAGE);
  return { ...first, source: links.length > 0 ? 'otpauth' : 'migration', accounts, skipped };
}

export async function scanQrImage(file: Blob): Promise<ScanResult> {
  return accountsFromQrTexts(await readQrTexts(file));
}
