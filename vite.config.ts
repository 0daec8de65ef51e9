import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import type { CodeSplittingOptions } from 'rolldown';
import { defineConfig } from 'vitest/config';
import { blogArticles } from './scripts/vite-blog-articles.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** Browser tests need Debian's Chromium; without it (outside CI) they are left out, loudly (test/support/global-setup.ts). */
const browserTestsRun = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') || process.env.CI === 'true' || process.env.SIXDIGIT_REQUIRE_SERVICES === '1';
const alias = { '@': here('./web/src'), '@common': here('./common') };

/**
 * The installable, offline-capable app (issue 5, item 6): a web app manifest and a Workbox
 * service worker (`/sw.js`) that precaches the app shell and assets. Page loads go to the server
 * first (it writes the site variant into index.html) and fall back to the precached index.html
 * when there is no network. /api/* is never cached. Registered from main.tsx in production only.
 */
const pwa = VitePWA({
  injectRegister: false,
  registerType: 'autoUpdate',
  manifestFilename: 'manifest.webmanifest',
  // globPatterns below already pick up the icons and the favicon.
  includeManifestIcons: false,
  manifest: {
    id: '/',
    name: 'Sixdigit',
    short_name: 'Sixdigit',
    description: 'Your one-time codes, computed on your device and available offline.',
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#4f46e5',
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
    // Only the Latin font files are precached; other scripts' subsets are cached when first used.
    globIgnores: ['**/*-{cyrillic,cyrillic-ext,greek,greek-ext,vietnamese}-*.woff2'],
    navigateFallback: null,
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: true,
    runtimeCaching: [
      {
        // Page loads: the server's fresh index.html, or the precached one offline. Sign-in,
        // sign-out and other server paths are left to the browser. (This function is copied
        // into sw.js as source text: it must not use anything from this file.)
        urlPattern: ({ request, url }) =>
          request.mode === 'navigate' && !/^\/(api|v1|healthz|readyz)(\/|$)/.test(url.pathname),
        handler: 'NetworkOnly',
        options: { precacheFallback: { fallbackURL: '/index.html' } },
      },
      {
        // Hashed build files not in the precache (e.g. other font subsets).
        urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
        handler: 'CacheFirst',
        options: { cacheName: 'assets', expiration: { maxEntries: 60 } },
      },
    ],
  },
});

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip -9) beside every text file of the
 * build, once, so the server sends them without compressing per request (server/src/features/
 * static/compression.ts). Runs after the service worker is generated, so sw.js gets them too.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
  let outDir = '';
  return {
    name: 'sixdigit:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const texts = files(outDir).filter((f) => /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/.test(f));
        await Promise.all(
          texts.map(async (file) => {
            const body = readFileSync(file);
            if (body.length < 1024) return;
            const [br, gzipped] = await Promise.all([
              brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
              gz(body, { level: 9 }),
            ]);
            writeFileSync(`${file}.br`, br);
            writeFileSync(`${file}.gz`, gzipped);
          }),
        );
      },
    },
  };
}

/**
 * Preloads the Latin Inter file from index.html, so the browser fetches it with the CSS instead
 * of after the stylesheet is parsed and the text laid out (issue 11, item 7).
 */
function preloadFont(): Plugin {
  return {
    name: 'sixdigit:preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((name) => /inter-latin-wght-normal-[^/]*\.woff2$/.test(name));
        if (!font) throw new Error('The Latin Inter font is not in the build; update preloadFont in vite.config.ts.');
        return [
          { tag: 'link', attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' }, injectTo: 'head' },
        ];
      },
    },
  };
}

/**
 * Chunk layout (issue 11): the landing page loads `index` (app frame, landing, 404) and
 * `react` (React, React Router, TanStack Query — they change rarely, so they stay cached
 * across releases); every other page is its own chunk, fetched on demand, with the code it
 * shares with other pages in chunks the bundler cuts by "which pages need it" (so a public
 * page never pulls the signed-in app). Markdown (Luna's answers; blog articles are HTML made at
 * build time by scripts/vite-blog-articles.ts) and the charts are named chunks because few
 * pages need them; icons travel together instead of as dozens of 200-byte files.
 */
const codeSplitting: CodeSplittingOptions = {
  groups: [
    { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/, tags: ['$initial'], priority: 5 },
    // Everything else the entry needs stays in the entry.
    { name: 'index', tags: ['$initial'], priority: 4 },
    {
      name: 'markdown',
      test: /node_modules[\\/](react-markdown|remark-|micromark|mdast-|hast-|unist-|unified|vfile|property-information|space-separated-tokens|comma-separated-tokens|decode-named-character-reference|character-entities|html-url-attributes|devlop|bail|trough|is-plain-obj|estree-util|ccount|markdown-table|longest-streak|zwitch|trim-lines|style-to-|inline-style-parser|escape-string-regexp)/,
      priority: 3,
    },
    { name: 'charts', test: /node_modules[\\/](recharts|d3-|victory-vendor|internmap|decimal\.js-light|eventemitter3|reselect|immer|@reduxjs|redux|use-sync-external-store|es-toolkit|tiny-invariant)/, priority: 2 },
    // Icons used after the first page would otherwise be dozens of 200-byte chunks.
    { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/, priority: 1 },
  ],
};

/**
 * `vite build --ssr` (the second half of `npm run build`): the public pages' server renderer,
 * web/src/entry-server.tsx, as a Node module in dist/ssr that the server imports. Its packages
 * are bundled in (`ssr.noExternal`), so the folder works wherever it is copied (the browser
 * tests serve a snapshot of the build from a temp folder); styles, fonts and the service
 * worker belong to the browser build only.
 */
const ssrBuild = {
  outDir: here('./dist/ssr'),
  emptyOutDir: true,
  sourcemap: false,
  copyPublicDir: false,
  rolldownOptions: { input: here('./web/src/entry-server.tsx') },
};

export default defineConfig(({ isSsrBuild }) => ({
  root: here('./web'),
  publicDir: here('./web/public'),
  plugins: isSsrBuild ? [react(), blogArticles()] : [react(), blogArticles(), tailwindcss(), preloadFont(), pwa, precompress()],
  resolve: { alias },
  // Only for the renderer's build: vitest runs server tests through Vite's SSR transform too.
  ...(isSsrBuild ? { ssr: { noExternal: true } } : {}),
  build: isSsrBuild
    ? ssrBuild
    : {
        outDir: here('./dist/web'),
        emptyOutDir: true,
        sourcemap: false,
        rolldownOptions: { output: { codeSplitting } },
      },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:5000',
      '/v1': 'http://localhost:5000',
      '/healthz': 'http://localhost:5000',
      '/readyz': 'http://localhost:5000',
    },
  },
  test: {
    root: here('.'),
    globalSetup: [here('./test/support/global-setup.ts')],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          root: here('.'),
          include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'scripts/**/*.test.ts', 'sdks/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react(), blogArticles()],
        resolve: { alias },
        test: {
          name: 'web',
          root: here('.'),
          include: ['web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: [here('./test/support/web-setup.ts')],
        },
      },
      ...(browserTestsRun
        ? [
          {
            resolve: { alias },
            test: {
              name: 'e2e',
              root: here('.'),
              include: ['e2e/**/*.e2e.ts'],
              environment: 'node',
              testTimeout: 90_000,
              hookTimeout: 120_000,
              fileParallelism: false,
            },
          },
          ]
        : []),
    ],
  },
}));
