import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { bearer, createBusiness, expectError, fund, unique, type TestBusiness } from '../../../../test/support/verify-api';
import { ORIGIN, failedCheck, startReceiver, verifySigned, type Receiver } from '../../../../test/support/webhooks';
import { MAX_WEBHOOKS_PER_BUSINESS } from './service';
import { createSender } from './sender';
import { WebhookWorker } from './worker';

type Json = Record<string, any>;

/** A public address literal (no DNS here); documentation ranges are refused as special-purpose. */
const PUBLIC_URL = 'https://9.9.9.9/hooks';
const ENDPOINT_FIELDS = ['created_at', 'description', 'disabled_at', 'disabled_reason', 'events', 'id', 'is_active', 'last_triggered_at', 'livemode', 'url'];

/**
 * Webhook endpoints over the public API (issue 21 item 3), with private targets refused as in
 * production. Every answer here is also checked against the served OpenAPI document (createTestApp).
 */
describeEachDialect('public API v1: webhook endpoints', (dialect) => {
  let t: TestApp;
  let acme: TestBusiness;
  let other: TestBusiness;

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'false', API_RATE_LIMIT_PER_MINUTE: '100000' });
    acme = await createBusiness(t.app, 'Endpoint Acme');
    other = await createBusiness(t.app, 'Endpoint Other');
  });
  afterAll(async () => t?.close());

  const call = (business: TestBusiness | null, method: InjectOptions['method'], url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...(business ? bearer(business.apiKey) : {}), ...headers }, ...(payload === undefined ? {} : { payload }) });
  const create = (business: TestBusiness, payload: object, headers: Record<string, string> = {}) => call(business, 'POST', '/api/v1/webhook_endpoints', payload, headers);
  async function created(business: TestBusiness, payload: Json = {}): Promise<Json> {
    const res = await create(business, { url: PUBLIC_URL, events: ['verification.success'], ...payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function clear(business: TestBusiness) {
    await t.ctx.db.deleteFrom('webhook').where('business_id', '=', business.businessId).execute();
  }
  const details = (res: LightMyRequestResponse) => res.json().error.details as Array<{ path: string; message: string }>;

  describe('POST /webhook_endpoints', () => {
    it.each(['/api/v1', '/v1'])('%s: creates an endpoint and returns its signing secret this once; GET and list never show it', async (prefix) => {
      await clear(acme);
      const res = await call(acme, 'POST', `${prefix}/webhook_endpoints`, {
        url: PUBLIC_URL,
        events: ['verification.failed', 'verification.success', 'verification.failed'],
        description: '  Login service  ',
      });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual([...ENDPOINT_FIELDS, 'secret'].sort());
      expect(body).toMatchObject({
        id: expect.stringMatching(/^wh_/),
        url: PUBLIC_URL,
        events: ['verification.failed', 'verification.success'],
        description: 'Login service',
        is_active: true,
        disabled_reason: null,
        disabled_at: null,
        last_triggered_at: null,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
      });
      expect(Date.parse(body.created_at)).toBeGreaterThan(Date.now() - 60_000);

      const secretPart = body.secret.slice('whsec_'.length);
      const reads = [
        await call(acme, 'GET', `${prefix}/webhook_endpoints/${body.id}`),
        await call(acme, 'GET', `${prefix}/webhook_endpoints`),
        await call(acme, 'PATCH', `${prefix}/webhook_endpoints/${body.id}`, { description: 'renamed' }),
        // The dashboard shows it too, without the secret.
        await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: { cookie: acme.cookie } }),
      ];
      for (const read of reads) {
        expect(read.statusCode, read.body).toBe(200);
        expect(read.body).toContain(body.id);
        expect(read.body).not.toContain(secretPart);
        expect(read.body).not.toMatch(/"secret"/);
      }
      const one = reads[0]!.json();
      expect(Object.keys(one).sort()).toEqual(ENDPOINT_FIELDS);
      expect(reads[3]!.json()).toEqual([expect.objectContaining({ id: body.id, description: 'renamed', isActive: true })]);
    });

    it('with an Idempotency-Key, a retry gets the first answer (same endpoint, same secret) and creates nothing; another body is a conflict', async () => {
      await clear(acme);
      const key = unique('idem');
      const payload = { url: PUBLIC_URL, events: ['credit.low'] };
      const first = await create(acme, payload, { 'idempotency-key': key });
      const retry = await create(acme, payload, { 'idempotency-key': key });
      expect(first.statusCode, first.body).toBe(201);
      expect(retry.statusCode).toBe(201);
      expect(retry.json()).toEqual(first.json());
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expectError(await create(acme, { ...payload, events: ['credit.depleted'] }, { 'idempotency-key': key }), 409, 'conflict');
      const list = (await call(acme, 'GET', '/api/v1/webhook_endpoints')).json();
      expect(list.data.map((e: Json) => e.id)).toEqual([first.json().id]);
    });

    it('POST /test with an Idempotency-Key: a retry gets the first answer and queues no second ping; the key on another endpoint is a conflict', async () => {
      await clear(acme);
      const one = await created(acme);
      const two = await created(acme);
      const key = unique('idem-test');
      const first = await call(acme, 'POST', `/api/v1/webhook_endpoints/${one.id}/test`, undefined, { 'idempotency-key': key });
      const retry = await call(acme, 'POST', `/api/v1/webhook_endpoints/${one.id}/test`, undefined, { 'idempotency-key': key });
      expect(first.statusCode, first.body).toBe(202);
      expect(retry.statusCode).toBe(202);
      expect(retry.json()).toEqual(first.json());
      expect(retry.headers['idempotent-replayed']).toBe('true');
      const deliveries = (await call(acme, 'GET', `/api/v1/webhook_endpoints/${one.id}/deliveries`)).json();
      expect(deliveries.data.map((d: Json) => d.id)).toEqual([first.json().delivery_id]);
      expectError(await call(acme, 'POST', `/api/v1/webhook_endpoints/${two.id}/test`, undefined, { 'idempotency-key': key }), 409, 'conflict');
      // Without a key every call is its own ping.
      await call(acme, 'POST', `/api/v1/webhook_endpoints/${one.id}/test`);
      expect((await call(acme, 'GET', `/api/v1/webhook_endpoints/${one.id}/deliveries`)).json().data).toHaveLength(2);
    });

    it('refuses bad input with 400 validation_failed naming each field in error.details', async () => {
      const cases: Array<[string, object, string]> = [
        ['no url', { events: ['credit.low'] }, 'url'],
        ['an empty events list', { url: PUBLIC_URL, events: [] }, 'events'],
        ['an unknown event', { url: PUBLIC_URL, events: ['user.deleted'] }, 'events.0'],
        ['test.ping (sent on request, never subscribed to)', { url: PUBLIC_URL, events: ['test.ping'] }, 'events.0'],
        ['an unknown field', { url: PUBLIC_URL, events: ['credit.low'], secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAA' }, ''],
        ['a description too long', { url: PUBLIC_URL, events: ['credit.low'], description: 'x'.repeat(501) }, 'description'],
        ['not a URL', { url: 'not a url', events: ['credit.low'] }, 'url'],
        ['another scheme', { url: 'ftp://9.9.9.9/hooks', events: ['credit.low'] }, 'url'],
      ];
      for (const [name, payload, path] of cases) {
        const res = await create(acme, payload);
        expect({ name, status: res.statusCode, code: res.json().error?.code }).toEqual({ name, status: 400, code: 'validation_failed' });
        expectError(res, 400, 'validation_failed');
        expect(details(res).map((d) => d.path), name).toContain(path);
      }
      // NUL is refused before any route's schema, for every text field of the API alike.
      const nul = await create(acme, { url: 'https://9.9.9.9/\u0000', events: ['credit.low'] });
      expectError(nul, 400, 'validation_failed');
      expect(nul.json().error.message).toContain('url');
      const invalidJson = await t.app.inject({ method: 'POST', url: '/api/v1/webhook_endpoints', headers: { ...bearer(acme.apiKey), 'content-type': 'application/json' }, payload: '{"url":' });
      expectError(invalidJson, 400, 'invalid_json');
    });

    it('refuses private, loopback, link-local and metadata addresses (the address guard): 400 with the url in details, nothing saved', async () => {
      await clear(acme);
      for (const url of [
        'http://127.0.0.1/hooks',
        'http://10.0.0.5/hooks',
        'http://192.168.1.1/hooks',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/hooks',
        'http://[::ffff:127.0.0.1]/hooks',
        'http://0.0.0.0/hooks',
        'http://localhost:8080/hooks',
      ]) {
        const res = await create(acme, { url, events: ['credit.low'] });
        expectError(res, 400, 'validation_failed');
        expect(details(res), url).toEqual([{ path: 'url', message: expect.stringMatching(/private or local address|does not resolve/) }]);
      }
      expect((await call(acme, 'GET', '/api/v1/webhook_endpoints')).json().data).toEqual([]);
    });

    it(`stops at ${MAX_WEBHOOKS_PER_BUSINESS} endpoints per business, counting the dashboard's (409 conflict)`, async () => {
      await clear(acme);
      const dashboard = await t.app.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie: acme.cookie, ...ORIGIN }, payload: { url: PUBLIC_URL, events: ['credit.low'] } });
      expect(dashboard.statusCode).toBe(201);
      for (let i = 1; i < MAX_WEBHOOKS_PER_BUSINESS; i++) await created(acme);
      const over = await create(acme, { url: PUBLIC_URL, events: ['credit.low'] });
      expectError(over, 409, 'conflict');
      expect(over.json().error.message).toContain(String(MAX_WEBHOOKS_PER_BUSINESS));
      await clear(acme);
      // Concurrent creates cannot overshoot it: each counts under a per-business lock.
      const burst = await Promise.all(Array.from({ length: MAX_WEBHOOKS_PER_BUSINESS + 5 }, () => create(acme, { url: PUBLIC_URL, events: ['credit.low'] })));
      expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(MAX_WEBHOOKS_PER_BUSINESS);
      expect(burst.filter((r) => r.statusCode === 409)).toHaveLength(5);
      expect((await call(acme, 'GET', '/api/v1/webhook_endpoints?limit=100')).json().data).toHaveLength(MAX_WEBHOOKS_PER_BUSINESS);
      // Another business is not affected by this one's count.
      await clear(other);
      expect((await create(other, { url: PUBLIC_URL, events: ['credit.low'] })).statusCode).toBe(201);
      await clear(acme);
    });
  });

  describe('GET /webhook_endpoints', () => {
    it('pages newest first with limit and starting_after, across pages, without repeats or gaps', async () => {
      await clear(acme);
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await created(acme, { description: `n${i}` })).id);
      const all = (await call(acme, 'GET', '/api/v1/webhook_endpoints?limit=100')).json();
      expect(all.has_more).toBe(false);
      expect(all.data.map((e: Json) => e.id).sort()).toEqual([...ids].sort());
      const times = all.data.map((e: Json) => Date.parse(e.created_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));

      const pages: Json[][] = [];
      let after: string | undefined;
      for (;;) {
        const res = await call(acme, 'GET', `/api/v1/webhook_endpoints?limit=3${after ? `&starting_after=${after}` : ''}`);
        expect(res.statusCode, res.body).toBe(200);
        pages.push(res.json().data);
        if (!res.json().has_more) break;
        after = res.json().data.at(-1).id;
        expect(pages.length).toBeLessThan(5);
      }
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(pages.flat().map((e) => e.id)).toEqual(all.data.map((e: Json) => e.id));
      // Default page size is 20: all seven.
      expect((await call(acme, 'GET', '/api/v1/webhook_endpoints')).json().data).toHaveLength(7);
      // Another business sees none of them.
      expect((await call(other, 'GET', '/api/v1/webhook_endpoints?limit=100')).json().data.map((e: Json) => e.id)).not.toContain(ids[0]);
    });

    it('refuses a limit outside 1–100, an unknown parameter and a cursor that is not one of yours', async () => {
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'colour=red']) {
        expectError(await call(acme, 'GET', `/api/v1/webhook_endpoints?${query}`), 400, 'validation_failed');
      }
      expectError(await call(acme, 'GET', '/api/v1/webhook_endpoints?starting_after=wh_missing'), 404, 'not_found');
      const theirs = await created(other);
      expectError(await call(acme, 'GET', `/api/v1/webhook_endpoints?starting_after=${theirs.id}`), 404, 'not_found');
    });
  });

  describe('GET, PATCH, DELETE /webhook_endpoints/{id}', () => {
    it('looks up, changes and removes an endpoint', async () => {
      await clear(acme);
      const endpoint = await created(acme, { description: 'first' });
      const { secret: _secret, ...view } = endpoint;
      expect((await call(acme, 'GET', `/api/v1/webhook_endpoints/${endpoint.id}`)).json()).toEqual(view);

      const changed = await call(acme, 'PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, {
        url: 'https://8.8.8.8/new',
        events: ['credit.low', 'credit.depleted'],
        description: null,
        is_active: false,
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toEqual({ ...view, url: 'https://8.8.8.8/new', events: ['credit.low', 'credit.depleted'], description: null, is_active: false });
      // An empty PATCH changes nothing and answers the endpoint.
      expect((await call(acme, 'PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, {})).json()).toEqual(changed.json());
      const resumed = await call(acme, 'PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, { is_active: true });
      expect(resumed.json()).toMatchObject({ is_active: true, disabled_reason: null });

      // Changes go through the same checks as creation, and a refused change leaves it as it was.
      for (const [payload, path] of [
        [{ url: 'http://127.0.0.1/x' }, 'url'],
        [{ events: [] }, 'events'],
        [{ events: ['nope'] }, 'events.0'],
        [{ is_active: 'yes' }, 'is_active'],
        [{ secret: 'whsec_x' }, ''],
      ] as const) {
        const res = await call(acme, 'PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, payload);
        expectError(res, 400, 'validation_failed');
        expect(details(res).map((d) => d.path)).toContain(path);
      }
      expect((await call(acme, 'GET', `/api/v1/webhook_endpoints/${endpoint.id}`)).json()).toEqual(resumed.json());

      const deleted = await call(acme, 'DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expectError(await call(acme, 'GET', `/api/v1/webhook_endpoints/${endpoint.id}`), 404, 'not_found');
      expectError(await call(acme, 'DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`), 404, 'not_found');
    });

    it("answers another business's endpoint exactly like a missing one (404), on every route, and leaves it alone", async () => {
      const theirs = await created(other, { description: 'theirs' });
      const routes: Array<[InjectOptions['method'], string, object | undefined]> = [
        ['GET', '', undefined],
        ['PATCH', '', { is_active: false }],
        ['DELETE', '', undefined],
        ['POST', '/test', undefined],
        ['GET', '/deliveries', undefined],
      ];
      for (const [method, tail, payload] of routes) {
        const foreign = await call(acme, method, `/api/v1/webhook_endpoints/${theirs.id}${tail}`, payload);
        const missing = await call(acme, method, `/api/v1/webhook_endpoints/wh_doesnotexist${tail}`, payload);
        expectError(foreign, 404, 'not_found');
        expectError(missing, 404, 'not_found');
        expect(foreign.json().error.message.replace(theirs.id, 'ID')).toBe(missing.json().error.message.replace('wh_doesnotexist', 'ID'));
      }
      const { secret: _s, ...view } = theirs;
      expect((await call(other, 'GET', `/api/v1/webhook_endpoints/${theirs.id}`)).json()).toEqual(view);
      expect(await t.ctx.db.selectFrom('webhook_delivery').select('id').where('webhook_id', '=', theirs.id).execute()).toEqual([]);
    });

    it('refuses a test event to a paused endpoint (409 conflict)', async () => {
      const endpoint = await created(other);
      await call(other, 'PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, { is_active: false });
      expectError(await call(other, 'POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`), 409, 'conflict');
    });
  });

  describe('HTTP', () => {
    it('answers 401 with WWW-Authenticate without a key, on every route', async () => {
      for (const [method, url] of [
        ['GET', '/api/v1/webhook_endpoints'],
        ['POST', '/api/v1/webhook_endpoints'],
        ['GET', '/api/v1/webhook_endpoints/wh_x'],
        ['PATCH', '/api/v1/webhook_endpoints/wh_x'],
        ['DELETE', '/api/v1/webhook_endpoints/wh_x'],
        ['POST', '/api/v1/webhook_endpoints/wh_x/test'],
        ['GET', '/api/v1/webhook_endpoints/wh_x/deliveries'],
        ['GET', '/v1/webhook_endpoints'],
      ] as const) {
        const res = await call(null, method, url, method === 'POST' || method === 'PATCH' ? { url: PUBLIC_URL, events: ['credit.low'] } : undefined);
        expectError(res, 401, 'unauthorized');
        expect(res.headers['www-authenticate'], url).toMatch(/^Bearer /);
      }
      // A session cookie is not an API credential.
      expectError(await t.app.inject({ method: 'GET', url: '/api/v1/webhook_endpoints', headers: { cookie: acme.cookie } }), 401, 'unauthorized');
    });

    it('answers a wrong method with 405 and Allow', async () => {
      for (const [method, url, allow] of [
        ['PUT', '/api/v1/webhook_endpoints', 'GET, HEAD, POST'],
        ['DELETE', '/api/v1/webhook_endpoints', 'GET, HEAD, POST'],
        ['POST', '/api/v1/webhook_endpoints/wh_x', 'DELETE, GET, HEAD, PATCH'],
        ['GET', '/api/v1/webhook_endpoints/wh_x/test', 'POST'],
      ] as const) {
        const res = await call(acme, method, url);
        expect({ url, method, status: res.statusCode, code: res.json().error.code }).toEqual({ url, method, status: 405, code: 'method_not_allowed' });
        expect(res.headers.allow?.toString().split(', ').sort().join(', ')).toBe(allow);
      }
    });
  });
});

/** The test event, end to end: a real HTTP receiver, the real worker and sender, signatures checked by `standardwebhooks`. */
describeEachDialect('public API v1: webhook endpoint test events and delivery log', (dialect) => {
  let t: TestApp;
  let acme: TestBusiness;
  let receiver: Receiver;
  let worker: WebhookWorker;
  let clock = new Date();

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true', API_RATE_LIMIT_PER_MINUTE: '100000' });
    acme = await createBusiness(t.app, 'Ping Acme');
    receiver = await startReceiver((n) => (n === 1 ? 503 : 204));
    worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 2_000, allowPrivate: true }), now: () => clock });
  });

  /** Runs the worker (its clock a minute on each time, past any retry delay) until `n` requests have arrived. */
  async function deliverUntil(n: number) {
    for (let i = 0; i < 10 && receiver.received.length < n; i++) {
      clock = new Date(Math.max(Date.now(), clock.getTime()) + 60_000);
      await worker.runOnce();
    }
    await receiver.waitFor(n);
  }
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await t?.close();
  });

  const call = (method: InjectOptions['method'], url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(acme.apiKey), ...(payload === undefined ? {} : { payload }) });

  it('POST /test queues a signed test.ping through the outbox; the receiver verifies it, retries keep its webhook-id, and the delivery log shows each attempt', async () => {
    const endpoint = (await call('POST', '/api/v1/webhook_endpoints', { url: receiver.url, events: ['verification.failed'] })).json();
    const queued = await call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`);
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json()).toEqual({ queued: true, delivery_id: expect.stringMatching(/^msg_/) });
    const deliveryId = queued.json().delivery_id;

    const pending = (await call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`)).json();
    expect(pending).toEqual({
      data: [{ id: deliveryId, type: 'test.ping', status: 'pending', verification_id: null, attempt_count: 0, next_attempt_at: expect.any(String), created_at: expect.any(String), attempts: [] }],
      has_more: false,
    });

    // The first attempt is answered 503, the retry 204.
    await deliverUntil(2);
    expect(receiver.ids()).toEqual([deliveryId, deliveryId]);
    for (const request of receiver.received) {
      const envelope = verifySigned(endpoint.secret, request);
      expect(envelope).toMatchObject({ type: 'test.ping', event: 'test.ping', data: { webhook_id: endpoint.id, message: expect.any(String) }, verification_id: null });
      expect(request.headers['x-sixdigit-event']).toBe('test.ping');
    }
    expect(() => verifySigned(`whsec_${Buffer.alloc(24, 9).toString('base64')}`, receiver.received[0]!)).toThrow();

    const log = (await call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`)).json();
    expect(log.data).toEqual([
      expect.objectContaining({
        id: deliveryId,
        type: 'test.ping',
        status: 'succeeded',
        attempt_count: 2,
        next_attempt_at: null,
        attempts: [expect.objectContaining({ attempt_number: 1, status_code: 503 }), expect.objectContaining({ attempt_number: 2, status_code: 204, error: null })],
      }),
    ]);
    // The dashboard's log holds the same attempts.
    const dashboard = (await t.app.inject({ method: 'GET', url: '/api/webhooks/logs', headers: { cookie: acme.cookie } })).json() as Json[];
    expect(dashboard.filter((l) => l.deliveryId === deliveryId).map((l) => l.responseStatus).sort()).toEqual([204, 503]);
    expect((await call('GET', `/api/v1/webhook_endpoints/${endpoint.id}`)).json().last_triggered_at).not.toBeNull();
  });

  it('an endpoint created over the API receives the events it subscribes to, and its log pages newest first', async () => {
    await fund(t.ctx, acme.businessId, 1_000);
    await t.ctx.db.deleteFrom('webhook').where('business_id', '=', acme.businessId).execute();
    const endpoint = (await call('POST', '/api/v1/webhook_endpoints', { url: receiver.url, events: ['verification.failed'] })).json();
    const before = receiver.received.length;
    for (let i = 0; i < 3; i++) expect((await failedCheck(t.app, acme.apiKey)).statusCode).toBe(200);
    await call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`);
    await deliverUntil(before + 4);
    const mine = receiver.received.slice(before).map((r) => verifySigned(endpoint.secret, r));
    expect(mine.map((e) => e.type).sort()).toEqual(['test.ping', 'verification.failed', 'verification.failed', 'verification.failed']);

    const pages: Json[][] = [];
    let after: string | undefined;
    for (;;) {
      const res = await call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=3${after ? `&starting_after=${after}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      pages.push(res.json().data);
      if (!res.json().has_more) break;
      after = res.json().data.at(-1).id;
    }
    expect(pages.map((p) => p.length)).toEqual([3, 1]);
    const listed = pages.flat();
    expect(new Set(listed.map((d) => d.id)).size).toBe(4);
    const times = listed.map((d) => Date.parse(d.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(listed.every((d) => d.status === 'succeeded' && d.attempts.length === 1)).toBe(true);
    expect(listed.filter((d) => d.type === 'verification.failed').every((d) => typeof d.verification_id === 'string')).toBe(true);

    const wrongCursor = await call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries?starting_after=msg_missing`);
    expectError(wrongCursor, 404, 'not_found');
  });
});
