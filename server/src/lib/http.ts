import type { FastifyReply, FastifyRequest } from 'fastify';

/** Node's incoming headers as a WHATWG Headers object (what better-auth reads). */
export function toWebHeaders(headers: FastifyRequest['headers']): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else out.set(name, String(value));
  }
  return out;
}

/** Copies Set-Cookie headers from a better-auth answer onto a Fastify reply. */
export function forwardSetCookies(from: Headers, reply: FastifyReply): void {
  const cookies = from.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
}

export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
