import { generateCode } from '@common/otpauth';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, testConfig, type TestDatabase } from '../../../../test/support/db';
import { call, createBusiness, signIn, submitPayment } from '../../../../test/support/payments';
import { bearer, fund, totpCode, unique, wrongCode } from '../../../../test/support/verify-api';
import { startReceiver, type Receiver } from '../../../../test/support/webhooks';
import { buildApp } from '../../app';
import { createContext, migrateToLatest, type AppContext } from '../../context';
import type { Dialect } from '../../db/types';
import { createSender } from '../webhooks/sender';
import { WebhookWorker } from '../webhooks/worker';

const TOKEN = 'metrics-token-0123456789abcdef';
const SAME_SITE = { 'sec-fetch-site': 'same-origin' };

interface Harness {
  app: FastifyInstance;
  ctx: AppContext;
  database: TestDatabase;
  logs: string[];
  close(): Promise<void>;
}

/** An app over a fresh database whose logger (as configured for production, at trace level) writes into `logs`. */
async function harness(dialect: Dialect, env: Record<string, string | undefined>, database?: TestDatabase): Promise<Harness> {
  const db = database ?? (await createTestDatabase(dialect));
  const ctx = createContext({ ...testConfig({ WEBHOOK_ALLOW_PRIVATE: 'true', ...env }), database: db.config }, db.open());
  await migrateToLatest(ctx);
  const logs: string[] = [];
  const app = await buildApp(ctx, { logStream: { write: (line: string) => void logs.push(line) } });
  return {
    app,
    ctx,
    database: db,
    logs,
    close: async () => {
      await app.close();
      if (!database) await db.drop();
    },
  };
}

const scrape = (app: FastifyInstance, authorization?: string) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one sample line (`name{labels} value`), or undefined when the line is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is off: 404 in the error envelope, not the web app', async () => {
    const h = await harness('sqlite', { LOG_LEVEL: 'silent' });
    try {
      const res = await scrape(h.app, `Bearer ${TOKEN}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    } finally {
      await h.close();
    }
  });
});

describeEachDialect('GET /metrics', (dialect) => {
  let h: Harness;
  let receiver: Receiver;

  beforeAll(async () => {
    h = await harness(dialect, { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'silent' });
    receiver = await startReceiver(() => 204);
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it('refuses a missing, wrong or partial token with 401 and a Bearer challenge', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-wrong-token', `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await scrape(h.app, authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  it('counts verifications by status with their latency, HTTP answers by route pattern, webhook outcomes, the outbox and pending payments', async () => {
    const biz = await createBusiness(h.app, 'Metrics Co');
    await fund(h.ctx, biz.businessId, 10_000);
    const hook = await call(h.app, 'POST', '/api/webhooks', biz.cookie, { url: receiver.url, events: ['verification.success'] }, SAME_SITE);
    expect(hook.statusCode).toBe(201);
    const userId = unique('metrics-user');
    const enrolled = await h.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(biz.apiKey), payload: { user_id: userId } });
    expect(enrolled.statusCode).toBe(201);
    const { secret } = enrolled.json();
    const verify = (code: string) => h.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: userId, totp_code: code } });
    expect((await verify(wrongCode(secret))).json().status).toBe('invalid_code');
    const code = totpCode(secret); // one value for both: a 30-s boundary between them would change it
    expect((await verify(code)).json().status).toBe('verified');
    expect((await verify(code)).json().status).toBe('replayed');
    expect((await h.app.inject({ method: 'DELETE', url: `/api/v1/users/${encodeURIComponent('no-such-user-42')}`, headers: bearer(biz.apiKey) })).statusCode).toBe(404);
    await submitPayment(h.app, biz.cookie);

    // The verified check queued one delivery, due now and not yet delivered.
    const before = (await scrape(h.app, `Bearer ${TOKEN}`)).body;
    expect(sample(before, 'sixdigit_webhook_outbox_depth')).toBe(1);
    expect(sample(before, 'sixdigit_webhook_outbox_oldest_due_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(before, 'sixdigit_payment_requests_pending')).toBe(1);

    expect(await new WebhookWorker(h.ctx, { sender: createSender({ timeoutMs: 2_000, allowPrivate: true }) }).runOnce()).toBe(1);
    const res = await scrape(h.app, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    for (const status of ['invalid_code', 'verified', 'replayed']) {
      expect(sample(text, `sixdigit_verifications_total{status="${status}"}`), status).toBe(1);
      expect(sample(text, `sixdigit_verify_duration_seconds_count{status="${status}"}`), status).toBe(1);
    }
    expect(sample(text, 'sixdigit_verify_duration_seconds_bucket{le="+Inf",status="verified"}')).toBe(1);
    expect(sample(text, 'sixdigit_http_requests_total{method="POST",route="/api/v1/verify",status_code="200"}')).toBe(3);
    // The pattern, never the raw URL with the user id in it.
    expect(sample(text, 'sixdigit_http_requests_total{method="DELETE",route="/api/v1/users/:user_id",status_code="404"}')).toBe(1);
    expect(text).not.toContain('no-such-user-42');
    expect(sample(text, 'sixdigit_webhook_deliveries_total{outcome="succeeded"}')).toBe(1);
    expect(sample(text, 'sixdigit_webhook_outbox_depth')).toBe(0);
    expect(sample(text, 'sixdigit_webhook_outbox_oldest_due_age_seconds')).toBe(0);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('keeps one registry per app: a second app on the same database starts from zero', async () => {
    const other = await harness(dialect, { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'silent' }, h.database);
    try {
      const text = (await scrape(other.app, `Bearer ${TOKEN}`)).body;
      expect(text).not.toContain('sixdigit_verifications_total{');
      // Figures read from the shared database are the same on both.
      expect(sample(text, 'sixdigit_payment_requests_pending')).toBe(1);
      expect(sample((await scrape(h.app, `Bearer ${TOKEN}`)).body, 'sixdigit_verifications_total{status="verified"}')).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describeEachDialect('no secret reaches the logs or the metrics', (dialect) => {
  let h: Harness;
  let receiver: Receiver;

  beforeAll(async () => {
    h = await harness(dialect, { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'trace' });
    receiver = await startReceiver(() => 204);
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it('API keys, TOTP secrets, codes, backup codes, webhook secrets and session tokens stay out of both', async () => {
    const email = `${unique('leak')}@example.com`;
    const signInCookie = await signIn(h.app, email, 'Leak Tester');
    const secrets: string[] = [];
    for (const pair of signInCookie.split('; ')) {
      const value = decodeURIComponent(pair.slice(pair.indexOf('=') + 1));
      secrets.push(value, value.split('.')[0]!);
    }
    const created = await call(h.app, 'POST', '/api/business/create', signInCookie, { companyName: 'Leak Test Ltd' }, SAME_SITE);
    expect(created.statusCode).toBe(201);
    const apiKey = created.json().apiKey as string;
    await fund(h.ctx, created.json().id, 10_000);
    secrets.push(apiKey);

    const hook = await call(h.app, 'POST', '/api/webhooks', signInCookie, { url: receiver.url, events: ['verification.success', 'verification.failed'] }, SAME_SITE);
    expect(hook.statusCode).toBe(201);
    secrets.push(hook.json().secret);

    const userId = unique('leak-user');
    const enrolled = await h.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(apiKey), payload: { user_id: userId } });
    expect(enrolled.statusCode).toBe(201);
    const { secret, backup_codes: backupCodes } = enrolled.json() as { secret: string; backup_codes: string[] };
    secrets.push(secret, ...backupCodes, ...backupCodes.map((c) => c.replace('-', '')));

    const code = totpCode(secret);
    const wrong = wrongCode(secret);
    secrets.push(code, wrong);
    const verify = (body: object, key = apiKey) => h.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(key), payload: body });
    expect((await verify({ user_id: userId, totp_code: code })).json().status).toBe('verified');
    expect((await verify({ user_id: userId, totp_code: wrong })).json().status).toBe('invalid_code');
    expect((await verify({ user_id: userId, backup_code: backupCodes[0]! })).json().status).toBe('verified');
    expect((await verify({ secret, token: code })).statusCode).toBe(200);
    // Refusals too: a key that does not exist, and a malformed body carrying a code.
    const madeUpKey = `sk_live_${'Z'.repeat(40)}`;
    secrets.push(madeUpKey);
    expect((await verify({ user_id: userId, totp_code: code }, madeUpKey)).statusCode).toBe(401);
    expect((await verify({ user_id: userId, totp_code: code, backup_code: backupCodes[1]! })).statusCode).toBe(400);

    // The account TOTP as a second factor (issue 19): its secret, backup codes and every code typed.
    const setup = await call(h.app, 'POST', '/api/user/setup-totp', signInCookie, undefined, SAME_SITE);
    expect(setup.statusCode).toBe(201);
    const account = setup.json() as { secret: string; backupCodes: string[] };
    secrets.push(account.secret, ...account.backupCodes, ...account.backupCodes.map((c) => c.replace('-', '')));
    const confirmCode = totpCode(account.secret);
    const nextCode = generateCode({ type: 'totp', secret: account.secret, algorithm: 'SHA1', digits: 6, period: 30, counter: null }, Date.now() + 30_000);
    const wrongSecond = wrongCode(account.secret);
    secrets.push(confirmCode, nextCode, wrongSecond);
    expect((await call(h.app, 'POST', '/api/user/confirm-totp', signInCookie, { code: confirmCode }, SAME_SITE)).statusCode).toBe(200);
    const half = await signIn(h.app, email, 'Leak Tester');
    expect((await call(h.app, 'POST', '/api/auth/second-factor', half, { code: wrongSecond }, SAME_SITE)).statusCode).toBe(400);
    expect((await call(h.app, 'POST', '/api/auth/second-factor', half, { code: nextCode }, SAME_SITE)).statusCode).toBe(204);
    const half2 = await signIn(h.app, email, 'Leak Tester');
    expect((await call(h.app, 'POST', '/api/auth/second-factor', half2, { backupCode: account.backupCodes[0] }, SAME_SITE)).statusCode).toBe(204);
    expect((await call(h.app, 'POST', '/api/user/check-totp', half2, { code: wrongSecond }, SAME_SITE)).json()).toEqual({ matches: false });

    expect(await new WebhookWorker(h.ctx, { sender: createSender({ timeoutMs: 2_000, allowPrivate: true }), logger: h.app.log }).runOnce()).toBeGreaterThan(0);
    const metrics = await scrape(h.app, `Bearer ${TOKEN}`);
    expect(metrics.statusCode).toBe(200);
    secrets.push(TOKEN);

    // Not vacuous: the requests above were logged (with their URLs) and counted.
    const logs = h.logs.join('');
    expect(logs).toContain('/api/v1/verify');
    expect(metrics.body).toContain('sixdigit_verifications_total{status="verified"} 3');

    const everything = `${logs}\n${metrics.body}`;
    for (const s of new Set(secrets.filter((x) => x.length >= 6))) {
      // Codes are digits: match them only where a number could not merely contain them.
      const escaped = s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(new RegExp(`(?<![\\d.])${escaped}(?!\\d)`).test(everything), `"${s}" leaked`).toBe(false);
    }
  });
});
