import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../test/support/db';
import { siteVariantFor } from './lib/site-variant';

/** What a browser sends with a form post from our own page (the CSRF guard wants a same-site signal). */
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

describeEachDialect('app: the one error envelope, ids and headers', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(async () => t?.close());

  const expectEnvelope = (res: { json(): any; headers: Record<string, unknown> }, code: string) => {
    const body = res.json();
    const details = code === 'validation_failed' ? { details: expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]) } : {};
    expect(body).toEqual({ error: { code, message: expect.any(String), request_id: res.headers['x-request-id'], doc_url: `http://localhost:5000/docs#error-${code}`, ...details } });
    expect(body.error.message.length).toBeGreaterThan(0);
  };

  it('answers unknown /api paths with 404 not_found', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expectEnvelope(res, 'not_found');
    const post = await t.app.inject({ method: 'DELETE', url: '/api/v1/nothing' });
    expect(post.statusCode).toBe(404);
    expectEnvelope(post, 'not_found');
  });

  it('answers invalid JSON with 400 invalid_json', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login/local', headers: { 'content-type': 'application/json', ...SAME_ORIGIN }, payload: '{"email": ' });
    expect(res.statusCode).toBe(400);
    expectEnvelope(res, 'invalid_json');
  });

  it('answers a schema violation with 400 validation_failed naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login/local', headers: SAME_ORIGIN, payload: { email: 42 } });
    expect(res.statusCode).toBe(400);
    expectEnvelope(res, 'validation_failed');
    expect(res.json().error.message).toContain('email');
  });

  it('answers an oversized body with 413 payload_too_large', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login/local', headers: SAME_ORIGIN, payload: { email: 'a@b.c', name: 'x'.repeat(10_000) } });
    expect(res.statusCode).toBe(413);
    expectEnvelope(res, 'payload_too_large');
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login/local', headers: { 'content-type': 'application/xml', ...SAME_ORIGIN }, payload: '<x/>' });
    expect(res.statusCode).toBe(415);
    expectEnvelope(res, 'unsupported_media_type');
  });

  it('echoes a well-formed incoming x-request-id and makes one otherwise', async () => {
    const echoed = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'lb-req-12345678' } });
    expect(echoed.headers['x-request-id']).toBe('lb-req-12345678');
    const made = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id\nwith newline' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });

  it('reports liveness and readiness (with the database engine)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ok', database: dialect });
  });

  it('says the web app is not built when there is no build, instead of a blank page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/some/page' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});

describe('serving the built web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'sixdigit-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><meta name="sixdigit-variant" content="main"></head><body>app</body></html>');
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    t = await createTestApp('sqlite', { WEB_DIST_DIR: dist });
  });
  afterAll(async () => t?.close());

  it('serves the page at / and at any app path, never cached, with the host variant', async () => {
    for (const url of ['/', '/home', '/blog/some-post']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('content="main"');
    }
    const enterprise = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'enterprise.localhost:5000' } });
    expect(enterprise.body).toContain('<meta name="sixdigit-variant" content="enterprise">');
  });

  it('serves hashed assets with a year-long immutable cache, and unknown assets as 404 envelopes', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/nope.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
  });

  it('sends a referrer policy that keeps the Origin header on our own form posts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });
});

describe('readiness when the database is gone', () => {
  it('answers 503 service_unavailable', async () => {
    const t = await createTestApp('sqlite');
    await t.ctx.database.close();
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('service_unavailable');
    await t.app.close().catch(() => {});
  });
});

describe('siteVariantFor', () => {
  it('chooses the enterprise site when the host contains the match, ignoring the port and case', () => {
    expect(siteVariantFor('enterprise.localhost:5000', 'enterprise')).toBe('enterprise');
    expect(siteVariantFor('API.Enterprise-Totp.com', 'enterprise')).toBe('enterprise');
    expect(siteVariantFor('localhost:5000', 'enterprise')).toBe('main');
    expect(siteVariantFor(undefined, 'enterprise')).toBe('main');
  });
});
