import { createServer } from 'node:net';

/**
 * Real-HTTP helpers for the tests that drive the app like a browser would: a cookie jar, a
 * fetch that never follows redirects (each hop is asserted by the test), and a free port.
 */

export interface ParsedSetCookie {
  name: string;
  value: string;
  path: string | undefined;
  domain: string | undefined;
  maxAge: number | undefined;
  expires: Date | undefined;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string | undefined;
}

/** One Set-Cookie header, attribute names case-insensitive (RFC 6265 §5.2). */
export function parseSetCookie(header: string): ParsedSetCookie {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  const cookie: ParsedSetCookie = {
    name: (eq === -1 ? '' : pair.slice(0, eq)).trim(),
    value: (eq === -1 ? pair : pair.slice(eq + 1)).trim(),
    path: undefined,
    domain: undefined,
    maxAge: undefined,
    expires: undefined,
    secure: false,
    httpOnly: false,
    sameSite: undefined,
  };
  for (const attribute of attributes) {
    const i = attribute.indexOf('=');
    const key = (i === -1 ? attribute : attribute.slice(0, i)).trim().toLowerCase();
    const value = i === -1 ? '' : attribute.slice(i + 1).trim();
    if (key === 'path') cookie.path = value;
    else if (key === 'domain') cookie.domain = value;
    else if (key === 'max-age') cookie.maxAge = Number(value);
    else if (key === 'expires') cookie.expires = new Date(value);
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'samesite') cookie.sameSite = value;
  }
  return cookie;
}

interface StoredCookie {
  host: string;
  path: string;
  name: string;
  value: string;
  secure: boolean;
  expiresAt: number | undefined;
}

/** Loopback is a "potentially trustworthy" origin, so browsers keep and send Secure cookies to it. */
function isTrustworthy(url: URL): boolean {
  return url.protocol === 'https:' || url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

function defaultPath(url: URL): string {
  const path = url.pathname;
  if (!path.startsWith('/') || path.lastIndexOf('/') === 0) return '/';
  return path.slice(0, path.lastIndexOf('/'));
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/**
 * A small RFC 6265 jar: host-only cookies (the servers under test set no Domain), keyed by host
 * name, not port, as browsers do; Path matching; expiry and deletion; Secure cookies only to
 * https or loopback.
 */
export class CookieJar {
  private cookies: StoredCookie[] = [];

  store(url: URL, setCookieHeaders: string[]): void {
    for (const header of setCookieHeaders) {
      const c = parseSetCookie(header);
      if (!c.name) continue;
      if (c.secure && !isTrustworthy(url)) continue;
      const path = c.path?.startsWith('/') ? c.path : defaultPath(url);
      const expiresAt =
        c.maxAge !== undefined ? Date.now() + c.maxAge * 1000 : c.expires !== undefined ? c.expires.getTime() : undefined;
      this.cookies = this.cookies.filter((s) => !(s.host === url.hostname && s.path === path && s.name === c.name));
      if (expiresAt !== undefined && expiresAt <= Date.now()) continue;
      this.cookies.push({ host: url.hostname, path, name: c.name, value: c.value, secure: c.secure, expiresAt });
    }
  }

  header(url: URL): string {
    const now = Date.now();
    this.cookies = this.cookies.filter((c) => c.expiresAt === undefined || c.expiresAt > now);
    return this.cookies
      .filter((c) => c.host === url.hostname && pathMatches(url.pathname, c.path) && (!c.secure || isTrustworthy(url)))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  names(host?: string): string[] {
    return this.cookies.filter((c) => host === undefined || c.host === host).map((c) => c.name);
  }
}

export interface HttpClient {
  jar: CookieJar;
  /** fetch with the jar and `redirect: 'manual'`; relative Location headers stay as sent. */
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
}

export function createHttpClient(): HttpClient {
  const jar = new CookieJar();
  return {
    jar,
    async fetch(input, init = {}) {
      const url = new URL(input);
      const headers = new Headers(init.headers);
      const cookie = jar.header(url);
      if (cookie) headers.set('cookie', cookie);
      const response = await fetch(url, { ...init, headers, redirect: 'manual' });
      jar.store(url, response.headers.getSetCookie());
      return response;
    },
  };
}

/** A port nothing listens on right now (for servers whose own URL must be known before they start). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
