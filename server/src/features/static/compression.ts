/**
 * Compression for the web app's responses (issue 11). Build files are compressed once at
 * build time (vite.config.ts writes `.br` and `.gz` beside each text file, @fastify/static
 * serves them); the few generated pages (index.html with the site variant written in) are
 * compressed once per distinct body and kept in memory. Either way no request pays for
 * compression, and /api responses are left alone (the verify hot path must not).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type ContentEncoding = 'br' | 'gzip';

/** Text files worth compressing (the rest — images, fonts — are compressed already). */
export const COMPRESSIBLE_FILE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/i;

/**
 * The best encoding the client accepts: brotli, then gzip, honouring q-values (`q=0` refuses)
 * and `*`. Null means send the body as is.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const quality = (encoding: ContentEncoding) => q.get(encoding) ?? q.get('*') ?? 0;
  const br = quality('br');
  const gzip = quality('gzip');
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

const MAX_CACHED_BODIES = 64;
/**
 * A server-rendered page is ~60 KB and the enterprise site's pages differ per Host, so a miss
 * must stay cheap: quality 5 takes ~2 ms on the event loop and is ~12% larger than quality 11,
 * which takes ~60 ms (the build's own files are compressed at 11 once, at build time).
 */
const PAGE_BROTLI_QUALITY = 5;

/** Compressed copies of generated bodies, keyed by the body (bounded: oldest out first). */
export class CompressedBodyCache {
  private readonly entries = new Map<string, Partial<Record<ContentEncoding, Buffer>>>();

  get(body: string, encoding: ContentEncoding): Buffer {
    let entry = this.entries.get(body);
    if (!entry) {
      if (this.entries.size >= MAX_CACHED_BODIES) this.entries.delete(this.entries.keys().next().value!);
      entry = {};
      this.entries.set(body, entry);
    }
    entry[encoding] ??=
      encoding === 'br'
        ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
        : gzipSync(body, { level: 9 });
    return entry[encoding];
  }
}

/** Sends a generated text body compressed as the client allows, saying so in Vary. */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, body: string, cache: CompressedBodyCache) {
  reply.header('vary', 'accept-encoding');
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(body);
  return reply.header('content-encoding', encoding).send(cache.get(body, encoding));
}
