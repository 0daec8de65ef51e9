import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { QR_NOT_FOUND_MESSAGE as NOT_FOUND } from '@common/otpauth';
import decodeWebp, { init as initWebp } from '@jsquash/webp/decode.js';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { AppError } from '../../lib/errors';

/**
 * Reads QR codes from an image, in-process and without native builds. No route takes an image any
 * more (the authenticator reads QR images in the browser: issue 20); the tests of the account
 * TOTP and of payments use it to read the QR codes the server draws. It works with zxing-wasm (the
 * ZXing C++ reader compiled to WebAssembly, whose stb_image reads PNG and JPEG from the bytes)
 * and @jsquash/webp (libwebp in WebAssembly) for WebP. Both wasm files ship in their npm
 * packages and are loaded from disk here; nothing is fetched at run time.
 */

export type ImageType = 'png' | 'jpeg' | 'webp';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** Decoded RGBA costs 4 bytes a pixel: 24 MP is ~96 MB, enough for any phone photo saved at 12 MP. */
export const MAX_PIXELS = 24_000_000;
export const MAX_SIDE = 12_000;

const require = createRequire(import.meta.url);
let zxingReady: Promise<unknown> | undefined;
let webpReady: Promise<void> | undefined;

function loadZxing(): Promise<unknown> {
  zxingReady ??= prepareZXingModule({
    overrides: { wasmBinary: readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm')).buffer as ArrayBuffer },
    fireImmediately: true,
  });
  return zxingReady;
}

function loadWebp(): Promise<void> {
  webpReady ??= WebAssembly.compile(readFileSync(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm'))).then((module) => initWebp(module));
  return webpReady;
}

/** The type by its first bytes (the declared content type is not trusted). */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  const b = (i: number) => bytes[i];
  if (bytes.length >= 8 && b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47 && b(4) === 0x0d && b(5) === 0x0a && b(6) === 0x1a && b(7) === 0x0a) return 'png';
  if (bytes.length >= 3 && b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpeg';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  return null;
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** Width and height from the header, before anything is decoded; null when the header is damaged. */
export function imageSize(bytes: Uint8Array, type: ImageType): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (type === 'png') {
      if (ascii(bytes, 12, 4) !== 'IHDR') return null;
      return { width: view.getUint32(16), height: view.getUint32(20) };
    }
    if (type === 'jpeg') {
      let at = 2;
      while (at + 9 < bytes.length) {
        if (bytes[at] !== 0xff) return null;
        const marker = bytes[at + 1]!;
        if (marker === 0xff) {
          at += 1;
          continue;
        }
        // SOF0–SOF15 hold the frame size (C4 DHT, C8 JPG and CC DAC are not frames).
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
        }
        if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
          at += 2;
          continue;
        }
        at += 2 + view.getUint16(at + 2);
      }
      return null;
    }
    const chunk = ascii(bytes, 12, 4);
    if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = view.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X') {
      const u24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
      return { width: u24(24) + 1, height: u24(27) + 1 };
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * Every QR code's text in the image, in reading order. Throws AppError: 415 for another file
 * type, 413 for too many pixels, 422 `qr_not_found` for a damaged image or one without a QR code.
 */
export async function readQrCodes(bytes: Uint8Array): Promise<string[]> {
  const type = detectImageType(bytes);
  if (!type) throw new AppError('unsupported_media_type', 'Upload a PNG, JPEG or WebP image.');
  const size = imageSize(bytes, type);
  if (!size || size.width === 0 || size.height === 0) throw new AppError('qr_not_found', NOT_FOUND);
  if (size.width > MAX_SIDE || size.height > MAX_SIDE || size.width * size.height > MAX_PIXELS) {
    throw new AppError('payload_too_large', `The image is too large (${size.width}×${size.height} pixels): at most ${MAX_PIXELS / 1_000_000} megapixels.`);
  }
  await loadZxing();
  let input: Uint8Array | ImageData = bytes;
  if (type === 'webp') {
    await loadWebp();
    try {
      const copy = bytes.slice().buffer;
      input = await decodeWebp(copy);
    } catch {
      throw new AppError('qr_not_found', NOT_FOUND);
    }
  }
  const results = await readBarcodes(input, { formats: ['QRCode'], tryHarder: true, tryRotate: true, tryInvert: true, maxNumberOfSymbols: 16 });
  const texts = results.filter((r) => r.isValid && r.text).map((r) => r.text);
  if (texts.length === 0) throw new AppError('qr_not_found', NOT_FOUND);
  return texts;
}
