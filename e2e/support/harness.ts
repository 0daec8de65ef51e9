/**
 * End-to-end harness: one real Sixdigit server (in-process, fresh SQLite database, real HTTP
 * port) and one headless Debian Chromium per spec file.
 *
 *   const h = useE2E('foundation/newcomer');   // registers beforeAll/afterAll
 *   it('…', async () => { const page = await h.newPage({ width: 390 }); await page.goto('/'); });
 *
 * Every `newPage` gets its own browser context (its own cookie jar), so tests never share a
 * session unless they share a page.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../server/src/app';
import { loadConfig, type Config } from '../../server/src/config';
import { createContext, migrateToLatest, type AppContext } from '../../server/src/context';
import { createSender } from '../../server/src/features/webhooks/sender';
import { WebhookWorker } from '../../server/src/features/webhooks/worker';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIST_DIR = join(REPO_ROOT, 'dist/web');
export const SCREENSHOT_ROOT = join(REPO_ROOT, 'e2e/screenshots');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ADMIN_EMAIL = 'admin@example.com';
/** A fixed 32-byte key so nothing is generated on disk. */
export const APP_ENCRYPTION_KEY = Buffer.alloc(32, 42).toString('base64');
/** Enterprise host: Chromium resolves *.localhost to loopback; the resolver rule makes sure. */
export const ENTERPRISE_HOSTNAME = 'enterprise.localhost';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The server listens on IPv4 loopback only; never let "localhost" go to ::1 first.
  `--host-resolver-rules=MAP localhost 127.0.0.1, MAP ${ENTERPRISE_HOSTNAME} 127.0.0.1`,
];

/** Playwright's own waits are kept well under Vitest's 90 s test timeout so failures say why. */
const ACTION_TIMEOUT_MS = 15_000;

export interface NewPageOptions {
  /** viewport width in CSS pixels (default 1280) */
  width?: number;
  /** viewport height (default 844 below 768 px wide, else 800) */
  height?: number;
  /** origin that relative page.goto() paths resolve against (default the main site) */
  baseURL?: string;
  /** false: a browser that runs no script (what the server's HTML alone shows) */
  javaScriptEnabled?: boolean;
}

export interface Harness {
  /** http://localhost:<port> — equal to the server's PUBLIC_URL */
  readonly baseUrl: string;
  /** http://enterprise.localhost:<port> */
  readonly enterpriseUrl: string;
  readonly port: number;
  readonly app: FastifyInstance;
  readonly ctx: AppContext;
  readonly config: Config;
  readonly browser: Browser;
  newPage(options?: NewPageOptions): Promise<Page>;
  /** Saves e2e/screenshots/<spec>/<name>.png (full page) and returns its path. */
  screenshot(page: Page, name: string): Promise<string>;
  /** Uncaught errors thrown in the page's JavaScript since it was opened. */
  pageErrors(page: Page): Error[];
}

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close it). */
export function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a probe socket'));
        return;
      }
      server.close(() => resolvePort(address.port));
    });
  });
}

function checkPrerequisites(): void {
  const index = join(WEB_DIST_DIR, 'index.html');
  if (!existsSync(index)) {
    throw new Error(`e2e: ${index} is missing — run npm run build first (npm test and npm run test:e2e do it for you).`);
  }
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`e2e: Chromium not found at ${CHROMIUM_PATH} — apt-get install chromium (or set CHROMIUM_PATH).`);
  }
}

interface Started {
  tempDir: string;
  port: number;
  baseUrl: string;
  enterpriseUrl: string;
  config: Config;
  ctx: AppContext;
  app: FastifyInstance;
  browser: Browser;
}

async function startServer(tempDir: string): Promise<Omit<Started, 'browser' | 'tempDir'>> {
  // Serve a snapshot of dist/web: a `vite build` run meanwhile (another terminal, another
  // engineer) empties dist/web and renames the hashed assets, which would break the pages of a
  // server that already read the old index.html.
  const webDir = join(tempDir, 'web');
  cpSync(WEB_DIST_DIR, webDir, { recursive: true });
  // The public pages' server renderer, found beside the web app (config.webSsrEntry).
  cpSync(join(WEB_DIST_DIR, '../ssr'), join(tempDir, 'ssr'), { recursive: true });
  // The port is probed then reused; another process could grab it in between, so retry.
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort();
    const baseUrl = `http://localhost:${port}`;
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATA_DIR: tempDir,
      DATABASE_URL: `sqlite:${join(tempDir, 'e2e.db')}`,
      WEB_DIST_DIR: webDir,
      ADMIN_EMAIL,
      APP_ENCRYPTION_KEY,
      // The tests' webhook receivers listen on loopback.
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    const ctx = createContext(config);
    await migrateToLatest(ctx);
    const app = await buildApp(ctx);
    // As in main.ts: the webhook worker runs beside the server and stops before it closes.
    const worker = new WebhookWorker(ctx, { sender: createSender({ timeoutMs: 10_000, allowPrivate: true }), pollIntervalMs: 200 });
    app.addHook('preClose', async () => worker.stop());
    try {
      await app.listen({ port, host: '127.0.0.1' });
      worker.start();
      return { port, baseUrl, enterpriseUrl: `http://${ENTERPRISE_HOSTNAME}:${port}`, config, ctx, app };
    } catch (err) {
      await app.close().catch(() => {});
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw err;
    }
  }
}

/**
 * Registers beforeAll/afterAll that start (and tear down) the server and the browser for this
 * spec file. `spec` names the screenshot folder, e.g. 'foundation/newcomer'.
 */
export interface UseE2EOptions {
  /** extra Chromium flags for this spec file, e.g. a fake camera */
  chromiumArgs?: string[] | (() => string[]);
}

export function useE2E(spec: string, options: UseE2EOptions = {}): Harness {
  let started: Started | undefined;
  const contexts = new Set<BrowserContext>();
  const errors = new WeakMap<Page, Error[]>();

  const need = (): Started => {
    if (!started) throw new Error('e2e harness is not started (use it inside tests, after beforeAll)');
    return started;
  };

  beforeAll(async () => {
    checkPrerequisites();
    const tempDir = mkdtempSync(join(tmpdir(), 'sixdigit-e2e-'));
    try {
      const server = await startServer(tempDir);
      let browser: Browser;
      try {
        const extra = typeof options.chromiumArgs === 'function' ? options.chromiumArgs() : (options.chromiumArgs ?? []);
        browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extra] });
      } catch (err) {
        await server.app.close();
        throw err;
      }
      started = { ...server, tempDir, browser };
    } catch (err) {
      rmSync(tempDir, { recursive: true, force: true });
      throw err;
    }
  });

  afterAll(async () => {
    if (!started) return;
    const { browser, app, tempDir } = started;
    started = undefined;
    for (const context of contexts) await context.close().catch(() => {});
    contexts.clear();
    await browser.close().catch(() => {});
    await app.close().catch(() => {});
    rmSync(tempDir, { recursive: true, force: true });
  });

  return {
    get baseUrl() {
      return need().baseUrl;
    },
    get enterpriseUrl() {
      return need().enterpriseUrl;
    },
    get port() {
      return need().port;
    },
    get app() {
      return need().app;
    },
    get ctx() {
      return need().ctx;
    },
    get config() {
      return need().config;
    },
    get browser() {
      return need().browser;
    },

    async newPage(options: NewPageOptions = {}) {
      const { browser, baseUrl } = need();
      const width = options.width ?? 1280;
      const height = options.height ?? (width < 768 ? 844 : 800);
      const context = await browser.newContext({
        baseURL: options.baseURL ?? baseUrl,
        viewport: { width, height },
        deviceScaleFactor: 1,
        locale: 'en-IN',
        timezoneId: 'Asia/Kolkata',
        reducedMotion: 'reduce',
        javaScriptEnabled: options.javaScriptEnabled ?? true,
      });
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      context.setDefaultNavigationTimeout(ACTION_TIMEOUT_MS);
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      const page = await context.newPage();
      const list: Error[] = [];
      errors.set(page, list);
      page.on('pageerror', (err) => list.push(err));
      return page;
    },

    async screenshot(page: Page, name: string) {
      const file = join(SCREENSHOT_ROOT, spec, `${name}.png`);
      mkdirSync(dirname(file), { recursive: true });
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
      return file;
    },

    pageErrors(page: Page) {
      return errors.get(page) ?? [];
    },
  };
}

/**
 * page.goto that fails at once, with the server's answer, when the document itself is an HTTP
 * error (instead of a later locator timeout). Client-side 404 pages are served with 200.
 */
export async function visit(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  if (response && response.status() >= 400) {
    const body = (await response.text().catch(() => '')).slice(0, 300);
    throw new Error(`GET ${path} answered ${response.status()}: ${body}`);
  }
}

/**
 * Signs in through the local development sign-in form. If the page is not already on
 * /api/login it opens it (so the return path is Home). Resolves once the browser has left
 * /api/login, i.e. has been sent back to the page it came from; fails at once, with the
 * server's answer, if the form post is refused.
 */
export async function signInLocally(page: Page, email: string, name: string): Promise<void> {
  if (!new URL(page.url(), 'http://x').pathname.startsWith('/api/login')) {
    await visit(page, '/api/login');
  }
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Full name').fill(name);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/login/local'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  if (response.status() !== 303) {
    const body = (await response.text().catch(() => '')).slice(0, 300);
    throw new Error(`local sign-in was refused: POST /api/login/local answered ${response.status()}: ${body}`);
  }
  await page.waitForURL((url) => !url.pathname.startsWith('/api/login'));
}

/** Status of GET path fetched from inside the page, so it carries the page's cookies. */
export async function fetchStatus(page: Page, path: string): Promise<number> {
  return page.evaluate(async (p) => (await fetch(p, { credentials: 'same-origin' })).status, path);
}
