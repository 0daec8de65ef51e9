import { OtpauthError, type ImportResult, type OtpAccount } from '../model';

/** What the JSON backup importers share: tolerant readers, per-entry collection and AES-GCM. */

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
export const num = (v: unknown): number | string | null => (typeof v === 'number' || typeof v === 'string' ? v : null);

export function parseJson(input: string | unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input.replace(/^\uFEFF/, ''));
  } catch {
    throw new OtpauthError('The file is not valid JSON.', 'unrecognised');
  }
}

export function collect(entries: unknown[], convert: (entry: Json) => OtpAccount, labelOf: (entry: Json, index: number) => string): ImportResult {
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

export async function aesGcmDecrypt(key: Uint8Array, iv: Uint8Array, ciphertextAndTag: Uint8Array): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey('raw', key as BufferSource, 'AES-GCM', false, ['decrypt']);
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv as BufferSource }, cryptoKey, ciphertextAndTag as BufferSource));
}

export const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};
