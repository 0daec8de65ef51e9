import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import encodeWebp, { init as initWebpEncoder } from '@jsquash/webp/encode.js';
import type { FastifyInstance } from 'fastify';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/** Test helpers for the account TOTP and authenticator routes: sign-in, uploads, images. */

/** What a browser sends with a write from our own page. */
export const ORIGIN = { origin: 'http://localhost:5000', 'sec-fetch-site': 'same-origin' };

let address = 0;
/** Signs in through the local sign-in, each time from another address (its limit is per address). */
export async function signInFresh(app: FastifyInstance, email: string): Promise<string> {
  address += 1;
  const res = await app.inject({
    method: 'POST',
    url: '/api/login/local',
    remoteAddress: `10.77.${(address >> 8) & 255}.${address & 255}`,
    payload: new URLSearchParams({ email, name: 'Test User' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
  });
  if (res.statusCode !== 303) throw new Error(`local sign-in failed: ${res.statusCode} ${res.body}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

export const uniqueEmail = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;

export interface Part {
  name: string;
  data: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body written by hand (what a browser's FormData sends). */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sixdigit${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.contentType ? `Content-Type: ${part.contentType}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const imagePart = (data: Buffer, filename = 'qr.png', contentType = 'image/png'): Part => ({ name: 'qr-image', data, filename, contentType });

export function qrPng(text: string, width = 360): Promise<Buffer> {
  return QRCode.toBuffer(text, { width, margin: 4, errorCorrectionLevel: 'M' });
}

function rgba(png: Buffer): { data: Buffer; width: number; height: number } {
  const decoded = PNG.sync.read(png);
  return { data: decoded.data, width: decoded.width, height: decoded.height };
}

export function pngToJpeg(png: Buffer, quality = 85): Buffer {
  return jpeg.encode(rgba(png), quality).data;
}

let webpReady: Promise<unknown> | undefined;
export async function pngToWebp(png: Buffer): Promise<Buffer> {
  const require = createRequire(import.meta.url);
  webpReady ??= WebAssembly.compile(readFileSync(require.resolve('@jsquash/webp/codec/enc/webp_enc.wasm'))).then((m) => initWebpEncoder(m));
  await webpReady;
  const { data, width, height } = rgba(png);
  const image = { data: new Uint8ClampedArray(data), width, height, colorSpace: 'srgb' } as ImageData;
  return Buffer.from(await encodeWebp(image, { quality: 90 }));
}

/** A picture with no QR code in it: a soft diagonal gradient. */
export function blankPng(width = 240, height = 180): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      png.data[i] = (x * 255) / width;
      png.data[i + 1] = (y * 255) / height;
      png.data[i + 2] = 180;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** A PNG signature and IHDR that claim `width`×`height`, with nothing after (never decoded). */
export function pngHeaderClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.writeUInt8(8, 16);
  ihdr.writeUInt8(6, 17);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}
