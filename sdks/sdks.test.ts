import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../test/support/db';
import { TEST_REDIS_URL } from '../test/support/services';
import { createBusiness, fund, paise, totpCode, type TestBusiness } from '../test/support/verify-api';
import { apiBaseUrl, SAMPLE_OPERATIONS, type SampleInput, type SampleOperationId } from '../common/samples';
import { hasSdkSample, renderSdkSample, type SdkLanguage } from '../common/samples/sdk';
import { startReceiver, type Receiver } from '../test/support/webhooks';
import { createSender } from '../server/src/features/webhooks/sender';
import { WebhookWorker } from '../server/src/features/webhooks/worker';
import { GENERATED_FILE, renderTypes } from './typescript/scripts/generate-types.mjs';

/**
 * Both SDKs as a developer gets them — the npm tarball installed into an empty folder, the Python
 * package pip-installed into a fresh venv — driven by a script in their own language (run as a
 * child process) against a real server listening on a real port, on both engines.
 */

const ROOT = resolve(import.meta.dirname, '..');
const SDK_TS = join(ROOT, 'sdks/typescript');
const SDK_PY = join(ROOT, 'sdks/python');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function exec(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, timeout: options.timeout ?? 120_000, maxBuffer: 16 * 1024 * 1024, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...options.env } },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

function ok(run: Run, what: string): Run {
  if (run.code !== 0) throw new Error(`${what} failed (${run.code}):\n${run.stderr.slice(-4000)}\n${run.stdout.slice(-2000)}`);
  return run;
}

let workDir: string;
let nodeDir: string;
let python: string;

/** `npm pack` (which builds dist with tsc) → `npm install <tarball>` in an empty folder. */
async function installNodeSdk(): Promise<void> {
  nodeDir = join(workDir, 'node');
  cpSync(join(ROOT, 'sdks/test/integration.mjs'), join(nodeDir, 'integration.mjs'));
  writeFileSync(join(nodeDir, 'package.json'), JSON.stringify({ name: 'sdk-integration', private: true, type: 'module' }));
  const packed = ok(await exec('npm', ['pack', '--silent', '--pack-destination', workDir], { cwd: SDK_TS }), 'npm pack');
  const tarball = join(workDir, packed.stdout.trim().split('\n').pop()!);
  // Its dependencies (standardwebhooks and what that needs) are packed from the root's
  // node_modules, so the install needs no network and no npm cache: --offline, an empty cache.
  const deps = new Set<string>();
  const walk = (manifest: { dependencies?: Record<string, string> }) => {
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (deps.has(name)) continue;
      deps.add(name);
      walk(JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')));
    }
  };
  walk(JSON.parse(readFileSync(join(SDK_TS, 'package.json'), 'utf8')));
  const depTarballs: string[] = [];
  for (const name of deps) {
    // `./node_modules/x`: a folder (without `./` npm reads `a/b` as a GitHub repository).
    const run = ok(await exec('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', workDir, `./node_modules/${name}`], { cwd: ROOT }), `npm pack ${name}`);
    depTarballs.push(join(workDir, run.stdout.trim().split('\n').pop()!));
  }
  const install = ['install', '--offline', '--cache', join(workDir, 'npm-cache'), '--no-audit', '--no-fund', '--ignore-scripts', tarball, ...depTarballs];
  ok(await exec('npm', install, { cwd: nodeDir }), 'npm install <tarball>');
}

/** A fresh venv and `pip install` of a copy of sdks/python (so the build leaves nothing in the tree). */
async function installPythonSdk(): Promise<void> {
  const source = join(workDir, 'python-src');
  cpSync(SDK_PY, source, { recursive: true, filter: (path) => !/(__pycache__|\.egg-info|[/\\]build)$/.test(path) });
  cpSync(join(ROOT, 'sdks/test/integration.py'), join(workDir, 'integration.py'));
  ok(await exec('python3', ['-m', 'venv', join(workDir, 'venv')]), 'python3 -m venv');
  python = join(workDir, 'venv/bin/python');
  ok(await exec(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', source]), 'pip install ./sdks/python');
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'sixdigit-sdks-'));
  await import('node:fs').then((fs) => fs.mkdirSync(join(workDir, 'node')));
  await Promise.all([installNodeSdk(), installPythonSdk()]);
}, 180_000);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

type Sdk = 'node' | 'python';
const SDKS: Sdk[] = ['node', 'python'];

/** Runs one scenario of the SDK's integration script; returns its JSON output. */
async function scenario(sdk: Sdk, name: string, input: Record<string, unknown>): Promise<any> {
  const env = { SIXDIGIT_INPUT: JSON.stringify(input) };
  const run =
    sdk === 'node'
      ? await exec(process.execPath, ['integration.mjs', name], { cwd: nodeDir, env, timeout: 60_000 })
      : await exec(python, [join(workDir, 'integration.py'), name], { cwd: workDir, env, timeout: 60_000 });
  ok(run, `${sdk} ${name}`);
  return JSON.parse(run.stdout);
}

let sampleCount = 0;

/** Runs one /docs SDK sample as a reader would: a file in a project where the SDK is installed. */
async function runSample(sdk: Sdk, operationId: SampleOperationId, input: SampleInput): Promise<Run> {
  const language: SdkLanguage = sdk === 'node' ? 'node' : 'pythonSdk';
  const source = renderSdkSample(operationId, language, input);
  if (source === undefined) throw new Error(`no ${language} sample for ${operationId}`);
  sampleCount += 1;
  const file = join(sdk === 'node' ? nodeDir : workDir, `sample-${sampleCount}.${sdk === 'node' ? 'mjs' : 'py'}`);
  writeFileSync(file, source);
  return sdk === 'node' ? exec(process.execPath, [file], { cwd: nodeDir, timeout: 30_000 }) : exec(python, [file], { cwd: workDir, timeout: 30_000 });
}

function printed(run: Run): any {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('the /docs SDK samples', () => {
  it('exist for every sample operation (so every endpoint on /docs has Node SDK and Python SDK tabs)', () => {
    expect(Object.keys(SAMPLE_OPERATIONS).filter((id) => !hasSdkSample(id as SampleOperationId))).toEqual([]);
  });
});

describe('the TypeScript SDK package', () => {
  it('installs from its tarball with types, an exports map and only standardwebhooks as a dependency', () => {
    const manifest = JSON.parse(readFileSync(join(nodeDir, 'node_modules/sixdigit/package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'sixdigit', license: 'MIT', type: 'module', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } });
    expect(Object.keys(manifest.dependencies)).toEqual(['standardwebhooks']);
    const files = readdirSync(join(nodeDir, 'node_modules/sixdigit/dist'));
    expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'client.d.ts']));
  });
});

describe('the Python SDK package', () => {
  it('its unit tests (retries, backoff, idempotency, webhook signatures) pass against the pip-installed package', async () => {
    const tests = join(workDir, 'python-src/tests');
    const run = await exec(python, ['-m', 'unittest', 'discover', '-s', tests, '-t', tests], { cwd: workDir, timeout: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Ran \d+ tests[\s\S]*\nOK\n?$/);
  });
});

interface Logged {
  method: string;
  url: string;
  status: number;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

describeEachDialect('both SDKs against a live server', (dialect) => {
  let t: TestApp;
  let owner: TestBusiness;
  let limited: TestBusiness;
  let base: string;
  let redis: Redis;
  let receiver: Receiver;
  let worker: WebhookWorker;
  const prefix = `sdk-${dialect}-${Date.now().toString(36)}`;
  const log: Logged[] = [];

  beforeAll(async () => {
    // Redis holds the per-key counters, so the test can shorten a window the way a minute passing would.
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true', REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `${prefix}:` });
    redis = new Redis(TEST_REDIS_URL);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      res.on('finish', () =>
        log.push({
          method: req.method ?? '',
          url: req.url ?? '',
          status: res.statusCode,
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          authorization: req.headers.authorization,
        }),
      );
    });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
    owner = await createBusiness(t.app, 'SDK Owner Ltd');
    await fund(t.ctx, owner.businessId, 100_000);
    limited = await createBusiness(t.app, 'SDK Limited Ltd');
    await fund(t.ctx, limited.businessId, 100_000);
    // A tiny per-key limit for this business only (before its key is first looked up and cached).
    await t.ctx.db.updateTable('business').set({ rate_limit_per_minute: 2 }).where('id', '=', limited.businessId).execute();
    receiver = await startReceiver();
    // The delivery worker as the server process runs it (main.ts), polling the outbox.
    worker = new WebhookWorker(t.ctx, { sender: createSender({ timeoutMs: 5_000, allowPrivate: true }), pollIntervalMs: 100 });
    worker.start();
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
    await t?.close();
  });

  it('the committed generated types are what openapi-typescript makes of the document this server serves', async () => {
    const document = await (await fetch(`${base}/api/v1/openapi.json`)).json();
    expect(await renderTypes(document), 'run `npm run generate -- <server>/api/v1/openapi.json` in sdks/typescript').toBe(readFileSync(GENERATED_FILE, 'utf8'));
  });

  it.each(SDKS)('%s: enrol, verify an oathtool code, replay, stateless, lookups, pages, typed errors, delete', async (sdk) => {
    const before = log.length;
    const balanceBefore = paise((await (await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${owner.apiKey}` } })).json()).balance);
    const r = await scenario(sdk, 'main', { baseUrl: base, apiKey: owner.apiKey, prefix: `${prefix}-${sdk}` });
    const userA = `${prefix}-${sdk}-a`;
    expect(r.profile).toMatchObject({ business_id: owner.businessId, company_name: 'SDK Owner Ltd' });
    expect(r.enrolled).toMatchObject({ user_id: userA, backup_codes: 10 });
    expect(r.verified).toMatchObject({ verified: true, status: 'verified', cost: '0.10' });
    expect(r.replayed).toMatchObject({ verified: false, status: 'replayed' });
    expect(r.wrong).toMatchObject({ verified: false, status: 'invalid_code' });
    expect(r.stateless).toMatchObject({ verified: true, status: 'verified' });
    expect(r.looked).toMatchObject({ verification_id: r.verified.verification_id, user_id: userA, status: 'verified' });
    expect(r.user).toMatchObject({ user_id: userA, backup_codes_left: 10 });
    expect(r.user).not.toHaveProperty('secret');
    // Three checks for the user, newest first, one per page: three GETs, each after the last id.
    expect(r.checks).toEqual([r.wrong.verification_id, r.replayed.verification_id, r.verified.verification_id]);
    const pages = log.slice(before).filter((l) => l.url.startsWith('/api/v1/verifications?'));
    expect(pages.map((l) => new URL(l.url, base).searchParams.get('starting_after'))).toEqual([null, r.checks[0], r.checks[1]]);
    expect(r.users).toEqual(expect.arrayContaining([userA, `${prefix}-${sdk}-b`, `${prefix}-${sdk}-c`]));
    expect(log.slice(before).filter((l) => l.url.startsWith('/api/v1/users?')).length).toBe(r.users.length + (r.users.length > 0 ? 0 : 1));
    expect(r.badRequest).toMatchObject({ class: 'InvalidRequestError', code: 'validation_failed', status: 400, doc_url: expect.stringContaining('#error-validation_failed') });
    expect(r.badRequest.request_id).toMatch(/\S/);
    expect(r.badRequest.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'user_id' })]));
    expect(r.gone).toMatchObject({ class: 'NotFoundError', status: 404 });
    expect(r.typed).toEqual({ badIsInvalidRequest: true, goneIsNotFound: true });
    // Four billed checks (verified, replayed, invalid_code, stateless): ₹0.40, and nothing else moved.
    const balanceAfter = paise((await (await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${owner.apiKey}` } })).json()).balance);
    expect(balanceBefore - balanceAfter).toBe(40);
    // Every POST carried an Idempotency-Key, a fresh one per call.
    const posts = log.slice(before).filter((l) => l.method === 'POST');
    expect(posts.every((l) => l.idempotencyKey && l.idempotencyKey.length >= 16)).toBe(true);
    expect(new Set(posts.map((l) => l.idempotencyKey)).size).toBe(posts.length);
  });

  it.each(SDKS)('%s: every /docs SDK sample runs: test → profile → generate → verify → replay → stateless → lookups → lists → delete; a bad key exits non-zero naming the code', async (sdk) => {
    const input = { baseUrl: apiBaseUrl(base), apiKey: owner.apiKey };
    const userId = `${prefix}-${sdk}-sample`;
    expect(printed(await runSample(sdk, 'test', input))).toEqual({ ok: true, business_id: owner.businessId, livemode: true });
    expect(printed(await runSample(sdk, 'profile', input))).toMatchObject({ business_id: owner.businessId });
    const enrolled = printed(await runSample(sdk, 'generate', { ...input, body: { user_id: userId, issuer: 'SDK Samples' } }));
    expect(enrolled).toMatchObject({ user_id: userId, backup_codes: expect.any(Array) });
    const code = totpCode(enrolled.secret);
    const verified = printed(await runSample(sdk, 'verify', { ...input, body: { user_id: userId, totp_code: code } }));
    expect(verified).toMatchObject({ verified: true, status: 'verified' });
    expect(printed(await runSample(sdk, 'verify', { ...input, body: { user_id: userId, totp_code: code } }))).toMatchObject({ verified: false, status: 'replayed' });
    const token = totpCode(enrolled.secret, { timestamp: Date.now() + 30_000 });
    expect(printed(await runSample(sdk, 'verifyStateless', { ...input, body: { secret: enrolled.secret, token } }))).toMatchObject({ verified: true });
    expect(printed(await runSample(sdk, 'getVerification', { ...input, pathParams: { verification_id: verified.verification_id } }))).toMatchObject({
      verification_id: verified.verification_id,
      user_id: userId,
    });
    expect(printed(await runSample(sdk, 'getUser', { ...input, pathUserId: userId }))).toMatchObject({ user_id: userId, backup_codes_left: 10 });
    const checks = await runSample(sdk, 'listVerifications', { ...input, query: { user_id: userId, limit: '1' } });
    expect(checks.code, checks.stderr).toBe(0);
    expect(checks.stdout.trim().split('\n')).toHaveLength(2); // verified + replayed, one page each
    expect(checks.stdout.trim().split('\n')[1]).toBe(verified.verification_id);
    const users = await runSample(sdk, 'listUsers', { ...input, query: { limit: '2' } });
    expect(users.code, users.stderr).toBe(0);
    expect(users.stdout.trim().split('\n')).toContain(userId);
    const deleted = await runSample(sdk, 'deleteUser', { ...input, pathUserId: userId });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout.trim()).toBe('deleted');
    const refused = await runSample(sdk, 'test', { ...input, apiKey: 'sk_live_notARealKey000000000000000000' });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('401 unauthorized');
  });

  it.each(SDKS)('%s: every /docs webhook endpoint SDK sample runs: create → get → list → pause → test refused → resume → test → deliveries → delete', async (sdk) => {
    const input = { baseUrl: apiBaseUrl(base), apiKey: owner.apiKey };
    const url = `https://9.9.9.9/hooks/sdk-${sdk}-${dialect}`; // a public address literal: no DNS in tests
    const created = printed(await runSample(sdk, 'createWebhookEndpoint', { ...input, body: { url, events: ['verification.failed'], description: sdk } }));
    expect(created).toMatchObject({ id: expect.stringMatching(/^wh_/), url, events: ['verification.failed'], description: sdk, is_active: true, secret: expect.stringMatching(/^whsec_/) });
    const pathParams = { id: created.id };
    const { secret: _secret, ...view } = created;
    expect(printed(await runSample(sdk, 'getWebhookEndpoint', { ...input, pathParams }))).toEqual(view);
    const listed = await runSample(sdk, 'listWebhookEndpoints', { ...input, query: { limit: '1' } });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split('\n')).toContain(created.id);
    expect(printed(await runSample(sdk, 'updateWebhookEndpoint', { ...input, pathParams }))).toEqual({ ...view, is_active: false });
    const refused = await runSample(sdk, 'testWebhookEndpoint', { ...input, pathParams });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('409 conflict');
    printed(await runSample(sdk, 'updateWebhookEndpoint', { ...input, pathParams, body: { is_active: true } }));
    const queued = printed(await runSample(sdk, 'testWebhookEndpoint', { ...input, pathParams }));
    expect(queued).toEqual({ queued: true, delivery_id: expect.stringMatching(/^msg_/) });
    const deliveries = await runSample(sdk, 'listWebhookEndpointDeliveries', { ...input, pathParams });
    expect(deliveries.code, deliveries.stderr).toBe(0);
    expect(deliveries.stdout.trim().split('\n')).toEqual([queued.delivery_id]);
    const deleted = await runSample(sdk, 'deleteWebhookEndpoint', { ...input, pathParams });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout.trim()).toBe('deleted');
  });

  it.each(SDKS)('%s: webhook endpoints over the API (create with the secret once, list, get, update, test.ping, deliveries, delete); deliveries to a real receiver verify with the SDK helper, a tampered body or wrong secret does not', async (sdk) => {
    const already = receiver.received.length;
    const e = await scenario(sdk, 'endpoints', { baseUrl: base, apiKey: owner.apiKey, url: receiver.url });
    expect(e.created).toMatchObject({ id: expect.stringMatching(/^wh_/), url: receiver.url, events: ['verification.success'], is_active: true, secret: expect.stringMatching(/^whsec_/) });
    const { secret, ...view } = e.created;
    expect(e.listed).toEqual([e.created.id]); // newest first, one per page
    expect(e.got).toEqual(view);
    expect(e.got).not.toHaveProperty('secret');
    expect(e.updated).toEqual({ ...view, description: 'sdk test, renamed' });
    expect(e.queued).toEqual({ queued: true, delivery_id: expect.stringMatching(/^msg_/) });

    // The test.ping, then a real event, arrive at the receiver; each SDK's helper checks them.
    await receiver.waitFor(already + 1, 15_000);
    await scenario(sdk, 'verifyCode', { baseUrl: base, apiKey: owner.apiKey, userId: `${prefix}-${sdk}-hooked` });
    await receiver.waitFor(already + 2, 15_000);
    const mine = receiver.received.slice(already);
    const ping = mine.find((r) => r.headers['webhook-id'] === e.queued.delivery_id);
    const success = mine.find((r) => r.headers['webhook-id'] !== e.queued.delivery_id);
    const check = (delivered: typeof ping) =>
      scenario(sdk, 'webhook', {
        delivery: { body: delivered!.body, headers: Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, delivered!.headers[h] as string])), secret },
      });
    const pinged = await check(ping);
    expect(pinged.event).toMatchObject({ type: 'test.ping' });
    const verified = await check(success);
    expect(verified.event).toMatchObject({ type: 'verification.success', data: { user_id: `${prefix}-${sdk}-hooked`, status: 'verified' } });
    expect([verified.tampered, verified.wrongSecret]).toEqual(['WebhookVerificationError', 'WebhookVerificationError']);

    const d = await scenario(sdk, 'deleteEndpoint', { baseUrl: base, apiKey: owner.apiKey, endpointId: e.created.id });
    expect(d.deliveries).toEqual(expect.arrayContaining([{ id: e.queued.delivery_id, type: 'test.ping' }, { id: success!.headers['webhook-id'], type: 'verification.success' }]));
    expect(d.gone).toMatchObject({ class: 'NotFoundError', status: 404 });
  });

  it.each(SDKS)('%s: test mode: the test key enrols and verifies for free (livemode false, balance unchanged, live users invisible); going live changes only the key', async (sdk) => {
    const liveBalance = async () => paise((await (await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${owner.apiKey}` } })).json()).balance);
    const before = await liveBalance();
    const input = { baseUrl: base, userId: `${prefix}-${sdk}-testmode`, liveUserId: `${prefix}-${sdk}-a` };
    expect(owner.testApiKey).toMatch(/^sk_test_/);
    const test = await scenario(sdk, 'testmode', { ...input, apiKey: owner.testApiKey });
    expect(test.profile).toMatchObject({ business_id: owner.businessId, livemode: false });
    expect(test.verified).toMatchObject({ verified: true, status: 'verified', livemode: false });
    expect(paise(test.verified.cost)).toBe(0);
    expect(test.looked).toMatchObject({ verification_id: test.verified.verification_id, livemode: false });
    // The user the live key enrolled in the main scenario does not exist for the test key.
    expect(test.liveUser).toMatchObject({ class: 'NotFoundError', status: 404 });
    expect(await liveBalance()).toBe(before);

    // The same script with the live key: the same user_id is a new, live enrolment, billed.
    const live = await scenario(sdk, 'testmode', { ...input, apiKey: owner.apiKey });
    expect(live.verified).toMatchObject({ verified: true, status: 'verified', livemode: true, cost: '0.10' });
    expect(live.liveUser).toBeNull();
    expect(await liveBalance()).toBe(before - 10);
  });

  it.each(SDKS)('%s: a 429 with Retry-After is waited out and retried with the same Idempotency-Key', async (sdk) => {
    // Spend the key's budget, then make its window end in ~2 s, as the end of a minute would.
    const profile = () => fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${limited.apiKey}` } });
    for (let i = 0; i < 3; i++) await profile();
    const key = await t.ctx.db.selectFrom('api_key').select('id').where('business_id', '=', limited.businessId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const [counter, ...others] = (await redis.keys(`${prefix}:*`)).filter((k) => k.endsWith(`key:${key.id}`));
    expect(counter, 'the per-key counter in Redis').toBeDefined();
    expect(others).toEqual([]);
    await redis.pexpire(counter!, 2_000);
    expect((await profile()).status).toBe(429);

    const before = log.length;
    const r = await scenario(sdk, 'ratelimit', { baseUrl: base, apiKey: limited.apiKey, prefix: `${prefix}-${sdk}` });
    expect(r.user_id).toBe(`${prefix}-${sdk}-limited`);
    const attempts = log.slice(before).filter((l) => l.method === 'POST' && l.url === '/api/v1/generate');
    expect(attempts.map((a) => a.status)).toEqual([429, 201]);
    expect(attempts[0]!.idempotencyKey).toBeDefined();
    expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
    // It waited for Retry-After (whole seconds, at most 2 here), not a blind fast retry.
    expect(r.waitedMs).toBeGreaterThanOrEqual(900);
    await redis.del(counter!);
  }, 20_000);
});
