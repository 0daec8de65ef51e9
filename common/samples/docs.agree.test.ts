import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEST_EVENT, WEBHOOK_EVENTS } from '../../server/src/features/webhooks/events';
import { ERROR_STATUS } from '../../server/src/lib/errors';
import { createTestApp, describeEachDialect, type TestApp } from '../../test/support/db';
import { bearer, createBusiness } from '../../test/support/verify-api';
import { ERROR_CODES_DOC, RATE_LIMIT_HEADERS, WEBHOOK_EVENTS_DOC } from '../../web/src/features/enterprise/content';
import { apiServerUrl, fieldsOf, operationsOf, type OpenApiDocument } from '../../web/src/features/enterprise/openapi';
import { sampleOperationFor } from './index';

/**
 * The enterprise docs page reads the served OpenAPI document at run time; the little it states
 * in prose (webhook events, rate-limit headers) is checked here against the running server.
 */
describeEachDialect('the enterprise docs agree with the server', (dialect) => {
  let t: TestApp;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => t?.close());

  it('reads every served operation, each with a sample, its fields and its error statuses', () => {
    const ops = operationsOf(doc);
    expect(ops.map((op) => `${op.method} ${op.path}`)).toEqual([
      'GET /profile',
      'POST /test',
      'POST /generate',
      'POST /verify',
      'GET /users/{user_id}',
      'DELETE /users/{user_id}',
      'GET /verifications',
      'GET /verifications/{verification_id}',
      'GET /users',
      'GET /webhook_endpoints',
      'POST /webhook_endpoints',
      'GET /webhook_endpoints/{id}',
      'PATCH /webhook_endpoints/{id}',
      'DELETE /webhook_endpoints/{id}',
      'POST /webhook_endpoints/{id}/test',
      'GET /webhook_endpoints/{id}/deliveries',
    ]);
    for (const op of ops) {
      expect(sampleOperationFor(op.method, op.path), op.path).toBeDefined();
      expect(op.needsApiKey).toBe(true);
      expect(op.errors.map((e) => e.status)).toContain('401');
      for (const error of op.errors) expect(error.description, `${op.path} ${error.status}`).toMatch(/\w/);
    }
    expect(ops.find((op) => op.path === '/verify')!.requestDescription).toMatch(/exactly one of/);
    const generate = ops.find((op) => op.path === '/generate')!;
    expect(generate.successStatus).toBe('201');
    expect(generate.requestFields.find((f) => f.name === 'user_id')).toMatchObject({ required: true, limits: ['1–128 characters'] });
    expect(ops.find((op) => op.path === '/users/{user_id}')!.pathParams.map((p) => p.name)).toEqual(['user_id']);
    const listing = ops.find((op) => op.method === 'GET' && op.path === '/verifications')!;
    expect(listing.queryParams.map((p) => p.name)).toEqual(['user_id', 'status', 'created_after', 'created_before', 'limit', 'starting_after']);
    expect(listing.queryParams.find((p) => p.name === 'limit')!.limits).toEqual(expect.arrayContaining([expect.stringContaining('100')]));
    expect(fieldsOf(doc, doc.components?.schemas?.Error?.properties?.error).map((f) => f.name)).toEqual(['code', 'message', 'request_id', 'doc_url', 'details']);
    expect(apiServerUrl(doc, 'http://ignored')).toBe('http://localhost:5000/api/v1');
  });

  it('has an entry (the anchor doc_url points at) for every error code the server can send, with its status', () => {
    expect(Object.fromEntries(ERROR_CODES_DOC.map((e) => [e.code, e.status]))).toEqual(ERROR_STATUS);
    expect(new Set(ERROR_CODES_DOC.map((e) => e.code)).size).toBe(ERROR_CODES_DOC.length);
  });

  it('names the rate-limit headers on error answers to a valid key too ("every answer to a valid key")', async () => {
    const owner = await createBusiness(t.app, 'Docs Errors Ltd');
    for (const res of [
      await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(owner.apiKey), payload: {} }),
      await t.app.inject({ method: 'DELETE', url: '/api/v1/users/nobody', headers: bearer(owner.apiKey) }),
    ]) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      for (const header of RATE_LIMIT_HEADERS.filter((h) => h.name !== 'retry-after')) expect(res.headers[header.name], header.name).toMatch(/^\d+$/);
    }
  });

  it('lists exactly the webhook events the server sends', () => {
    expect(WEBHOOK_EVENTS_DOC.map((e) => e.event)).toEqual([...WEBHOOK_EVENTS, TEST_EVENT]);
  });

  it('names the rate-limit headers a real answer carries, and Retry-After on a 429', async () => {
    const owner = await createBusiness(t.app, 'Docs Check Ltd');
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(owner.apiKey) });
    expect(res.statusCode).toBe(200);
    const onEveryAnswer = RATE_LIMIT_HEADERS.filter((h) => h.name !== 'retry-after');
    for (const header of onEveryAnswer) expect(res.headers[header.name], header.name).toMatch(/^\d+$/);

    // Over the budget: 429 rate_limited with Retry-After, as the docs say.
    const other = await createBusiness(t.app, 'Docs Limit Ltd');
    await t.ctx.db.updateTable('business').set({ rate_limit_per_minute: 1 }).where('id', '=', other.businessId).execute();
    await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(other.apiKey) });
    const limited = await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(other.apiKey) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(RATE_LIMIT_HEADERS.map((h) => h.name)).toContain('retry-after');
  });
});
