import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_HINT_COOKIE } from '@common/contract/auth';
import { AppError } from './errors';

/** Node's incoming headers as a WHATWG Headers object (what better-auth reads). */
/**
 * The header through which better-auth learns the client's address (its `ipAddressHeaders`): set
 * only by us, from Fastify's `request.ip` (which honours TRUST_PROXY); a client's own is dropped.
 */
export const CLIENT_IP_HEADER = 'x-sixdigit-client-ip';

export function toWebHeaders(headers: FastifyRequest['headers']): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.toLowerCase() === CLIENT_IP_HEADER) continue;
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else out.set(name, String(value));
  }
  return out;
}

/** The request's headers for a better-auth call that may create a session (it records the address). */
export function toAuthHeaders(request: FastifyRequest): Headers {
  const out = toWebHeaders(request.headers);
  out.set(CLIENT_IP_HEADER, request.ip);
  return out;
}

const SESSION_COOKIE = /^(?:__Secure-)?sixdigit\.session_token=([^;]*)/;

/**
 * The session-hint cookie that mirrors one Set-Cookie of the session token: same lifetime,
 * path and flags, but readable by scripts and holding only "1" (or cleared with the session).
 */
export function sessionHintFor(sessionSetCookie: string): string | undefined {
  const match = SESSION_COOKIE.exec(sessionSetCookie);
  if (!match) return undefined;
  const attributes = sessionSetCookie
    .slice(match[0].length)
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !/^httponly$/i.test(part));
  const cleared = match[1] === '' || attributes.some((part) => /^max-age=0$/i.test(part));
  return [`${SESSION_HINT_COOKIE}=${cleared ? '' : '1'}`, ...attributes].join('; ');
}

/** The Set-Cookie that (re)sets or clears the session hint outside a better-auth answer. */
export function sessionHintCookie(signedIn: boolean, secure: boolean): string {
  const lifetime = signedIn ? `Max-Age=${60 * 60 * 24 * 7}` : 'Max-Age=0';
  return `${SESSION_HINT_COOKIE}=${signedIn ? '1' : ''}; ${lifetime}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * Copies Set-Cookie headers from a better-auth answer onto a Fastify reply, with the session
 * hint beside every session cookie set or cleared (sign-in, sign-out, impersonation).
 */
export function forwardSetCookies(from: Headers, reply: FastifyReply): void {
  const cookies = from.getSetCookie();
  const hints = cookies.map(sessionHintFor).filter((hint): hint is string => hint !== undefined);
  if (cookies.length > 0) reply.header('set-cookie', [...cookies, ...hints]);
}

export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * A Host as browsers, proxies and HTTP clients send it: a DNS name or IPv4 address, or an IPv6
 * literal in brackets, with an optional port — and one the URL parser accepts (so "1.2.3.999" or
 * port 99999 do not pass). Everything that builds an absolute URL from the request (page heads,
 * the enterprise site's origin, CSRF's own-origin check) can then rely on it.
 */
const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const MAX_HOST_LENGTH = 261; // a 253-character name and ":65535"

export function isWellFormedHost(host: string): boolean {
  return host.length <= MAX_HOST_LENGTH && HOST.test(host) && URL.canParse(`http://${host}/`);
}

// Nearly every request names the same host: the last one that passed is not parsed again (null
// at first: no Host, not even an empty one, passes without being checked).
let lastWellFormedHost: string | null = null;

/**
 * For the onRequest hook (app.ts), before anything reads the Host: a malformed one (a space, "<", "|", non-ASCII,
 * an empty Host line) is the client's mistake, 400 in the envelope — never a 500 from `new URL`
 * deep inside a page. An HTTP/1.0 request without Host has none to check (`request.host` is "").
 * Returns the error to answer with, or null.
 */
export function refuseMalformedHost(request: FastifyRequest): AppError | null {
  const host = request.host;
  if (host === lastWellFormedHost || (host === '' && request.headers.host === undefined)) return null;
  if (!isWellFormedHost(host)) return new AppError('bad_request', 'The Host header is not a valid host name.');
  lastWellFormedHost = host;
  return null;
}
