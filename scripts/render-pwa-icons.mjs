// Renders the PWA icons (web/public/icons/*.png) from the brand mark in web/public/favicon.svg.
// Run: node scripts/render-pwa-icons.mjs   (needs playwright-core and /usr/bin/chromium)
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const here = (path) => new URL(path, import.meta.url);
const favicon = readFileSync(here('../web/public/favicon.svg'), 'utf8');
// Full-bleed square for masks and home screens that round the corners themselves; the six dots
// sit inside the 80 % safe zone.
const fullBleed = (scale) =>
  favicon
    .replace(/<rect[^>]*\/>/, '<rect width="32" height="32" fill="#4f46e5"/>')
    .replace('<g fill="#fff">', `<g fill="#fff" transform="translate(16 16) scale(${scale}) translate(-16 -16)">`);

const icons = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'maskable-512.png', size: 512, svg: fullBleed(0.8) },
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed(0.9) },
];

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const { file, size, svg } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(`<html><body style="margin:0;background:transparent"><img src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`);
    await page.screenshot({ path: new URL(`../web/public/icons/${file}`, import.meta.url).pathname, omitBackground: true });
    await page.close();
    console.log(`web/public/icons/${file}`);
  }
} finally {
  await browser.close();
}
