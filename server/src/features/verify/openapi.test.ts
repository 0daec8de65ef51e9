import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { bearer, createBusiness } from '../../../../test/support/verify-api';
import { TEST_EVENT, WEBHOOK_EVENTS } from '../webhooks/events';

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
  'get /webhook_endpoints': { success: '200', errors: ['400', '401', '404', '429'] },
  'post /webhook_endpoints': { success: '201', errors: ['400', '401', '409', '413', '429'] },
  'get /webhook_endpoints/{id}': { success: '200', errors: ['400', '401', '404', '429'] },
  'patch /webhook_endpoints/{id}': { success: '200', errors: ['400', '401', '404', '413', '429'] },
  'delete /webhook_endpoints/{id}': { success: '204', errors: ['401', '404', '429'] },
  'post /webhook_endpoints/{id}/test': { success: '202', errors: ['401', '404', '409', '429'] },
  'get /webhook_endpoints/{id}/deliveries': { success: '200', errors: ['400', '401', '404', '429'] },
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

  /** The error codes one response documents (the shared envelope, narrowed per operation). */
  const codesOf = (response: Json): string[] => response.content['application/json'].schema.allOf[1].properties.error.properties.code.enum;

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

  it("passes Redocly's recommended rules with 0 errors and 0 warnings", async () => {
    const lint = async (document: Json) =>
      (await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) })).map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`,
      );
    // Linted as served in production (a real PUBLIC_URL; the tests' localhost is a lint warning).
    const served = await createTestApp(dialect, { PUBLIC_URL: 'https://verify.sixdigit.in' });
    try {
      const production = (await served.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      expect(production.servers).toEqual([{ url: 'https://verify.sixdigit.in/api/v1' }]);
      expect(await lint(production)).toEqual([]);
    } finally {
      await served.close();
    }
    // The linter is not vacuous: an operation without its operationId is reported.
    const broken = structuredClone(doc);
    delete broken.paths['/profile'].get.operationId;
    expect((await lint(broken)).join('\n')).toContain('operation-operationId');
  });

  it('gives every operation an operationId, every status its error codes as an enum, and declares the headers each answer carries', () => {
    const ids = new Set<string>();
    for (const [operation, { success }] of Object.entries(OPERATIONS)) {
      const [method, path] = split(operation);
      const op = doc.paths[path][method];
      expect(op.operationId, operation).toMatch(/^[a-z][A-Za-z]+$/);
      ids.add(op.operationId);
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${operation} ${status}`).toContain('X-Request-Id');
        if (status === '401') expect(headers).toEqual(expect.arrayContaining(['WWW-Authenticate']));
        else expect(headers).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
        if (status === '429') expect(headers).toContain('Retry-After');
        if (status >= '400') {
          const codes = codesOf(response);
          expect(codes.length, `${operation} ${status}`).toBeGreaterThan(0);
        } else if (status !== '204') {
          expect(response.content['application/json'].example, `${operation} example`).toBeDefined();
        }
      }
      expect(Object.keys(op.responses)).toContain(success);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '429', '500']));
    }
    expect(ids.size).toBe(Object.keys(OPERATIONS).length);
    const verify = doc.paths['/verify'].post;
    expect(codesOf(verify.responses['402'])).toEqual(['insufficient_credits']);
    expect(codesOf(verify.responses['429'])).toEqual(['rate_limited', 'too_many_attempts']);
    expect(Object.keys(verify.responses['200'].headers)).toContain('Idempotent-Replayed');
    // The statuses the first review found missing: 400 and 413 on DELETE /users/{user_id} and POST /test.
    for (const [path, method] of [['/users/{user_id}', 'delete'], ['/test', 'post']] as const) {
      expect(codesOf(doc.paths[path][method].responses['400'])).toEqual(
        expect.arrayContaining(['invalid_json', 'validation_failed']),
      );
      expect(Object.keys(doc.paths[path][method].responses)).toContain('413');
    }
  });

  it('types POST /verify as one of three bodies, and gives timestamps and amounts their formats', () => {
    const body = doc.paths['/verify'].post.requestBody.content['application/json'].schema;
    expect(body.oneOf.map((v: Json) => [v.title, v.required])).toEqual([
      ['ManagedTotp', ['user_id', 'totp_code']],
      ['ManagedBackup', ['user_id', 'backup_code']],
      ['Stateless', ['secret', 'token']],
    ]);
    for (const variant of body.oneOf) expect(variant.additionalProperties).toBe(false);
    const ok = doc.paths['/verify'].post.responses['200'].content['application/json'].schema;
    expect(ok.properties.timestamp.format).toBe('date-time');
    expect(ok.properties.cost.pattern).toBe('^\\d+\\.\\d{2}$');
    expect(ok.properties.balance.pattern).toBe('^\\d+\\.\\d{2}$');
    const user = doc.paths['/users/{user_id}'].get.responses['200'].content['application/json'].schema;
    expect(user.properties.enrolled_at.format).toBe('date-time');
    expect(user.properties).not.toHaveProperty('secret');
  });

  it('describes each webhook event (OpenAPI 3.1 webhooks) with its payload and the three signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS, TEST_EVENT].sort());
    for (const [event, item] of Object.entries(doc.webhooks as Record<string, Json>)) {
      const headers = item.post.parameters.filter((p: Json) => p.in === 'header' && p.required).map((p: Json) => p.name);
      expect(headers).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      const payload = item.post.requestBody.content['application/json'].schema;
      expect(payload.properties.type.enum).toEqual([event]);
      // Test keys' events say false, live keys' true.
      expect(payload.properties.livemode.type).toBe('boolean');
      expect(payload.properties.livemode.enum).toBeUndefined();
      expect(payload.properties.timestamp.format).toBe('date-time');
    }
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
      const [envelope, narrowed] = response.content['application/json'].schema.allOf;
      const schema = resolve(envelope);
      expect(narrowed.properties.error.properties.code.enum.length, `${path} ${status}`).toBeGreaterThan(0);
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
    const fields = Object.assign({}, ...verify.oneOf.map((v: Json) => v.properties));
    expect(Object.keys(fields).sort()).toEqual(['backup_code', 'purpose', 'secret', 'token', 'totp_code', 'user_id', 'window']);
    expect(fields.window).toMatchObject({ type: 'integer', minimum: 0, maximum: 10 });

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

describeEachDialect('the OpenAPI contract check every test app runs (test/support/openapi-contract.ts)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('passes documented answers, and fails an undocumented status, a body off its schema or an undeclared header by name', async () => {
    const owner = await createBusiness(t.app, 'Contract Check Ltd');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(owner.apiKey) })).statusCode).toBe(200);
    const doc = t.app.swagger() as Json;
    const profile = doc.paths['/profile'].get;

    const ok = profile.responses['200'];
    delete profile.responses['200'];
    await expect(t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(owner.apiKey) })).rejects.toThrow(
      'OpenAPI contract: get /profile answered 200, a status the document does not list',
    );
    profile.responses['200'] = ok;

    const test = doc.paths['/test'].post.responses['200'].content['application/json'];
    const schema = test.schema;
    test.schema = { ...schema, required: [...schema.required, 'sandbox'] };
    await expect(t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(owner.apiKey) })).rejects.toThrow(
      /post \/test answered 200 with a body that does not match its schema: .*sandbox/,
    );
    test.schema = schema;

    const unauthorized = doc.paths['/test'].post.responses['401'];
    const headers = unauthorized.headers;
    unauthorized.headers = { 'X-Request-Id': headers['X-Request-Id'] };
    await expect(t.app.inject({ method: 'POST', url: '/api/v1/test' })).rejects.toThrow('post /test answered 401 with header www-authenticate, not declared');
    unauthorized.headers = headers;
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/test' })).statusCode).toBe(401);
  });
});
