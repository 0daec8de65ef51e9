/**
 * npm run audit:web — Lighthouse (mobile settings) on the public pages that matter most:
 * the landing page, a blog post and the enterprise pricing page (issue 11, item 7).
 *
 * It does not build: run `npm run build` first. It starts the real server as a child process
 * (fresh SQLite database in a temp folder, a free loopback port), runs Lighthouse in Debian's
 * Chromium several times per page (scores are noisy on a busy machine: the median is
 * reported), prints the four category scores and LCP against the targets, and stops the
 * server. It exits non-zero on a missed target only with --strict.
 *
 *   npm run audit:web -- [--runs 3] [--strict] [--page landing|blog|enterprise] [--json out.json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ENTERPRISE_HOST = 'enterprise.localhost';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
/** Issue 11's targets, as Lighthouse scores 0–100. */
const TARGETS: Record<Category, number> = { performance: 90, accessibility: 95, 'best-practices': 95, seo: 95 };

interface PageToAudit {
  key: string;
  label: string;
  url: (port: number) => string;
}

const PAGES: PageToAudit[] = [
  { key: 'landing', label: 'Landing /', url: (port) => `http://localhost:${port}/` },
  { key: 'blog', label: 'Blog post', url: (port) => `http://localhost:${port}/blog/totp-vs-sms-security` },
  { key: 'enterprise', label: 'Enterprise /pricing', url: (port) => `http://${ENTERPRISE_HOST}:${port}/pricing` },
];

interface RunResult {
  scores: Record<Category, number>;
  lcpMs: number;
  /** total blocking time: the script work that keeps the page from answering */
  tbtMs: number;
  status: number | undefined;
  failing: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

async function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${join(dataDir, 'audit.db')}`,
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error('the server did not become ready within 60 s');
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function audit(url: string, chromePort: number): Promise<RunResult> {
  // Lighthouse's default configuration is the mobile one (Moto G Power, simulated slow 4G, 4× CPU).
  const result = await lighthouse(url, { port: chromePort, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<Category, number>;
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 0.9 && (a.scoreDisplayMode === 'binary' || a.scoreDisplayMode === 'numeric' || a.scoreDisplayMode === 'metricSavings'))
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
  const mainDocument = (lhr.audits['network-requests']?.details as { items?: { url: string; statusCode: number }[] } | undefined)?.items?.find(
    (r) => r.url === lhr.finalDisplayedUrl || r.url === url,
  );
  return {
    scores,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    status: mainDocument?.statusCode,
    failing,
  };
}

/**
 * One Lighthouse run in a fresh Chromium (no service worker or cache left by the previous
 * run). Lighthouse sometimes fails to record a trace on a busy machine (NO_NAVSTART): such a
 * run is tried again, up to twice.
 */
async function auditWithRetry(url: string): Promise<RunResult> {
  for (let attempt = 1; ; attempt++) {
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM_PATH,
      chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP localhost 127.0.0.1, MAP ${ENTERPRISE_HOST} 127.0.0.1`],
    });
    try {
      return await audit(url, chrome.port);
    } catch (error) {
      if (attempt >= 3) throw error;
      process.stderr.write(`  (run failed, trying again: ${error instanceof Error ? error.message : String(error)})\n`);
    } finally {
      await chrome.kill();
    }
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      strict: { type: 'boolean', default: false },
      page: { type: 'string', multiple: true },
      json: { type: 'string' },
    },
  });
  const runs = Math.max(1, Number(values.runs) || 3);
  const pages = values.page?.length ? PAGES.filter((p) => values.page!.includes(p.key)) : PAGES;
  if (!existsSync(join(REPO_ROOT, 'dist/web/index.html'))) throw new Error('dist/web is missing: run `npm run build` first.');
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);

  const dataDir = mkdtempSync(join(tmpdir(), 'sixdigit-audit-'));
  const port = await freePort();
  const server = await startServer(port, dataDir);

  const rows: { page: PageToAudit; url: string; runs: RunResult[]; median: Record<Category, number>; lcpMs: number; tbtMs: number; pass: boolean }[] = [];
  try {
    for (const page of pages) {
      const url = page.url(port);
      const results: RunResult[] = [];
      for (let i = 1; i <= runs; i++) {
        process.stderr.write(`${page.label}: run ${i}/${runs}…\n`);
        results.push(await auditWithRetry(url));
      }
      const med = Object.fromEntries(CATEGORIES.map((c) => [c, median(results.map((r) => r.scores[c]))])) as Record<Category, number>;
      rows.push({
        page,
        url,
        runs: results,
        median: med,
        lcpMs: median(results.map((r) => r.lcpMs)),
        tbtMs: median(results.map((r) => r.tbtMs)),
        pass: CATEGORIES.every((c) => med[c] >= TARGETS[c]),
      });
    }
  } finally {
    server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const cell = (c: Category, v: number) => `${v >= TARGETS[c] ? ' ' : '✗'}${String(v).padStart(3)}`;
  console.log(`\nLighthouse ${'12.8'} · mobile · median of ${runs} run(s) · targets: performance ≥ ${TARGETS.performance}, others ≥ ${TARGETS.accessibility}\n`);
  console.log('page                  perf  a11y  b.p.   seo      LCP     TBT  result');
  for (const row of rows) {
    const m = row.median;
    console.log(
      `${row.page.label.padEnd(20)} ${cell('performance', m.performance)}  ${cell('accessibility', m.accessibility)}  ${cell('best-practices', m['best-practices'])}  ${cell('seo', m.seo)}  ${(row.lcpMs / 1000).toFixed(1).padStart(5)} s  ${String(Math.round(row.tbtMs)).padStart(4)} ms  ${row.pass ? 'pass' : 'FAIL'}`,
    );
  }
  for (const row of rows) {
    const status = row.runs[0]?.status;
    if (status !== undefined && status >= 400) console.log(`\nnote: ${row.url} answered HTTP ${status}`);
    const failing = [...new Set(row.runs.flatMap((r) => r.failing))];
    if (failing.length) console.log(`\n${row.page.label} — audits below 0.9 in some run:\n  ${failing.join('\n  ')}`);
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2));
  if (values.strict && rows.some((r) => !r.pass)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
