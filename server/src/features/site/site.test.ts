import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { SITE_DEFAULT_HEADS } from '@common/site-heads';
import { blogArticles } from './content';
import { escapeHtml } from '../../lib/html';
import { renderPageHtml } from './service';

const INDEX_HTML = readFileSync(new URL('../../../../web/index.html', import.meta.url), 'utf8');
const MAIN = 'http://localhost:5000';
const ENTERPRISE_HOST = 'enterprise.localhost:5000';

/** The value of <meta property|name="key" content="…"> in html, unescaped. */
function meta(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html);
  return match?.[1]?.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1];

describe('page heads written into index.html', () => {
  it('gives a blog post its own title, excerpt, canonical URL and og:type=article', () => {
    const article = blogArticles().find((a) => a.slug === 'implementing-totp-api')!;
    const html = renderPageHtml(INDEX_HTML, { variant: 'main', path: '/blog/implementing-totp-api', origin: MAIN });
    expect(title(html)).toBe(escapeHtml(`${article.title} · Sixdigit Blog`));
    expect(meta(html, 'description')).toBe(article.excerpt);
    expect(meta(html, 'og:type')).toBe('article');
    expect(meta(html, 'og:title')).toBe(`${article.title} · Sixdigit Blog`);
    expect(meta(html, 'og:description')).toBe(article.excerpt);
    expect(meta(html, 'og:url')).toBe(`${MAIN}/blog/implementing-totp-api`);
    expect(meta(html, 'article:published_time')).toBe(article.publishDate);
    expect(meta(html, 'twitter:title')).toBe(`${article.title} · Sixdigit Blog`);
    expect(canonical(html)).toBe(`${MAIN}/blog/implementing-totp-api`);
    expect(html).toContain(`<link rel="alternate" type="application/rss+xml" title="Sixdigit Blog" href="${MAIN}/blog/feed.xml">`);
    // Exactly one title and one description: replaced, not added.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/name="description"/g)).toHaveLength(1);
  });

  it('gives every public page of each variant a distinct title and description', () => {
    const main = ['/', '/blog', '/payment-methods', '/contact', ...blogArticles().map((a) => `/blog/${a.slug}`)];
    const enterprise = ['/', '/pricing', '/docs'];
    const heads = [
      ...main.map((path) => renderPageHtml(INDEX_HTML, { variant: 'main', path, origin: MAIN })),
      ...enterprise.map((path) => renderPageHtml(INDEX_HTML, { variant: 'enterprise', path, origin: `http://${ENTERPRISE_HOST}` })),
    ];
    expect(new Set(heads.map(title)).size).toBe(heads.length);
    expect(new Set(heads.map((h) => meta(h, 'description'))).size).toBe(heads.length);
    for (const html of heads) {
      expect(meta(html, 'og:type')).toMatch(/^(website|article)$/);
      expect(canonical(html)).toBe(meta(html, 'og:url'));
    }
    const enterpriseHome = heads[main.length]!;
    expect(title(enterpriseHome)).toContain('$0.0038');
    expect(meta(enterpriseHome, 'og:site_name')).toBe('Sixdigit Enterprise');
    expect(html(heads, 0)).toContain('<meta name="sixdigit-variant" content="main">');
    expect(enterpriseHome).toContain('<meta name="sixdigit-variant" content="enterprise">');
  });

  it('keeps web/index.html\'s default head equal to the main home page\'s (the app restores it)', () => {
    expect(title(INDEX_HTML)).toBe(SITE_DEFAULT_HEADS.main.title);
    expect(INDEX_HTML.replace(/\s+/g, ' ')).toContain(`content="${SITE_DEFAULT_HEADS.main.description}"`);
  });

  it('leaves pages that are not public with the default head, and marks an unknown article noindex', () => {
    const business = renderPageHtml(INDEX_HTML, { variant: 'main', path: '/business', origin: MAIN });
    expect(business).toBe(INDEX_HTML);
    const unknown = renderPageHtml(INDEX_HTML, { variant: 'main', path: '/blog/no-such-post', origin: MAIN });
    expect(unknown).toContain('<meta name="robots" content="noindex">');
    expect(canonical(unknown)).toBeUndefined();
    // The enterprise site has no blog and the main site no /pricing.
    expect(canonical(renderPageHtml(INDEX_HTML, { variant: 'enterprise', path: '/blog', origin: MAIN }))).toBeUndefined();
    expect(canonical(renderPageHtml(INDEX_HTML, { variant: 'main', path: '/pricing', origin: MAIN }))).toBeUndefined();
  });

  it('escapes what it writes (a title with quotes and markup cannot break out of the attribute)', () => {
    expect(escapeHtml(`"><script>alert('x')</script>&`)).toBe('&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;');
    const html = renderPageHtml(INDEX_HTML, { variant: 'main', path: '/blog/totp-vs-sms-security', origin: 'http://x"><script>' });
    expect(html).not.toContain('"><script>');
    expect(html).toContain('http://x&quot;&gt;&lt;script&gt;/blog/totp-vs-sms-security');
  });
});

function html(list: string[], i: number): string {
  return list[i]!;
}

describeEachDialect('robots.txt, sitemap.xml, the blog feed and page heads over HTTP', (dialect) => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), 'sixdigit-site-web-'));
    mkdirSync(join(webDir, 'web'));
    writeFileSync(join(webDir, 'web', 'index.html'), INDEX_HTML);
    // A stand-in for the built server renderer (dist/ssr), so the rendered pages' path runs too.
    mkdirSync(join(webDir, 'ssr'));
    writeFileSync(join(webDir, 'ssr', 'entry-server.js'), 'export async function renderPage({ path, origin }) { return `<p>${path} at ${origin}</p>`; }\n');
    t = await createTestApp(dialect, { WEB_DIST_DIR: join(webDir, 'web'), PUBLIC_URL: 'https://sixdigit.example.com' });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDir, { recursive: true, force: true });
  });
  const get = (url: string, host = 'sixdigit.example.com') => t.app.inject({ method: 'GET', url, headers: { host } });

  it('lists the main site\'s public pages, with absolute URLs from PUBLIC_URL', async () => {
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = [...res.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      'https://sixdigit.example.com/',
      'https://sixdigit.example.com/blog',
      ...blogArticles().map((a) => `https://sixdigit.example.com/blog/${a.slug}`),
      'https://sixdigit.example.com/payment-methods',
      'https://sixdigit.example.com/contact',
    ]);
    expect(locs).toHaveLength(8);
    expect(res.body).toContain(`<lastmod>${blogArticles()[0]!.publishDate}</lastmod>`);
  });

  it('lists only the enterprise pages on the enterprise host, with that host\'s URLs', async () => {
    const res = await get('/sitemap.xml', ENTERPRISE_HOST);
    const locs = [...res.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(['/', '/pricing', '/docs', '/documentation'].map((p) => `http://${ENTERPRISE_HOST}${p}`));
    expect(res.body).not.toContain('/blog');
  });

  it('serves robots.txt per variant, pointing at that variant\'s sitemap and keeping crawlers out of the API and signed-in pages', async () => {
    const main = await get('/robots.txt');
    expect(main.statusCode).toBe(200);
    expect(main.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(main.body).toContain('User-agent: *');
    expect(main.body).toContain('Disallow: /api/');
    expect(main.body).toContain('Disallow: /admin');
    expect(main.body).toContain('Disallow: /business');
    expect(main.body).not.toMatch(/Disallow: \/blog/);
    expect(main.body).toContain('Sitemap: https://sixdigit.example.com/sitemap.xml');
    const enterprise = await get('/robots.txt', ENTERPRISE_HOST);
    expect(enterprise.body).toContain(`Sitemap: http://${ENTERPRISE_HOST}/sitemap.xml`);
    expect(enterprise.body).not.toContain('Disallow: /admin');
  });

  it('serves an RSS 2.0 feed of every article, newest first, from the Markdown files', async () => {
    const res = await get('/blog/feed.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    const items = [...res.body.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!);
    const articles = blogArticles();
    expect(items).toHaveLength(4);
    items.forEach((item, i) => {
      const a = articles[i]!;
      expect(item).toContain(`<link>https://sixdigit.example.com/blog/${a.slug}</link>`);
      expect(item).toContain(`<guid isPermaLink="true">https://sixdigit.example.com/blog/${a.slug}</guid>`);
      expect(item).toContain(`<pubDate>${new Date(`${a.publishDate}T00:00:00Z`).toUTCString()}</pubDate>`);
      expect(item).toContain(`<dc:creator>${a.author}</dc:creator>`);
    });
    expect(res.body).toContain('<atom:link href="https://sixdigit.example.com/blog/feed.xml" rel="self" type="application/rss+xml"/>');
    // The enterprise site has no blog.
    const enterprise = await get('/blog/feed.xml', ENTERPRISE_HOST);
    expect(enterprise.statusCode).toBe(404);
    expect(enterprise.json().error.code).toBe('not_found');
  });

  it('answers a malformed Host with 400 in the envelope, on the pages and everywhere else, never 500', async () => {
    for (const host of ['enterprise.x y', 'enterprise.x<y', 'enterprise.x|y', 'x y', 'enterprise.bücher', 'enterprise.x:99999']) {
      for (const url of ['/', '/pricing', '/docs', '/documentation', '/contact', '/robots.txt', '/sitemap.xml', '/blog/feed.xml', '/healthz', '/api/auth/user']) {
        const res = await get(url, host);
        const code = String(res.headers['content-type']).startsWith('application/json') ? res.json().error?.code : res.body.slice(0, 40);
        expect({ host, url, status: res.statusCode, code }).toEqual({ host, url, status: 400, code: 'bad_request' });
        expect(res.json().error.request_id).toBe(res.headers['x-request-id']);
      }
    }
    // The last Host that passed is remembered, not parsed again: a bad one right after it is still refused.
    expect((await get('/healthz', ENTERPRISE_HOST)).statusCode).toBe(200);
    expect((await get('/healthz', `${ENTERPRISE_HOST} x`)).statusCode).toBe(400);
    // The same through a proxy: with TRUST_PROXY off, X-Forwarded-Host is not the Host and is not read.
    const proxied = await t.app.inject({ method: 'GET', url: '/pricing', headers: { host: ENTERPRISE_HOST, 'x-forwarded-host': 'enterprise.x y' } });
    expect(proxied.statusCode).toBe(200);
  });

  it('answers the same over a real socket, as curl -H "Host: enterprise.x y" sends it; an empty Host line is refused, no Host at all (HTTP/1.0) is not', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    /** One raw request; the Host line's bytes exactly as given (latin1), or none. */
    const raw = (path: string, hostLine: string | null, version = '1.1') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
        });
        socket.write(Buffer.from(`GET ${path} HTTP/${version}\r\n${hostLine === null ? '' : `Host:${hostLine}\r\n`}Connection: close\r\n\r\n`, 'latin1'));
      });
    for (const path of ['/', '/pricing', '/docs']) {
      for (const hostLine of [' enterprise.x y', ' enterprise.x<y', ' enterprise.x|y', ' enterprise.b\u00fccher', '', ' ']) {
        const res = await raw(path, hostLine);
        expect({ path, hostLine, status: res.status }).toEqual({ path, hostLine, status: 400 });
        expect(JSON.parse(res.body).error.code).toBe('bad_request');
      }
    }
    expect((await raw('/pricing', ' enterprise.localhost:5000')).status).toBe(200);
    expect((await raw('/', null, '1.0')).status).toBe(200);
  });

  it('sends each public page with its own head in the HTML itself (crawlers run no JavaScript)', async () => {
    const post = await get('/blog/totp-vs-sms-security');
    expect(post.statusCode).toBe(200);
    expect(post.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(canonical(post.body)).toBe('https://sixdigit.example.com/blog/totp-vs-sms-security');
    expect(meta(post.body, 'og:type')).toBe('article');
    const blog = await get('/blog?utm_source=x');
    expect(canonical(blog.body)).toBe('https://sixdigit.example.com/blog');
    const pricing = await get('/pricing', ENTERPRISE_HOST);
    expect(canonical(pricing.body)).toBe(`http://${ENTERPRISE_HOST}/pricing`);
    expect(pricing.body).toContain('<meta name="sixdigit-variant" content="enterprise">');
    const home = await get('/');
    expect(title(home.body)).toContain('₹0.10');
    expect(canonical(home.body)).toBe('https://sixdigit.example.com/');
  });
});
