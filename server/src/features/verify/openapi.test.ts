import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';

type Json = Record<string, any>;

/** Every public v1 operation with the error statuses it must document (DESIGN.md §5). */
const OPERATIONS: Record<string, { success: string; errors: string[] }> = {
  'get /profile': { success: '200', errors: ['401', '429'] },
  'post /test': { success: '200', errors: ['401', '429'] },
  'post /generate': { success: '201', errors: ['400', '401', '409', '413', '429'] },
  'post /verify': { success: '200', errors: ['400', '401', '402', '404', '409', '413', '429'] },
  'delete /users/{user_id}': { success: '204', errors: ['401', '404', '429'] },
  'get /users/{user_id}': { success: '200', errors: ['400', '401', '404', '429'] },
  'get /users': { success: '200', errors: ['400', '401', '404', '429'] },
  'get /verifications/{verification_id}': { success: '200', errors: ['400', '401', '404', '429'] },
  'get /verifications': { success: '200', errors: ['400', '401', '404', '429'] },
};
const split = (operation: string) => operation.split(' ') as [string, string];

describeEachDialect('OpenAPI document of the public API', (dialect) => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    doc = res.json();
  });
  afterAll(async () => t?.close());

  function resolve(node: Json): Json {
    if (typeof node.$ref !== 'string') return node;
    const path = node.$ref.replace(/^#\//, '').split('/');
    return resolve(path.reduce((at: Json, key: string) => at[key], doc));
  }

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toMatch(/^3\.1\./);

    // The validator is not vacuous: a response without its required description fails.
    const broken = structuredClone(doc);
    delete broken.paths['/verify'].post.responses['402'].description;
    expect((await validator.validate(broken)).valid).toBe(false);
  });

  it('is served relative to the /api/v1 server with the bearer API key scheme', () => {
    expect(doc.servers).toEqual([{ url: 'http://localhost:5000/api/v1' }]);
    expect(doc.components.securitySchemes).toEqual({ apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
  });

  it('documents exactly the v1 operations — no cookie-only route, no /v1 alias duplicate, not itself', () => {
    const documented = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`));
    expect(documented.sort()).toEqual(Object.keys(OPERATIONS).sort());
    const text = JSON.stringify(doc.paths);
    for (const leak of ['/api/business', '/api/auth', '/api/login', '/api/logout', 'openapi.json', '/v1/', 'healthz', 'cookie']) {
      expect(text, leak).not.toContain(leak);
    }
  });

  it.each(Object.entries(OPERATIONS))('%s requires the bearer key and documents its success and error responses', (operation, { success, errors }) => {
    const [method, path] = split(operation);
    const op = doc.paths[path][method];
    expect(op.security).toEqual([{ apiKey: [] }]);
    expect(op.summary).toEqual(expect.any(String));
    expect(op.tags).toHaveLength(1);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining([success, ...errors]));
    for (const status of errors) {
      const response = op.responses[status];
      expect(response.description, `${path} ${status}`).toMatch(/\w/);
      const schema = resolve(response.content['application/json'].schema);
      expect(schema.required).toEqual(['error']);
      expect(schema.properties.error.required).toEqual(['code', 'message', 'request_id', 'doc_url']);
      expect(schema.properties.error.properties.details).toMatchObject({ type: 'array' });
    }
  });

  it('describes the request bodies with their limits, from the same zod schemas the server validates with', () => {
    const generate = resolve(doc.paths['/generate'].post.requestBody.content['application/json'].schema);
    expect(generate.required).toEqual(['user_id']);
    expect(generate.additionalProperties).toBe(false);
    expect(generate.properties.user_id).toMatchObject({ type: 'string', minLength: 1, maxLength: 128 });
    expect(generate.properties.algorithm.enum).toEqual(['SHA1', 'SHA256', 'SHA512']);
    expect(generate.properties.digits).toMatchObject({ type: 'integer', minimum: 6, maximum: 8 });
    expect(generate.properties.period).toMatchObject({ type: 'integer', minimum: 15, maximum: 120 });

    const verify = resolve(doc.paths['/verify'].post.requestBody.content['application/json'].schema);
    expect(Object.keys(verify.properties).sort()).toEqual(['backup_code', 'purpose', 'secret', 'token', 'totp_code', 'user_id', 'window']);
    expect(verify.properties.window).toMatchObject({ type: 'integer', minimum: 0, maximum: 10 });

    const headers = doc.paths['/verify'].post.parameters.filter((p: Json) => p.in === 'header');
    expect(headers).toEqual([expect.objectContaining({ name: 'idempotency-key', required: false })]);
    const params = doc.paths['/users/{user_id}'].delete.parameters;
    expect(params).toEqual([expect.objectContaining({ name: 'user_id', in: 'path', required: true })]);
    const query = doc.paths['/verifications'].get.parameters.filter((p: Json) => p.in === 'query');
    expect(query.map((p: Json) => p.name).sort()).toEqual(['created_after', 'created_before', 'limit', 'starting_after', 'status', 'user_id']);
    expect(query.find((p: Json) => p.name === 'limit').schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 });

    const verifyOk = resolve(doc.paths['/verify'].post.responses['200'].content['application/json'].schema);
    expect(verifyOk.properties.status.enum).toEqual(['verified', 'invalid_code', 'expired', 'replayed']);
  });

  it('is not behind the API key and answers the same document twice', async () => {
    const again = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { authorization: 'Bearer nonsense' } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(doc);
  });
});
