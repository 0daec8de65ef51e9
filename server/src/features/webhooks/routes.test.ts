import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { ORIGIN, hookBusiness, logsOf, type HookBusiness } from '../../../../test/support/webhooks';
import { MAX_WEBHOOKS_PER_BUSINESS } from './service';

const VALIDATION = 'Validation Error: Please provide a URL and select at least one event.';
/** TEST-NET-3 (RFC 5737): a public-range literal that needs no DNS (there is none here). */
// A public address (documentation ranges such as 203.0.113.0/24 are refused as special-purpose).
const PUBLIC_URL = 'https://9.9.9.9/hooks';

/**
 * Management API (SPEC §2, §3, §5, §8) with private targets refused, as in production:
 * WEBHOOK_ALLOW_PRIVATE is off in this suite.
 */
describeEachDialect('webhook management routes', (dialect) => {
  let t: TestApp;
  let owner: HookBusiness;
  let other: HookBusiness;
  let ip = 0;

  /** Each call from its own address, so the 30-per-minute create limit never interferes. */
  const call = (opts: InjectOptions & { cookie?: string }) => {
    ip += 1;
    const { cookie, headers, ...rest } = opts;
    return t.app.inject({
      ...rest,
      remoteAddress: `10.9.${ip >> 8}.${ip & 255}`,
      headers: { ...(cookie ? { cookie } : {}), ...(rest.method !== 'GET' ? ORIGIN : {}), ...headers },
    } as InjectOptions);
  };
  const create = (cookie: string, payload: Record<string, unknown>) => call({ method: 'POST', url: '/api/webhooks', cookie, payload });
  const list = async (cookie: string) => (await call({ method: 'GET', url: '/api/webhooks', cookie })).json();

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'false' });
    owner = await hookBusiness(t.app, t.ctx, 0, `mgmt-${dialect}`);
    other = await hookBusiness(t.app, t.ctx, 0, `other-${dialect}`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses every route when signed out (401)', async () => {
    for (const [method, url] of [
      ['GET', '/api/webhooks'],
      ['GET', '/api/webhooks/logs'],
      ['POST', '/api/webhooks'],
      ['DELETE', '/api/webhooks/wh_x'],
      ['PATCH', '/api/webhooks/wh_x/toggle'],
      ['POST', '/api/webhooks/wh_x/test'],
    ] as const) {
      const res = await call({ method, url, payload: method === 'GET' || method === 'DELETE' ? undefined : { url: PUBLIC_URL, events: ['credit.low'], isActive: true } });
      expect({ method, url, status: res.statusCode, code: res.json().error?.code }).toEqual({ method, url, status: 401, code: 'unauthorized' });
    }
  });

  it('needs a business account (404 with a message)', async () => {
    const cookie = await signIn(t.app, `nobiz-${dialect}@example.com`);
    for (const res of [await call({ method: 'GET', url: '/api/webhooks', cookie }), await create(cookie, { url: PUBLIC_URL, events: ['credit.low'] })]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('You have no business account yet.');
    }
  });

  it('creates a webhook, returns a generated whsec_ secret once, and never lists it again', async () => {
    const res = await create(owner.cookie, { url: `  ${PUBLIC_URL}  `, events: ['verification.success', 'credit.low', 'credit.low'] });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.stringMatching(/^wh_/),
      url: PUBLIC_URL,
      events: ['verification.success', 'credit.low'],
      description: null,
      isActive: true,
      disabledReason: null,
      disabledAt: null,
      createdAt: expect.any(String),
      lastTriggered: null,
      livemode: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
    });
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    const listed = await call({ method: 'GET', url: '/api/webhooks', cookie: owner.cookie });
    expect(listed.statusCode).toBe(200);
    const mine = listed.json().find((w: { id: string }) => w.id === created.id);
    expect(mine).toBeDefined();
    expect(mine).not.toHaveProperty('secret');
    expect(listed.body).not.toContain(created.secret);
    expect(listed.body).not.toContain(created.secret.slice('whsec_'.length));
    // Stored encrypted, not in the clear.
    const row = await t.ctx.db.selectFrom('webhook').select('secret_enc').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(created.secret.slice('whsec_'.length));

    // Two creates, two different generated secrets.
    const second = (await create(owner.cookie, { url: PUBLIC_URL, events: ['credit.low'] })).json();
    expect(second.secret).not.toBe(created.secret);
  });

  it("keeps the owner's description, trimmed, and lists it; a blank one is no description", async () => {
    const res = await create(owner.cookie, { url: PUBLIC_URL, events: ['credit.low'], description: '  Production login  ' });
    expect(res.statusCode).toBe(201);
    expect(res.json().description).toBe('Production login');
    const listed = (await call({ method: 'GET', url: '/api/webhooks', cookie: owner.cookie })).json();
    expect(listed.find((w: { id: string }) => w.id === res.json().id).description).toBe('Production login');
    const blank = await create(owner.cookie, { url: PUBLIC_URL, events: ['credit.low'], description: '   ' });
    expect(blank.json().description).toBeNull();
    const tooLong = await create(owner.cookie, { url: PUBLIC_URL, events: ['credit.low'], description: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('validation_failed');
  });

  it('keeps a valid secret the business brings', async () => {
    const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const res = await create(owner.cookie, { url: PUBLIC_URL, events: ['verification.failed'], secret });
    expect(res.statusCode).toBe(201);
    expect(res.json().secret).toBe(secret);
  });

  describe('validation (400)', () => {
    it.each([
      ['an empty URL', { url: '', events: ['credit.low'] }],
      ['a blank URL', { url: '   ', events: ['credit.low'] }],
      ['no events', { url: PUBLIC_URL, events: [] }],
      ['neither', { url: '', events: [] }],
      ['a missing URL field', { events: ['credit.low'] }],
      ['a missing events field', { url: PUBLIC_URL }],
      ['an empty body', {}],
    ])('answers the SPEC message for %s', async (_name, payload) => {
      const res = await create(owner.cookie, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message: VALIDATION });
    });

    it('refuses an unknown event and names it', async () => {
      const res = await create(owner.cookie, { url: PUBLIC_URL, events: ['credit.low', 'user.deleted'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/Unknown event\(s\): user\.deleted/);
      // test.ping is sent on request, not subscribed to.
      expect((await create(owner.cookie, { url: PUBLIC_URL, events: ['test.ping'] })).statusCode).toBe(400);
    });

    it.each([
      ['no prefix', 'supersecretvalue-supersecretvalue'],
      ['prefix only', 'whsec_'],
      ['too short (8 bytes)', `whsec_${Buffer.alloc(8, 1).toString('base64')}`],
      ['not base64', 'whsec_!!!!notbase64!!!!notbase64!!!!'],
      ['too long (80 bytes)', `whsec_${Buffer.alloc(80, 1).toString('base64')}`],
    ])('refuses a secret with %s', async (_name, secret) => {
      const res = await create(owner.cookie, { url: PUBLIC_URL, events: ['credit.low'], secret });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/whsec_/);
    });

    it.each([
      ['not a URL', 'not a url'],
      ['another scheme', 'ftp://9.9.9.9/hooks'],
      ['a javascript: URL', 'javascript:alert(1)'],
      ['credentials in the URL', 'https://user:pass@9.9.9.9/hooks'],
    ])('refuses %s', async (_name, url) => {
      const res = await create(owner.cookie, { url, events: ['credit.low'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    });

    it.each([
      'http://127.0.0.1:8080/hooks',
      'http://127.1/hooks',
      'http://0x7f000001/hooks',
      'http://2130706433/hooks',
      'http://localhost/hooks',
      'http://LOCALHOST:3000/hooks',
      'http://hooks.localhost/hooks',
      'http://a.b.localhost./hooks',
      'http://10.0.0.5/hooks',
      'http://172.16.3.4/hooks',
      'http://192.168.1.1/hooks',
      'http://100.64.0.1/hooks',
      'http://169.254.169.254/latest/meta-data/',
      'http://0.0.0.0/hooks',
      'http://[::1]/hooks',
      'http://[::]/hooks',
      'http://[::ffff:127.0.0.1]/hooks',
      'http://[::ffff:169.254.169.254]/hooks',
      // IPv4-translated (RFC 2765/6052), NAT64 and 6to4 forms of loopback and the metadata address
      'http://[::ffff:0:7f00:1]/hooks',
      'http://[::ffff:0:169.254.169.254]/hooks',
      'http://[0000:0000:0000:0000:ffff:0000:7f00:0001]/hooks',
      'http://[64:ff9b::a9fe:a9fe]/hooks',
      'http://[2002:a9fe:a9fe::1]/hooks',
      'http://[fe80::1]/hooks',
      'http://[fd00::1]/hooks',
      'http://printer.local/hooks',
      'http://metadata.google.internal/computeMetadata/v1/',
    ])('refuses the private or local target %s', async (url) => {
      const res = await create(owner.cookie, { url, events: ['credit.low'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/private or local address/);
    });

    it('refuses a host that does not resolve', async () => {
      const res = await create(owner.cookie, { url: 'https://no-such-host.invalid/hooks', events: ['credit.low'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/does not resolve/);
    });

    it('refuses a foreign Origin (403) and creates nothing', async () => {
      const before = (await list(owner.cookie)).length;
      const res = await call({ method: 'POST', url: '/api/webhooks', cookie: owner.cookie, headers: { origin: 'https://evil.example' }, payload: { url: PUBLIC_URL, events: ['credit.low'] } });
      expect(res.statusCode).toBe(403);
      expect((await list(owner.cookie)).length).toBe(before);
    });
  });

  it('toggles a webhook off and on', async () => {
    const { id } = (await create(owner.cookie, { url: PUBLIC_URL, events: ['credit.low'] })).json();
    const off = await call({ method: 'PATCH', url: `/api/webhooks/${id}/toggle`, cookie: owner.cookie, payload: { isActive: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id, isActive: false });
    expect((await list(owner.cookie)).find((w: { id: string }) => w.id === id).isActive).toBe(false);
    const on = await call({ method: 'PATCH', url: `/api/webhooks/${id}/toggle`, cookie: owner.cookie, payload: { isActive: true } });
    expect(on.json()).toMatchObject({ id, isActive: true, disabledReason: null });
    expect((await call({ method: 'PATCH', url: `/api/webhooks/${id}/toggle`, cookie: owner.cookie, payload: { isActive: 'yes' } })).statusCode).toBe(400);
    expect((await call({ method: 'PATCH', url: `/api/webhooks/${id}/toggle`, cookie: owner.cookie, payload: {} })).statusCode).toBe(400);
  });

  it('deletes a webhook (204), then it is gone (404 on a second delete)', async () => {
    const { id } = (await create(owner.cookie, { url: PUBLIC_URL, events: ['credit.low'] })).json();
    const res = await call({ method: 'DELETE', url: `/api/webhooks/${id}`, cookie: owner.cookie });
    expect(res.statusCode).toBe(204);
    expect((await list(owner.cookie)).some((w: { id: string }) => w.id === id)).toBe(false);
    expect((await call({ method: 'DELETE', url: `/api/webhooks/${id}`, cookie: owner.cookie })).statusCode).toBe(404);
  });

  it("answers 404 for another business's webhook on delete, toggle and test, and leaves it alone", async () => {
    const { id } = (await create(other.cookie, { url: PUBLIC_URL, events: ['credit.low'] })).json();
    for (const [method, url, payload] of [
      ['DELETE', `/api/webhooks/${id}`, undefined],
      ['PATCH', `/api/webhooks/${id}/toggle`, { isActive: false }],
      ['POST', `/api/webhooks/${id}/test`, undefined],
    ] as const) {
      const res = await call({ method, url, cookie: owner.cookie, payload });
      expect({ url, status: res.statusCode, message: res.json().error.message }).toEqual({ url, status: 404, message: `No webhook endpoint "${id}".` });
    }
    expect((await list(other.cookie)).find((w: { id: string }) => w.id === id)).toMatchObject({ isActive: true });
    expect((await list(owner.cookie)).some((w: { id: string }) => w.id === id)).toBe(false);
    expect((await logsOf(t.app, other.cookie)).length).toBe(0);
    // An id that exists nowhere: the same answer.
    expect((await call({ method: 'DELETE', url: '/api/webhooks/wh_nope', cookie: owner.cookie })).statusCode).toBe(404);
  });

  it('queues a test event (202) that shows as Pending in the log, only for an active webhook', async () => {
    const { id } = (await create(owner.cookie, { url: PUBLIC_URL, events: ['credit.low'] })).json();
    const res = await call({ method: 'POST', url: `/api/webhooks/${id}/test`, cookie: owner.cookie });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ queued: true });
    const logs = await logsOf(t.app, owner.cookie, id);
    expect(logs).toEqual([
      expect.objectContaining({ event: 'test.ping', webhookUrl: PUBLIC_URL, responseStatus: null, retryCount: 0, attemptNumber: 0, deliveryStatus: 'pending', verificationId: null }),
    ]);
    // Another business sees none of it.
    expect((await logsOf(t.app, other.cookie)).some((l) => l.webhookId === id)).toBe(false);

    await call({ method: 'PATCH', url: `/api/webhooks/${id}/toggle`, cookie: owner.cookie, payload: { isActive: false } });
    const refused = await call({ method: 'POST', url: `/api/webhooks/${id}/test`, cookie: owner.cookie });
    expect(refused.statusCode).toBe(409);
  });

  it(`allows at most ${MAX_WEBHOOKS_PER_BUSINESS} webhooks per business`, async () => {
    const biz = await hookBusiness(t.app, t.ctx, 0, `max-${dialect}`);
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOKS_PER_BUSINESS; i++) {
      const res = await create(biz.cookie, { url: `${PUBLIC_URL}/${i}`, events: ['credit.low'] });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    const over = await create(biz.cookie, { url: PUBLIC_URL, events: ['credit.low'] });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toBe('A business can have at most 10 webhook endpoints. Delete one first.');
    expect((await list(biz.cookie)).length).toBe(MAX_WEBHOOKS_PER_BUSINESS);
    // The limit is per business: another one is unaffected.
    expect((await create(other.cookie, { url: PUBLIC_URL, events: ['credit.low'] })).statusCode).toBe(201);
    // Deleting one makes room again.
    await call({ method: 'DELETE', url: `/api/webhooks/${ids[0]}`, cookie: biz.cookie });
    expect((await create(biz.cookie, { url: PUBLIC_URL, events: ['credit.low'] })).statusCode).toBe(201);
  });

  it('limits creates to 30 a minute from one address (429)', async () => {
    const biz = await hookBusiness(t.app, t.ctx, 0, `rate-${dialect}`);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/webhooks', remoteAddress: '10.99.0.1', headers: { cookie: biz.cookie, ...ORIGIN }, payload: { url: '', events: [] } });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
