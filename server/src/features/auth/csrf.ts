import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { requestOrigin } from '../../lib/http';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Paths authenticated by something other than the session cookie (API keys, provider signatures). */
export const NOT_COOKIE_AUTHENTICATED = [/^\/api\/v1\//, /^\/v1\//, /^\/api\/webhooks\/incoming\//, /^\/api\/payments\/razorpay\/webhook$/, /^\/api\/mail\/one-click\//];

export type SiteSignal = 'same-origin' | 'foreign' | 'none';

/**
 * Where a request says it came from, strongest evidence first. A foreign Origin always loses.
 * `Sec-Fetch-Site` is set by the browser and cannot be forged by a page's script; browsers that
 * predate it still send Origin on POST, and Referer is the last resort (policy same-origin, so our
 * own pages always send it to us).
 */
export function siteSignal(request: FastifyRequest, publicUrl: string): SiteSignal {
  const own = new Set([requestOrigin(request), new URL(publicUrl).origin]);
  const origin = request.headers.origin;
  if (origin !== undefined && !own.has(origin)) return 'foreign';
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin') return 'same-origin';
  // same-site (a sibling subdomain), cross-site and none (typed or bookmarked) are not our pages.
  if (typeof fetchSite === 'string') return 'foreign';
  if (origin !== undefined) return 'same-origin';
  const referer = request.headers.referer;
  if (referer === undefined) return 'none';
  try {
    return own.has(new URL(referer).origin) ? 'same-origin' : 'foreign';
  } catch {
    return 'foreign';
  }
}

/**
 * Every state-changing request to the cookie API must show it came from our own pages
 * (SameSite=Lax cookies are the first line; this is the second): a foreign Origin, a
 * cross-site/same-site Sec-Fetch-Site, a foreign Referer, or no signal at all is refused.
 */
export function installCsrfGuard(app: FastifyInstance): void {
  const { publicUrl } = app.ctx.config;
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method)) return;
    // The matched route, not the raw URL: `/%61pi/…` is routed to `/api/…` too.
    const path = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/') || NOT_COOKIE_AUTHENTICATED.some((re) => re.test(path))) return;
    const signal = siteSignal(request, publicUrl);
    if (signal === 'foreign') throw new AppError('forbidden_origin', 'This request came from another site and was refused.');
    if (signal === 'none') throw new AppError('forbidden_origin', 'This request did not show it came from this site (no Origin, Sec-Fetch-Site or Referer) and was refused.');
  });
}

/**
 * A GET that changes state (the sign-out link): refused when another site started it. A typed or
 * bookmarked address (`Sec-Fetch-Site: none`) and our own pages are fine; so is a client that
 * sends none of the signals, since a browser navigation from another site always sends one.
 */
export function isCrossSiteNavigation(request: FastifyRequest, publicUrl: string): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin' || fetchSite === 'none') return false;
  if (typeof fetchSite === 'string') return true;
  const referer = request.headers.referer;
  if (referer === undefined) return false;
  try {
    return ![requestOrigin(request), new URL(publicUrl).origin].includes(new URL(referer).origin);
  } catch {
    return true;
  }
}
