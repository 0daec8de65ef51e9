import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { oathtoolCode } from '../../test/support/admin';
import { createTestDatabase, DIALECTS, testConfig, type TestDatabase } from '../../test/support/db';
import { client, signInOver, startServerProcess, type ServerProcess } from '../../test/support/server-process';
import { TEST_REDIS_URL } from '../../test/support/services';
import { STATELESS_SECRET, wrongCode } from '../../test/support/webhooks';
import { createContext, migrateToLatest, type AppContext } from './context';
import type { Dialect } from './db/types';
import { API_KEY_CACHE_TTL_MS } from './features/business/api-keys';
import { issueEnrolmentCode } from './features/admin/mfa-enrolment';
import { grantCredits } from './features/credits/service';

/**
 * How long an API key revoked on one instance may still be accepted by another: the key cache's
 * stated bound (Redis pub/sub makes it near-instant; a lost message still expires within this).
 */
export const API_KEY_REVOCATION_BOUND_MS = API_KEY_CACHE_TTL_MS;

const ADMIN = 'admin@example.com';
const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * Two real server processes on one database and one Redis, as behind a load balancer without
 * sticky sessions: whatever one instance does, the other sees.
 */
const suite = (dialect: Dialect) => {
  let database: TestDatabase;
  let ctx: AppContext;
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  const running: ServerProcess[] = [];
  let onA: ReturnType<typeof client>;
  let onB: ReturnType<typeof client>;
  let adminCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'sixdigit-scale-'));
    ctx = createContext({ ...testConfig(), database: database.config }, database.open());
    await migrateToLatest(ctx);
    const env = {
      DATABASE_URL: database.config.kind === 'sqlite' ? `sqlite:${database.config.file}` : database.config.url,
      APP_ENCRYPTION_KEY: ENCRYPTION_KEY,
      ADMIN_EMAIL: ADMIN,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: join(dataDir, 'no-web'),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: `scale-${randomBytes(5).toString('hex')}:`,
      UPKEEP_INTERVAL_SECONDS: '0',
    };
    const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
    for (const s of started) if (s.status === 'fulfilled') running.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    [a, b] = running as [ServerProcess, ServerProcess];
    onA = client(a.url);
    onB = client(b.url);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    await ctx?.database.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const newBusiness = async (label: string, via = onA) => {
    const cookie = await signInOver(via === onA ? a.url : b.url, `${label}-${randomBytes(4).toString('hex')}@example.com`);
    const res = await via('POST', '/api/business/create', { cookie, body: { companyName: `${label} Ltd` } });
    expect(res.status, res.text).toBe(201);
    return { cookie, apiKey: res.json.apiKey as unknown as string, businessId: res.json.id as unknown as string };
  };
  const apiTest = (via: ReturnType<typeof client>, apiKey: string) => via('POST', '/api/v1/test', { headers: { authorization: `Bearer ${apiKey}` } });

  it('a session made on one instance works on the other', async () => {
    const email = `roamer-${randomBytes(4).toString('hex')}@example.com`;
    const cookie = await signInOver(a.url, email);
    const me = await onB('GET', '/api/auth/user', { cookie });
    expect(me.status).toBe(200);
    expect(me.text).toContain(email);
    const created = await onB('POST', '/api/business/create', { cookie, body: { companyName: 'Roaming Ltd' } });
    expect(created.status).toBe(201);
    expect((await onA('GET', '/api/business/profile', { cookie })).text).toContain('Roaming Ltd');
  });

  it('admin MFA verified on one instance counts on the other', async () => {
    adminCookie = await signInOver(a.url, ADMIN, 'Ada Admin');
    // The operator's enrolment code (what the CLI prints), issued against the shared database.
    const { code: enrolmentCode } = await issueEnrolmentCode(ctx, 'cli:test');
    const setup = await onA('POST', '/api/admin/mfa/setup', { cookie: adminCookie, body: { enrolmentCode } });
    expect(setup.status, setup.text).toBe(200);
    const confirm = await onB('POST', '/api/admin/mfa/confirm', { cookie: adminCookie, body: { totpCode: oathtoolCode(setup.json.secret as unknown as string) } });
    expect(confirm.status, confirm.text).toBe(200);
    expect((await onA('GET', '/api/admin/dashboard', { cookie: adminCookie })).status).toBe(200);

    // A second sign-in of the admin, on B: refused until verified — verified on A, it works on B.
    const second = await signInOver(b.url, ADMIN, 'Ada Admin');
    const before = await onB('GET', '/api/admin/dashboard', { cookie: second });
    expect([before.status, (before.json.error as { code?: string } | undefined)?.code]).toEqual([403, 'mfa_required']);
    const recoveryCode = (confirm.json.recoveryCodes as unknown as string[])[0]!;
    expect((await onA('POST', '/api/admin/mfa/verify', { cookie: second, body: { recoveryCode } })).status).toBe(200);
    expect((await onB('GET', '/api/admin/dashboard', { cookie: second })).status).toBe(200);
  });

  it('the per-key rate limit is one budget across both instances', async () => {
    expect(adminCookie).toBeDefined();
    const biz = await newBusiness('limited');
    const limit = 5;
    const set = await onB('POST', `/api/admin/businesses/${biz.businessId}/rate-limit`, { cookie: adminCookie, body: { perMinute: limit } });
    expect(set.status, set.text).toBe(200);
    const answers: Array<{ via: string; status: number }> = [];
    for (let i = 0; i < 16; i++) {
      const via = i % 2 === 0 ? 'A' : 'B';
      answers.push({ via, status: (await apiTest(via === 'A' ? onA : onB, biz.apiKey)).status });
    }
    const ok = answers.filter((x) => x.status === 200);
    expect(ok).toHaveLength(limit);
    expect(new Set(ok.map((x) => x.via))).toEqual(new Set(['A', 'B']));
    expect(answers.filter((x) => x.status === 429)).toHaveLength(16 - limit);
  });

  it(`an API key regenerated on one instance is refused by the other within ${API_KEY_REVOCATION_BOUND_MS} ms`, async () => {
    const biz = await newBusiness('rotating');
    expect((await apiTest(onB, biz.apiKey)).status).toBe(200); // B has now seen (and may cache) the old key
    const regen = await onA('POST', '/api/business/api-key/regenerate', { cookie: biz.cookie });
    expect(regen.status, regen.text).toBe(200);
    const fresh = regen.json.apiKey as unknown as string;
    expect(fresh).toMatch(/^sk_live_/);
    const revokedAt = Date.now();
    let status = 0;
    while (Date.now() - revokedAt <= API_KEY_REVOCATION_BOUND_MS) {
      status = (await apiTest(onB, biz.apiKey)).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);
    expect((await apiTest(onA, biz.apiKey)).status).toBe(401);
    expect((await apiTest(onB, fresh)).status).toBe(200);
  });

  it('each webhook delivery is attempted by one worker at a time, retries included', async () => {
    // A receiver that answers slowly, fails every first attempt, and notices any overlap.
    const inFlight = new Map<string, number>();
    const seen = new Map<string, number>();
    let overlaps = 0;
    const server: Server = createServer((req, res) => {
      const id = String(req.headers['webhook-id']);
      inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
      if (inFlight.get(id)! > 1) overlaps += 1;
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      req.resume();
      setTimeout(() => {
        inFlight.set(id, inFlight.get(id)! - 1);
        res.writeHead(n === 1 ? 503 : 204).end();
      }, 150);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const biz = await newBusiness('hooked');
      await grantCredits(ctx.db, { businessIdOrEmail: biz.businessId, amountPaise: 10_000, reason: 'scale-out test' }, { userId: null, label: 'test' });
      const hook = await onA('POST', '/api/webhooks', { cookie: biz.cookie, body: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, events: ['verification.failed'] } });
      expect(hook.status, hook.text).toBe(201);
      const checks = 12;
      const answers = await Promise.all(
        Array.from({ length: checks }, (_, i) =>
          (i % 2 ? onA : onB)('POST', '/api/v1/verify', { headers: { authorization: `Bearer ${biz.apiKey}` }, body: { secret: STATELESS_SECRET, token: wrongCode() } }),
        ),
      );
      expect(answers.map((x) => x.status)).toEqual(Array(checks).fill(200));

      const deadline = Date.now() + 20_000;
      const done = async () =>
        (await ctx.db.selectFrom('webhook_delivery').select('status').where('business_id', '=', biz.businessId).execute()).filter((d) => d.status === 'succeeded').length;
      while ((await done()) < checks && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await done()).toBe(checks);

      expect(overlaps).toBe(0);
      expect(seen.size).toBe(checks);
      expect([...seen.values()]).toEqual(Array(checks).fill(2)); // one failed attempt, one retry: never a third
      const attempts = await ctx.db
        .selectFrom('webhook_attempt')
        .innerJoin('webhook_delivery', 'webhook_delivery.id', 'webhook_attempt.delivery_id')
        .select(['webhook_attempt.attempt_number', 'webhook_attempt.status_code'])
        .where('webhook_delivery.business_id', '=', biz.businessId)
        .execute();
      expect(attempts.map((x) => [x.attempt_number, x.status_code]).sort()).toEqual([...Array(checks).fill([1, 503]), ...Array(checks).fill([2, 204])].sort());
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 40_000);
};

// Redis holds the shared rate-limit counters: without it (outside CI) the suite is left out, like the other Redis suites.
for (const dialect of DIALECTS) {
  describe.skipIf((dialect === 'postgres' && !inject('postgresAvailable')) || !inject('redisAvailable'))(`two instances on one database and one Redis [${dialect}]`, () => suite(dialect));
}
