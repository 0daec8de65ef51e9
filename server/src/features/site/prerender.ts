import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { SiteFigures } from '@common/site-figures';
import type { FastifyBaseLogger } from 'fastify';
import type { SiteVariant } from '../../lib/site-variant';
import { escapeHtml } from '../../lib/html';

/**
 * Server-side rendering of the public pages (issue 11, item 7): the landing page, the blog and
 * the enterprise landing and pricing pages arrive as HTML, so they paint before any script
 * runs; the browser then hydrates them (web/src/main.tsx). The renderer is the web app's own
 * code, built by `vite build --ssr` (web/src/entry-server.tsx) — one source for both sides.
 */

export interface PageRequest {
  variant: SiteVariant;
  /** path only, no query string */
  path: string;
  /** the origin the visitor sees (share links and code samples show it) */
  origin: string;
  /** the main site's origin (PUBLIC_URL; the same for every request) */
  mainOrigin: string;
  /** the landing page's live figures (features/site/figures.ts), on the page that shows them */
  figures?: SiteFigures;
}

interface SsrEntry {
  renderPage(request: PageRequest): Promise<string | undefined>;
}

/**
 * Pages are rendered once with this origin and the request's is written in afterwards, so a
 * stream of made-up Host headers (the enterprise site answers any host naming it) costs a string
 * replacement each, not a render.
 */
const ORIGIN_MARKER = 'https://origin.sixdigit.invalid';

export interface PageRenderer {
  /** The HTML for #root, or undefined when the page is rendered in the browser (or rendering failed). */
  render(request: PageRequest): Promise<string | undefined>;
}

/**
 * The pages are the same for every visitor: each is rendered once per variant, path and year
 * (the footer's ©). Callers ask only for the public pages (a short list), so the bound is slack.
 */
const MAX_CACHED_PAGES = 64;
/** A page whose render failed is sent unrendered for this long before it is tried again. */
const RETRY_FAILED_RENDER_MS = 60_000;

export async function loadPageRenderer(
  entryFile: string,
  log: FastifyBaseLogger,
  { retryFailedAfterMs = RETRY_FAILED_RENDER_MS }: { retryFailedAfterMs?: number } = {},
): Promise<PageRenderer | undefined> {
  if (!existsSync(entryFile)) {
    log.warn({ entryFile }, 'no server renderer built: public pages are rendered in the browser (run `npm run build`)');
    return undefined;
  }
  const entry = (await import(pathToFileURL(entryFile).href)) as SsrEntry;
  const cache = new Map<string, Promise<string | undefined>>();

  return {
    async render({ variant, path, origin, mainOrigin, figures }) {
      // the figures change at most hourly: one more render an hour
      const key = `${variant} ${path} ${new Date().getUTCFullYear()} ${figures ? JSON.stringify(figures) : ''}`;
      let page = cache.get(key);
      if (!page) {
        page = entry.renderPage({ variant, path, origin: ORIGIN_MARKER, mainOrigin, figures }).catch((error: unknown) => {
          // The page still works: the browser renders it, as it would without a renderer.
          log.error({ err: error, path }, 'server rendering failed');
          setTimeout(() => cache.delete(key), retryFailedAfterMs).unref();
          return undefined;
        });
        if (cache.size >= MAX_CACHED_PAGES) cache.delete(cache.keys().next().value!);
        cache.set(key, page);
      }
      // As text or attribute, and percent-encoded inside share links' query strings.
      return (await page)
        ?.replaceAll(ORIGIN_MARKER, escapeHtml(origin))
        .replaceAll(encodeURIComponent(ORIGIN_MARKER), escapeHtml(encodeURIComponent(origin)));
    },
  };
}

const EMPTY_ROOT = '<div id="root"></div>';

/**
 * index.html with the rendered page inside #root, and the data it was rendered with (the
 * landing's figures) beside it as JSON, for the browser's first render to agree
 * (web/src/lib/site-figures.tsx reads it).
 */
export function withRenderedRoot(html: string, rootHtml: string, figures?: SiteFigures): string {
  if (!html.includes(EMPTY_ROOT)) throw new Error('index.html has no empty <div id="root"></div> to render into');
  // JSON of numbers and null only; `<` is escaped anyway so nothing can close the script element.
  const data = figures ? `<script type="application/json" id="site-figures">${JSON.stringify(figures).replaceAll('<', '\\u003c')}</script>` : '';
  return html.replace(EMPTY_ROOT, () => `${data}<div id="root">${rootHtml}</div>`);
}
