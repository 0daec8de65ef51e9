import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_HINT_COOKIE } from '@common/contract/auth';
import { createTestApp, type TestApp } from '../../../../test/support/db';
import { createBusiness } from '../../../../test/support/payments';
import { blogArticles } from './content';
import { loadPageRenderer, withRenderedRoot } from './prerender';

/** The real build (npm test builds first): the renderer is the web app's own code. */
const WEB_DIST_DIR = resolve(import.meta.dirname, '../../../../dist/web');
const SSR_ENTRY = resolve(WEB_DIST_DIR, '../ssr/entry-server.js');
const PUBLIC_URL = 'https://sixdigit.example.com';
const ENTERPRISE_HOST = 'enterprise.example.com';

const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '';
const silent = pino({ level: 'silent' });

describe('public pages rendered on the server (the built renderer)', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!existsSync(SSR_ENTRY)) throw new Error(`${SSR_ENTRY} is missing: run \`npm run build\` first (npm test does).`);
    t = await createTestApp('sqlite', { WEB_DIST_DIR, PUBLIC_URL });
  });
  afterAll(async () => {
    await t?.close();
  });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { host: 'sixdigit.example.com', ...headers } });

  it('sends the landing page itself in the HTML, so it paints before any script, with samples on the canonical origin', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    expect(root).toContain('id="hero-title"');
    expect(root).toContain('Replace SMS OTPs with TOTP at');
    expect(root).toContain(`${PUBLIC_URL}/api/v1`);
    expect(root).not.toContain('origin.sixdigit.invalid');
    // The scripts that hydrate it are still there.
    expect(res.body).toMatch(/<script type="module" crossorigin src="\/assets\/index-[^"]+\.js"><\/script>/);
  });

  it('renders the landing page with its live figures and writes the same figures beside it for hydration', async () => {
    // A fresh database: both figures are below their thresholds, so neither is shown.
    const empty = await get('/');
    expect(empty.body).toContain('<script type="application/json" id="site-figures">{"verifications":null,"businesses":null}</script><div id="root">');
    expect(rootOf(empty.body)).toContain('Uptime');
    expect(rootOf(empty.body)).not.toContain('Verifications served');
    expect(rootOf(empty.body)).not.toContain('Business clients');
    // Only the landing page carries them.
    expect((await get('/blog')).body).not.toContain('id="site-figures"');

    const counted = await createTestApp('sqlite', { WEB_DIST_DIR });
    try {
      const { businessId } = await createBusiness(counted.app, 'Counted Co');
      for (let done = 0; done < 12_345; done += 1000) {
        const rows = Array.from({ length: Math.min(1000, 12_345 - done) }, (_, i) => ({
          id: `ver_fig_${done + i}`,
          business_id: businessId,
          external_user_id: null,
          mode: 'stateless' as const,
          method: 'totp' as const,
          purpose: null,
          status: 'verified' as const,
          cost_paise: 0,
          response_time_ms: 1,
          created_at: new Date(),
        }));
        await counted.ctx.db.insertInto('totp_verification').values(rows).execute();
      }
      const page = await counted.app.inject({ method: 'GET', url: '/' });
      expect(page.body).toContain('<script type="application/json" id="site-figures">{"verifications":12000,"businesses":null}</script>');
      expect(rootOf(page.body)).toMatch(/12,000\+<\/dd>/);
      expect(rootOf(page.body)).toContain('Verifications served');
    } finally {
      await counted.close();
    }
  });

  it('leaves the page to the browser for a visitor with the session hint (the signed-in app replaces the landing page)', async () => {
    const res = await get('/', { cookie: `${SESSION_HINT_COOKIE}=1` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    // The hint changes nothing on the enterprise site, which has no signed-in app.
    const enterprise = await get('/pricing', { host: ENTERPRISE_HOST, cookie: `${SESSION_HINT_COOKIE}=1` });
    expect(rootOf(enterprise.body)).toContain('per verification. Nothing else.');
  });

  it('renders a blog post with its sanitised article HTML; an unknown one is left to the browser', async () => {
    const post = rootOf((await get('/blog/totp-vs-sms-security')).body);
    expect(post).toContain('<h1');
    expect(post).toContain('id="where-sms-codes-fail"');
    // The share links carry the canonical address of the post.
    expect(post).toContain(encodeURIComponent(`${PUBLIC_URL}/blog/totp-vs-sms-security`));
    expect(post).not.toMatch(/<script/i);
    expect(rootOf((await get('/blog')).body)).toContain('href="/blog/totp-vs-sms-security"');
    expect((await get('/blog/no-such-post')).body).toContain('<div id="root"></div>');
  });

  it('renders the enterprise landing and pricing pages on the enterprise host, linking sign-up and sales to the main site', async () => {
    const page = (await get('/', { host: ENTERPRISE_HOST })).body;
    expect(page).toContain(`<meta name="sixdigit-main-origin" content="${PUBLIC_URL}">`);
    const landing = rootOf(page);
    expect(landing).toContain(`href="${PUBLIC_URL}/api/login"`);
    expect(rootOf((await get('/pricing', { host: ENTERPRISE_HOST })).body)).toContain(`href="${PUBLIC_URL}/contact"`);
    expect(landing).toContain('1,000,000');
    expect(landing).not.toContain('Replace SMS OTPs');
    expect(rootOf((await get('/pricing', { host: ENTERPRISE_HOST })).body)).toContain('data-testid="roi-volume"');
  });

  it('gives every element of every rendered page its own id (an article heading cannot take the layout\'s #main)', async () => {
    const paths = ['/', '/blog', ...blogArticles().map((a) => `/blog/${a.slug}`)];
    for (const path of paths) {
      const ids = [...rootOf((await get(path)).body).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
      expect(ids.length, path).toBeGreaterThan(0);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i), path).toEqual([]);
      expect(ids, path).not.toContain('root');
    }
  });

  it('leaves no trace of the origin it renders with in any page', async () => {
    const pages = await Promise.all([
      ...['/', '/blog', '/blog/totp-vs-sms-security', '/blog/implementing-totp-api'].map((path) => get(path)),
      ...['/', '/pricing'].map((path) => get(path, { host: ENTERPRISE_HOST })),
    ]);
    for (const page of pages) expect(page.body).not.toContain('sixdigit.invalid');
  });

  it('renders only the pages that are the same for every visitor', async () => {
    // Only at the canonical path: other spellings of a page render in the browser, so made-up
    // paths never reach the renderer or its cache.
    for (const path of ['/business', '/home', '/admin', '/payment-methods', '/contact', '/no-such-page', '/blog/', '/Blog', '/blog/x%20y']) {
      expect((await get(path)).body, path).toContain('<div id="root"></div>');
    }
    for (const path of ['/docs', '/Pricing', '/pricing/']) expect((await get(path, { host: ENTERPRISE_HOST })).body, path).toContain('<div id="root"></div>');
  });
});

describe('the page renderer', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sixdigit-ssr-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A renderer module with the built entry's interface that counts its renders. */
  function entryFile(name: string, body: string): string {
    const file = join(dir, `${name}.mjs`);
    writeFileSync(file, `export let renders = 0;\nexport async function renderPage(request) {\n  renders++;\n${body}\n}\n`);
    return file;
  }

  it('renders a page once and writes each request\'s origin into it, escaped', async () => {
    const file = entryFile(
      'counting',
      'return request.path === "/" ? `<a href="${request.origin}/docs">${request.origin}</a><a href="?u=${encodeURIComponent(request.origin)}"></a>` : undefined;',
    );
    const renderer = (await loadPageRenderer(file, silent))!;
    const a = await renderer.render({ variant: 'enterprise', path: '/', origin: 'http://a.enterprise.test', mainOrigin: PUBLIC_URL });
    const b = await renderer.render({ variant: 'enterprise', path: '/', origin: 'http://b.enterprise.test"><script>', mainOrigin: PUBLIC_URL });
    expect(a).toBe('<a href="http://a.enterprise.test/docs">http://a.enterprise.test</a><a href="?u=http%3A%2F%2Fa.enterprise.test"></a>');
    expect(b).toBe(
      '<a href="http://b.enterprise.test&quot;&gt;&lt;script&gt;/docs">http://b.enterprise.test&quot;&gt;&lt;script&gt;</a><a href="?u=http%3A%2F%2Fb.enterprise.test%22%3E%3Cscript%3E"></a>',
    );
    expect(await renderer.render({ variant: 'enterprise', path: '/elsewhere', origin: 'http://a.enterprise.test', mainOrigin: PUBLIC_URL })).toBeUndefined();
    const module = (await import(file)) as { renders: number };
    expect(module.renders).toBe(2);
  });

  it('falls back to the browser when rendering fails, and tries again after a pause (not on every request)', async () => {
    const file = entryFile('failing', 'if (renders === 1) throw new Error("boom"); return "<p>ok</p>";');
    const renderer = (await loadPageRenderer(file, silent, { retryFailedAfterMs: 50 }))!;
    const home = { variant: 'main', path: '/', origin: PUBLIC_URL, mainOrigin: PUBLIC_URL } as const;
    expect(await renderer.render(home)).toBeUndefined();
    expect(await renderer.render(home)).toBeUndefined();
    expect(((await import(file)) as { renders: number }).renders).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await renderer.render(home)).toBe('<p>ok</p>');
  });

  it('is absent when the renderer was not built', async () => {
    expect(await loadPageRenderer(join(dir, 'missing.js'), silent)).toBeUndefined();
  });

  it('puts the rendered page into the empty root, and refuses a page without one', () => {
    expect(withRenderedRoot('<body><div id="root"></div></body>', '<p>$& $1</p>')).toBe('<body><div id="root"><p>$& $1</p></div></body>');
    expect(() => withRenderedRoot('<body><main></main></body>', '<p></p>')).toThrow(/no empty <div id="root">/);
  });
});
