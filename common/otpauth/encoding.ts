import { OtpauthError } from './model';

/** base32 (RFC 4648), base64 and hex without Node's Buffer: the browser imports these too. */

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

export function base64ToBytes(text: string): Uint8Array {
  // Accept URL-safe base64, missing padding, and `+` that a form decoder turned into a space.
  let clean = text.trim().replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw new OtpauthError('The data is not valid base64.');
  clean = clean.replace(/=+$/, '');
  if (clean.length % 4 === 1) throw new OtpauthError('The data is not valid base64.');
  const binary = atob(clean + '='.repeat((4 - (clean.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new OtpauthError('The vault holds a value that is not hexadecimal.', 'unrecognised');
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

export const utf8 = new TextEncoder();
export const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
