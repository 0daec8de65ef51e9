import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Secret } from 'otpauth';
import { afterAll, afterEach, beforeAll, expect, inject, it, vi } from 'vitest';
import { createTestApp, describeEachDialect, testConfig, type TestApp } from '../../../../test/support/db';
import { TEST_REDIS_URL } from '../../../../test/support/services';
import { bearer, createBusiness, expectError, fund, totpCode, wrongCode, type TestBusiness, enrolMany as enrolManyUsers } from '../../../../test/support/verify-api';
import { buildApp } from '../../app';
import { createContext } from '../../context';
import { setSuspended } from '../admin/businesses-service';
import { API_KEY_CACHE_TTL_MS, FAILED_LOOKUPS_PER_MINUTE } from '../business/api-keys';
import { ledgerTotals } from '../credits/repo';

const ADMIN = { userId: null, label: 'test' };

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

describeEachDialect('verify: group commit and the key cache', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const enrolMany = (businessId: string, count: number) => enrolManyUsers(t.ctx, businessId, count);

  it('500 concurrent verifies over 3 businesses with uneven credit: each charged exactly for its 200s, none negative, invariant exact', async () => {
    // [requests, checks the credit pays for]: two run out in the middle of the load.
    const plan = [
      { name: 'Short Ltd', requests: 170, paid: 100 },
      { name: 'Almost Ltd', requests: 170, paid: 150 },
      { name: 'Plenty Ltd', requests: 160, paid: 1_000 },
    ];
    const requests: Array<{ biz: TestBusiness; payload: object }> = [];
    const businesses: TestBusiness[] = [];
    for (const p of plan) {
      const biz = await createBusiness(t.app, p.name);
      businesses.push(biz);
      await t.ctx.db.updateTable('business').set({ rate_limit_per_minute: 10_000 }).where('id', '=', biz.businessId).execute();
      await fund(t.ctx, biz.businessId, p.paid * 10);
      // Managed users, each checked once (valid or wrong), and stateless checks.
      const users = await enrolMany(biz.businessId, Math.floor(p.requests * 0.6));
      users.forEach((u, i) => requests.push({ biz, payload: { user_id: u.userId, totp_code: i % 5 === 0 ? wrongCode(u.secret) : totpCode(u.secret) } }));
      for (let k = users.length; k < p.requests; k++) {
        const secret = new Secret({ size: 20 }).base32;
        requests.push({ biz, payload: { secret, token: k % 2 ? totpCode(secret) : wrongCode(secret) } });
      }
    }
    expect(requests).toHaveLength(500);

    const responses = await Promise.all(
      shuffle(requests).map(async ({ biz, payload }) => ({
        biz,
        res: await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload }),
      })),
    );

    for (const [i, p] of plan.entries()) {
      const biz = businesses[i]!;
      const mine = responses.filter((r) => r.biz === biz).map((r) => r.res);
      const ok = mine.filter((r) => r.statusCode === 200);
      const refused = mine.filter((r) => r.statusCode === 402);
      expect(ok.length + refused.length, p.name).toBe(p.requests);
      expect(ok.length, p.name).toBe(Math.min(p.requests, p.paid));
      for (const r of refused) expect(r.json().error.code).toBe('insufficient_credits');
      // Every balance answered is one the business really passed through, each once.
      const balances = ok.map((r) => Math.round(Number(r.json().balance) * 100)).sort((a, b) => b - a);
      const start = p.paid * 10;
      expect(balances).toEqual(Array.from({ length: ok.length }, (_, k) => start - (k + 1) * 10));
      const totals = await ledgerTotals(t.ctx.db, biz.businessId);
      expect(totals.balancePaise).toBeGreaterThanOrEqual(0);
      expect(totals.spentPaise, p.name).toBe(ok.length * 10);
      expect(totals.balancePaise).toBe(totals.creditedPaise - totals.spentPaise);
      const rows = await t.ctx.db.selectFrom('totp_verification').select((eb) => eb.fn.countAll().as('n')).where('business_id', '=', biz.businessId).executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(ok.length);
    }
  });

  it('the same user twice in one burst: one verified, one replayed, both charged once', async () => {
    const biz = await createBusiness(t.app, 'Twice Ltd');
    await fund(t.ctx, biz.businessId, 100);
    const [user] = await enrolMany(biz.businessId, 1);
    const code = totpCode(user!.secret);
    const answers = await Promise.all(
      [1, 2].map(() => t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: user!.userId, totp_code: code } })),
    );
    expect(answers.map((a) => a.json().status).sort()).toEqual(['replayed', 'verified']);
    expect(await ledgerTotals(t.ctx.db, biz.businessId)).toEqual({ creditedPaise: 100, spentPaise: 20, balancePaise: 80 });
  });

  describe2Instances(() => t, dialect);

  it(`answers 429 to unknown keys after ${FAILED_LOOKUPS_PER_MINUTE} a minute from one address, never to a valid key from there; other addresses are unaffected`, async () => {
    const biz = await createBusiness(t.app, 'Guarded Ltd');
    const guess = () => `sk_live_${randomBytes(24).toString('base64').replace(/[^0-9A-Za-z]/g, '').padEnd(32, 'x').slice(0, 32)}`;
    const from = (remoteAddress: string, key: string) => t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(key), remoteAddress });
    for (let i = 0; i < FAILED_LOOKUPS_PER_MINUTE; i++) expectError(await from('203.0.113.7', guess()), 401, 'unauthorized');
    const limited = await from('203.0.113.7', guess());
    expectError(limited, 429, 'rate_limited');
    expect(limited.json().error.message).toMatch(/invalid API keys/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // A real key from the same address (the same NAT, the same balancer) is served.
    expect((await from('203.0.113.7', biz.apiKey)).statusCode).toBe(200);
    expectError(await from('203.0.113.7', guess()), 429, 'rate_limited');
    expect((await from('203.0.113.8', biz.apiKey)).statusCode).toBe(200);
    expectError(await from('203.0.113.8', guess()), 401, 'unauthorized');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    expectError(await from('203.0.113.7', guess()), 401, 'unauthorized');
  });

  it('the public API sends its fixed header set, not the web pages’ policy', async () => {
    const biz = await createBusiness(t.app, 'Headers Ltd');
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(biz.apiKey) });
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" });
    expect(res.headers['x-request-id']).toBeTruthy();
    // helmet's per-response work is skipped altogether, not overwritten.
    expect(res.headers['origin-agent-cluster']).toBeUndefined();
    expect(res.headers['x-dns-prefetch-control']).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).headers['origin-agent-cluster']).toBeDefined();
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/test' });
    expect(refused.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

/** A second instance over the same database: what its key cache may still believe, and for how long. */
function describe2Instances(getA: () => TestApp, dialect: 'sqlite' | 'postgres') {
  const redisAvailable = inject('redisAvailable');

  async function secondInstance(env: Record<string, string> = {}): Promise<FastifyInstance> {
    const a = getA();
    return buildApp(createContext({ ...testConfig(env), database: a.ctx.config.database }));
  }
  const probe = (app: FastifyInstance, key: string) => app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(key) });

  it(`without Redis, another instance refuses a regenerated key and a suspended business within API_KEY_CACHE_TTL_MS (${API_KEY_CACHE_TTL_MS} ms) (${dialect})`, async () => {
    const a = getA();
    const b = await secondInstance();
    try {
      const biz = await createBusiness(a.app, 'Revoked Elsewhere Ltd');
      const other = await createBusiness(a.app, 'Suspended Elsewhere Ltd');
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      expect((await probe(b, biz.apiKey)).statusCode).toBe(200);
      expect((await probe(b, other.apiKey)).statusCode).toBe(200);

      const regen = await a.app.inject({ method: 'POST', url: '/api/business/api-key/regenerate', headers: { cookie: biz.cookie, 'sec-fetch-site': 'same-origin' } });
      expect(regen.statusCode).toBe(200);
      await setSuspended(a.ctx, other.businessId, { reason: 'chargeback' }, ADMIN);
      // The instance that made the change refuses at once.
      expectError(await probe(a.app, biz.apiKey), 401, 'unauthorized');
      expectError(await probe(a.app, other.apiKey), 403, 'suspended');
      // The other one may still accept inside the bound, never after it.
      vi.setSystemTime(Date.now() + API_KEY_CACHE_TTL_MS + 1);
      expectError(await probe(b, biz.apiKey), 401, 'unauthorized');
      expectError(await probe(b, other.apiKey), 403, 'suspended');
      expect((await probe(b, regen.json().apiKey)).statusCode).toBe(200);
    } finally {
      await b.close();
    }
  });

  it.skipIf(!redisAvailable)(`with Redis, another instance refuses a regenerated key and a suspended business without waiting for the bound (${dialect})`, async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` };
    const a = await buildApp(createContext({ ...testConfig(env), database: getA().ctx.config.database }));
    const b = await secondInstance(env);
    try {
      const biz = await createBusiness(a, 'Revoked Via Redis Ltd');
      const other = await createBusiness(a, 'Suspended Via Redis Ltd');
      // Time stands still: only the published invalidation can empty b's cache.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      expect((await probe(b, biz.apiKey)).statusCode).toBe(200);
      expect((await probe(b, other.apiKey)).statusCode).toBe(200);
      expect((await a.inject({ method: 'POST', url: '/api/business/api-key/regenerate', headers: { cookie: biz.cookie, 'sec-fetch-site': 'same-origin' } })).statusCode).toBe(200);
      await setSuspended(a.ctx, other.businessId, { reason: 'chargeback' }, ADMIN);
      const until = async (key: string, status: number) => {
        for (let i = 0; i < 200 && (await probe(b, key)).statusCode !== status; i++) await new Promise((r) => setTimeout(r, 10));
        return (await probe(b, key)).statusCode;
      };
      expect(await until(biz.apiKey, 401)).toBe(401);
      expect(await until(other.apiKey, 403)).toBe(403);
    } finally {
      await b.close();
      await a.close();
    }
  });
}
