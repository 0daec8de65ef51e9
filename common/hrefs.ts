/**
 * Whether the web app's router shows this link (`/pricing`, `/blog/…`) — a client-side
 * navigation — or the browser must load it: the API (`/api/login`), the feeds (`/blog/feed.xml`,
 * `/sitemap.xml`), other sites (`https:`, `mailto:`, `//host`). One rule for the public site's
 * links and the blog articles' links.
 */
export function isInternalHref(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/api/') && !/\.xml(?:[?#]|$)/.test(href);
}
