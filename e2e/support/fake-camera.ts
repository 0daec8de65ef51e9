import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

/**
 * Writes a Y4M video (what Chromium's --use-file-for-fake-video-capture plays) showing one QR
 * code, black on white, centred, for the camera tab's tests. Y4M is a header plus raw 4:2:0
 * frames, so it needs no encoder.
 */
export function writeQrVideo(path: string, text: string, options: { width?: number; height?: number; frames?: number } = {}): void {
  const width = options.width ?? 640;
  const height = options.height ?? 480;
  const frames = options.frames ?? 10;
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const modules = qr.modules.size;
  const quiet = 4;
  const scale = Math.floor((Math.min(width, height) * 0.9) / (modules + quiet * 2));
  const side = scale * (modules + quiet * 2);
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);

  const luma = Buffer.alloc(width * height, 235); // white
  for (let row = 0; row < modules; row++) {
    for (let col = 0; col < modules; col++) {
      if (!qr.modules.get(row, col)) continue;
      for (let dy = 0; dy < scale; dy++) {
        const y = top + (row + quiet) * scale + dy;
        luma.fill(16, y * width + left + (col + quiet) * scale, y * width + left + (col + quiet + 1) * scale);
      }
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128); // no colour
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}

export function fakeCameraArgs(videoPath: string): string[] {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${videoPath}`];
}
