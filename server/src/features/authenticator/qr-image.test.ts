import { describe, expect, it } from 'vitest';
import { blankPng, pngHeaderClaiming, pngToJpeg, pngToWebp, qrPng } from '../../../../test/support/authenticator';
import { AppError } from '../../lib/errors';
import { MAX_PIXELS, detectImageType, imageSize, readQrCodes } from './qr-image';

const LINK = 'otpauth://totp/ACME:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME';

async function failure(bytes: Uint8Array): Promise<{ status: number; code: string; message: string }> {
  try {
    await readQrCodes(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    return { status: e.status, code: e.code, message: e.message };
  }
  throw new Error('expected readQrCodes to fail');
}

describe('qr-image', () => {
  it('tells PNG, JPEG and WebP by their first bytes, and nothing else', async () => {
    const png = await qrPng(LINK);
    expect(detectImageType(png)).toBe('png');
    expect(detectImageType(pngToJpeg(png))).toBe('jpeg');
    expect(detectImageType(await pngToWebp(png))).toBe('webp');
    expect(detectImageType(Buffer.from('GIF89a\x01\x00\x01\x00'))).toBeNull();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
  });

  it('reads the size from the header of each type', async () => {
    const png = await qrPng(LINK, 300);
    expect(imageSize(png, 'png')).toEqual({ width: 300, height: 300 });
    expect(imageSize(pngToJpeg(png), 'jpeg')).toEqual({ width: 300, height: 300 });
    expect(imageSize(await pngToWebp(png), 'webp')).toEqual({ width: 300, height: 300 });
    expect(imageSize(blankPng(240, 180), 'png')).toEqual({ width: 240, height: 180 });
  });

  it('reads the QR code of a PNG, a JPEG and a WebP', async () => {
    const png = await qrPng(LINK);
    expect(await readQrCodes(png)).toEqual([LINK]);
    expect(await readQrCodes(pngToJpeg(png, 70))).toEqual([LINK]);
    expect(await readQrCodes(await pngToWebp(png))).toEqual([LINK]);
  });

  it('answers 422 qr_not_found for an image without a QR code, or a damaged one', async () => {
    const notFound = { status: 422, code: 'qr_not_found', message: 'QR Scan Failed: Could not read QR code from the image. Please try again or enter details manually.' };
    expect(await failure(blankPng())).toEqual(notFound);
    const png = await qrPng(LINK);
    expect(await failure(Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]))).toEqual(notFound);
    expect(await failure(Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), Buffer.alloc(40, 1)]))).toEqual(notFound);
  });

  it('refuses another file type with 415 and too many pixels with 413 (before decoding)', async () => {
    expect(await failure(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00'))).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(await failure(pngHeaderClaiming(6000, 5000))).toEqual({
      status: 413,
      code: 'payload_too_large',
      message: `The image is too large (6000×5000 pixels): at most ${MAX_PIXELS / 1_000_000} megapixels.`,
    });
    expect(await failure(pngHeaderClaiming(20_000, 10))).toMatchObject({ status: 413 });
  });
});
