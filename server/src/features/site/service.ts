import { SESSION_HINT_COOKIE } from '@common/contract/auth';
import { PUBLIC_PAGES } from '@common/public-pages';
import { BLOG_DESCRIPTION, articlePageTitle, articlePath, type Article } from '@common/blog';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { escapeHtml } from '../../lib/html';
import { requestOrigin } from '../../lib/http';
import { siteVariantFor, type SiteVariant } from '../../lib/site-variant';
import { blogArticles, findArticle } from './content';
import type { FiguresSource } from './figures';
import { withRenderedRoot, type PageRenderer } from './prerender';

/**
 * What search engines and link previews see (issue 11, item 6): each public page's own title,
 * description, canonical URL and Open Graph / Twitter tags, written into index.html by the server
 * (crawlers and preview bots do not run the app), plus robots.txt, sitemap.xml and the blog feed.
 */

export interface PageHead {
  path: string;
  title: string;
  description: string;
  type: 'website' | 'article';
  /** articles: the publication day, YYYY-MM-DD */
  publishedTime?: string;
  author?: string;
  /** sitemap lastmod */
  lastModified?: string;
}

/** The pages with a head of their own in common/public-pages.ts (articles get theirs below). */
function staticHeads(variant: SiteVariant): PageHead[] {
  return PUBLIC_PAGES[variant].flatMap((page) => (page.head ? [{ path: page.pattern, ...page.head, type: 'website' as const }] : []));
}

const MAIN_PAGES: readonly PageHead[] = staticHeads('main');
const ENTERPRISE_PAGES: readonly PageHead[] = staticHeads('enterprise');

function articleHead(article: Article): PageHead {
  return {
    path: articlePath(article.slug),
    title: articlePageTitle(article),
    description: article.excerpt,
    type: 'article',
    publishedTime: article.publishDate,
    author: article.author,
    lastModified: article.publishDate,
  };
}

/** Every public page of a variant, in sitemap order. */
export function publicPages(variant: SiteVariant): PageHead[] {
  if (variant === 'enterprise') return [...ENTERPRISE_PAGES];
  const articles = blogArticles();
  const [home, blog, ...rest] = MAIN_PAGES;
  return [home!, { ...blog!, lastModified: articles[0]?.publishDate }, ...articles.map(articleHead), ...rest];
}

/** The head of one path, or undefined for pages that are not public (they keep index.html's). */
export function pageHead(variant: SiteVariant, path: string): PageHead | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (variant === 'main') {
    const slug = /^\/blog\/([^/]+)$/.exec(clean)?.[1];
    if (slug) {
      const article = findArticle(decodeSafely(slug));
      return article ? articleHead(article) : undefined;
    }
  }
  return (variant === 'enterprise' ? ENTERPRISE_PAGES : MAIN_PAGES).find((p) => p.path === clean);
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The address a variant's absolute URLs start with: PUBLIC_URL for the main site, the request's own host for the enterprise one. */
export function siteOrigin(config: Config, request: FastifyRequest, variant: SiteVariant): string {
  return variant === 'main' ? config.publicUrl : requestOrigin(request);
}


const TITLE = /<title>[\s\S]*?<\/title>/;
const DESCRIPTION = /<meta\s+name="description"[\s\S]*?\/?>/;
const VARIANT = '<meta name="sixdigit-variant" content="main">';

/**
 * index.html for one request: the variant marker and, for a public page, its own title,
 * description, canonical link and Open Graph / Twitter tags. Other pages keep the defaults;
 * an unknown blog article is marked noindex (the app shows "Post Not Found").
 */
export function renderPageHtml(indexHtml: string, options: { variant: SiteVariant; path: string; origin: string; mainOrigin?: string }): string {
  const { variant, path, origin, mainOrigin } = options;
  // The enterprise site links to the main one (accounts, sales): it needs to know where it is.
  const markers = [
    `<meta name="sixdigit-variant" content="${variant}">`,
    ...(variant === 'enterprise' && mainOrigin ? [`<meta name="sixdigit-main-origin" content="${escapeHtml(mainOrigin)}">`] : []),
  ];
  let html = indexHtml.replace(VARIANT, () => markers.join('\n    '));
  const head = pageHead(variant, path);
  if (!head) {
    return variant === 'main' && /^\/blog\/[^/]+\/?$/.test(path) ? html.replace('</head>', '    <meta name="robots" content="noindex">\n  </head>') : html;
  }
  const url = `${origin}${head.path === '/' ? '/' : head.path}`;
  const siteName = variant === 'enterprise' ? 'Sixdigit Enterprise' : 'Sixdigit';
  const title = escapeHtml(head.title);
  const description = escapeHtml(head.description);
  const tags = [
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    `<meta property="og:type" content="${head.type}">`,
    `<meta property="og:site_name" content="${siteName}">`,
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="${description}">`,
    `<meta property="og:url" content="${escapeHtml(url)}">`,
    `<meta property="og:locale" content="en_IN">`,
    `<meta property="og:image" content="${escapeHtml(`${origin}/icons/icon-512.png`)}">`,
    ...(head.publishedTime ? [`<meta property="article:published_time" content="${head.publishedTime}">`] : []),
    ...(head.author ? [`<meta property="article:author" content="${escapeHtml(head.author)}">`] : []),
    `<meta name="twitter:card" content="summary">`,
    `<meta name="twitter:title" content="${title}">`,
    `<meta name="twitter:description" content="${description}">`,
    ...(variant === 'main' && head.path.startsWith('/blog')
      ? [`<link rel="alternate" type="application/rss+xml" title="Sixdigit Blog" href="${escapeHtml(`${origin}${FEED_PATH}`)}">`]
      : []),
  ];
  html = html.replace(TITLE, () => `<title>${title}</title>`);
  html = DESCRIPTION.test(html)
    ? html.replace(DESCRIPTION, () => `<meta name="description" content="${description}" />`)
    : html.replace('</head>', () => `    <meta name="description" content="${description}" />\n  </head>`);
  return html.replace('</head>', () => `    ${tags.join('\n    ')}\n  </head>`);
}

/**
 * index.html as this request should see it (see renderPageHtml), with the page itself rendered
 * inside it where the renderer has it (prerender.ts). A main-site visitor with the session hint
 * is probably signed in and about to get the app instead, so their page is left to the browser.
 */
export async function pageHtml(indexHtml: string, request: FastifyRequest, config: Config, renderer?: PageRenderer, figures?: FiguresSource): Promise<string> {
  const variant = siteVariantFor(request.host, config.enterpriseHostMatch);
  const path = request.url.split('?')[0] ?? '/';
  const origin = siteOrigin(config, request, variant);
  const mainOrigin = new URL(config.publicUrl).origin;
  const html = renderPageHtml(indexHtml, { variant, path, origin, mainOrigin });
  if (!renderer || (variant === 'main' && request.cookies?.[SESSION_HINT_COOKIE] === '1')) return html;
  // Only a public page at its canonical path (not /Blog/, not an unknown article): the renderer's
  // cache holds a handful of pages, whatever paths are asked for.
  if (pageHead(variant, path)?.path !== path) return html;
  // The canonical link's origin (PUBLIC_URL on the main site): the browser reads the same one
  // (web/src/lib/page-origin.tsx), so the samples and share links agree on hydration.
  // Only the main landing page shows the live figures (its stats strip).
  const pageFigures = variant === 'main' && path === '/' ? await figures?.get() : undefined;
  const root = await renderer.render({ variant, path, origin: new URL(origin).origin, mainOrigin, figures: pageFigures });
  return root === undefined ? html : withRenderedRoot(html, root, pageFigures);
}

// --- robots.txt, sitemap.xml, feed ------------------------------------------------------------

export const FEED_PATH = '/blog/feed.xml';

/** Signed-in and operator areas: nothing there for a search engine. */
const MAIN_DISALLOW = ['/api/', '/admin', '/financial-manager', '/business', '/home', '/totp', '/multi-totp', '/testQR'];

export function robotsTxt(variant: SiteVariant, origin: string): string {
  const disallow = variant === 'main' ? MAIN_DISALLOW : ['/api/'];
  return ['User-agent: *', 'Allow: /', ...disallow.map((p) => `Disallow: ${p}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}

/** XML text escaping (element bodies and attribute values). */
function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export function sitemapXml(variant: SiteVariant, origin: string): string {
  const urls = publicPages(variant).map((page) =>
    [
      '  <url>',
      `    <loc>${xml(`${origin}${page.path}`)}</loc>`,
      ...(page.lastModified ? [`    <lastmod>${page.lastModified}</lastmod>`] : []),
      '  </url>',
    ].join('\n'),
  );
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

/** "2026-11-10" → "Tue, 10 Nov 2026 00:00:00 GMT" (RFC 822, as RSS 2.0 wants). */
function rfc822(day: string): string {
  return new Date(`${day}T00:00:00Z`).toUTCString();
}

/** RSS 2.0 of every article, newest first, from the same Markdown files the blog shows. */
export function rssFeed(origin: string): string {
  const articles = blogArticles();
  const items = articles.map((a) => {
    const link = `${origin}${articlePath(a.slug)}`;
    return [
      '    <item>',
      `      <title>${xml(a.title)}</title>`,
      `      <link>${xml(link)}</link>`,
      `      <guid isPermaLink="true">${xml(link)}</guid>`,
      `      <description>${xml(a.excerpt)}</description>`,
      `      <dc:creator>${xml(a.author)}</dc:creator>`,
      `      <category>${xml(a.category)}</category>`,
      `      <pubDate>${rfc822(a.publishDate)}</pubDate>`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    <title>Sixdigit Blog</title>`,
    `    <link>${xml(`${origin}/blog`)}</link>`,
    `    <description>${xml(BLOG_DESCRIPTION)}</description>`,
    '    <language>en-in</language>',
    `    <atom:link href="${xml(`${origin}${FEED_PATH}`)}" rel="self" type="application/rss+xml"/>`,
    ...(articles[0] ? [`    <lastBuildDate>${rfc822(articles[0].publishDate)}</lastBuildDate>`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
