import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/support/db';
import { CompressedBodyCache, negotiateEncoding } from './compression';

describe('negotiateEncoding', () => {
  it('prefers brotli, then gzip, and sends identity when neither is accepted', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip, deflate')).toBe('gzip');
    expect(negotiateEncoding('deflate')).toBeNull();
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('')).toBeNull();
    expect(negotiateEncoding(undefined)).toBeNull();
  });

  it('honours q-values, q=0 refusals and the * wildcard', () => {
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*;q=0')).toBeNull();
    expect(negotiateEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(negotiateEncoding('GZIP')).toBe('gzip');
  });
});

describe('CompressedBodyCache', () => {
  it('compresses a body once per encoding and returns the same bytes after', () => {
    const cache = new CompressedBodyCache();
    const body = '<p>hello</p>'.repeat(200);
    const br = cache.get(body, 'br');
    expect(brotliDecompressSync(br).toString()).toBe(body);
    expect(cache.get(body, 'br')).toBe(br);
    expect(gunzipSync(cache.get(body, 'gzip')).toString()).toBe(body);
  });
});

describe('serving the built web app compressed, without source maps', () => {
  let t: TestApp;
  const script = `console.log(${JSON.stringify('sixdigit '.repeat(400))});`;
  const page = `<!doctype html><html><head><meta name="sixdigit-variant" content="main"><title>${'Sixdigit '.repeat(100)}</title></head><body>app</body></html>`;

  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'sixdigit-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), page);
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), script);
    writeFileSync(join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(join(dist, 'assets', 'index-abc123.js.gz'), gzipSync(script));
    // Maps a build might have left behind must not be served.
    writeFileSync(join(dist, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["secret.ts"]}');
    writeFileSync(join(dist, 'sw.js.map'), '{"version":3}');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp('sqlite', { WEB_DIST_DIR: dist });
  });
  afterAll(async () => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('sends the brotli file to a browser that accepts br, with Vary and the long cache', async () => {
    const res = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
    expect(res.rawPayload.length).toBeLessThan(script.length / 4);
  });

  it('sends the gzip file to a gzip-only client and the plain file to one that accepts neither', async () => {
    const gz = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-abc123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
  });

  it('compresses the page (with its site variant) and still never caches it', async () => {
    const main = await get('/blog/some-post', { 'accept-encoding': 'br' });
    expect(main.statusCode).toBe(200);
    expect(main.headers['content-encoding']).toBe('br');
    expect(main.headers['cache-control']).toBe('no-cache');
    expect(main.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(main.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(main.rawPayload).toString()).toContain('content="main"');

    const enterprise = await get('/', { 'accept-encoding': 'gzip', host: 'enterprise.localhost:5000' });
    expect(enterprise.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(enterprise.rawPayload).toString()).toContain('<meta name="sixdigit-variant" content="enterprise">');

    const plain = await get('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('content="main"');
  });

  it('answers 404 for source maps, even ones left in the build, and for the .br/.gz files themselves', async () => {
    for (const url of ['/assets/index-abc123.js.map', '/sw.js.map', '/assets/index-abc123.js.br', '/assets/index-abc123.js.gz', '/main.js.map']) {
      const res = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      expect(res.body).not.toContain('sources');
    }
  });

  it('answers 404 for a missing file-like path instead of the page', async () => {
    const res = await get('/favicon.ico');
    expect(res.statusCode).toBe(404);
    expect((await get('/favicon.svg')).statusCode).toBe(200);
  });

  it('leaves /api responses uncompressed', async () => {
    for (const url of ['/api/v1/openapi.json', '/healthz', '/api/auth/user']) {
      const res = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(res.headers['content-encoding'], url).toBeUndefined();
    }
  });
});
