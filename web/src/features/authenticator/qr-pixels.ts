/** The pixel side of reading a QR image on this device: decode the picture, find the codes. */
import { QR_NOT_FOUND_MESSAGE } from '@common/otpauth';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/** "QR Scan Failed: …" / "Invalid QR Code: …", the words SPEC §8 gives. */
export class QrScanError extends Error {
  override readonly name = 'QrScanError';
}

/** Decoded RGBA costs 4 bytes a pixel; larger photos are scaled down to this many pixels first. */
const MAX_PIXELS = 24_000_000;

let ready: Promise<unknown> | undefined;
function loadReader(): Promise<unknown> {
  ready ??= prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) }, fireImmediately: true });
  ready.catch(() => {
    ready = undefined;
  });
  return ready;
}

async function pixels(file: Blob): Promise<ImageData> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new QrScanError(QR_NOT_FOUND_MESSAGE);
  }
  const scale = Math.min(1, Math.sqrt(MAX_PIXELS / (bitmap.width * bitmap.height)));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new QrScanError(QR_NOT_FOUND_MESSAGE);
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  return context.getImageData(0, 0, width, height);
}

/** Every QR code's text in the image. */
export async function readQrTexts(file: Blob): Promise<string[]> {
  const [image] = await Promise.all([pixels(file), loadReader()]);
  const results = await readBarcodes(image, { formats: ['QRCode'], tryHarder: true, tryRotate: true, tryInvert: true, maxNumberOfSymbols: 16 });
  const texts = results.filter((r) => r.isValid && r.text).map((r) => r.text);
  if (texts.length === 0) throw new QrScanError(QR_NOT_FOUND_MESSAGE);
  return texts;
}

