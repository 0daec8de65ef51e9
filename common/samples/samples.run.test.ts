import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../test/support/db';
import { PHP_BINARY, phpProblem } from '../../test/support/php';
import { SERVICES_REQUIRED } from '../../test/support/services';
import { bearer, createBusiness, fund, totpCode, type TestBusiness } from '../../test/support/verify-api';
import { apiBaseUrl, renderSample, SAMPLE_LANGUAGES, SAMPLE_OPERATIONS, sampleOperationFor, type SampleLanguage } from './index';

/**
 * Every code sample the site shows is executed here, in its own language, against the real
 * server listening on a real port: a sample that breaks fails the build.
 */

const phpMissing = phpProblem();
// Outside CI a laptop without php-cli skips only the PHP samples (the global setup's banner
// says so); in CI the banner check fails the run before this file, and this test fails too.
const LANGUAGES: SampleLanguage[] = SAMPLE_LANGUAGES.filter((language) => language !== 'php' || !phpMissing);

const RUNNERS: Record<SampleLanguage, { file: string; command: (file: string) => [string, string[]] }> = {
  curl: { file: 'sample.sh', command: (file) => ['sh', [file]] },
  javascript: { file: 'sample.mjs', command: (file) => [process.execPath, [file]] },
  python: { file: 'sample.py', command: (file) => ['python3', [file]] },
  php: { file: 'sample.php', command: (file) => [PHP_BINARY, [file]] },
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let workDir: string;
let runCount = 0;

/** Writes the sample to a file and runs it as a reader would (no shared environment secrets). */
function run(language: SampleLanguage, source: string): Promise<Run> {
  runCount += 1;
  const file = join(workDir, `${runCount}-${RUNNERS[language].file}`);
  writeFileSync(file, source);
  const [command, args] = RUNNERS[language].command(file);
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 20_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

function json(result: Run): any {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'sixdigit-samples-'));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('code sample runtimes', () => {
  it('php-cli is present where it is required (CI), else only the PHP samples are left out', () => {
    if (SERVICES_REQUIRED) expect(phpMissing).toBeNull();
    expect(LANGUAGES).toEqual(expect.arrayContaining(['curl', 'javascript', 'python']));
  });
});

describeEachDialect('every code sample, executed against a live server', (dialect) => {
  let t: TestApp;
  let owner: TestBusiness;
  let base: string;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    origin = `http://127.0.0.1:${address.port}`;
    base = apiBaseUrl(origin);
    owner = await createBusiness(t.app, 'Sample Runner Ltd');
    await fund(t.ctx, owner.businessId, 100_000);
  });
  afterAll(async () => t?.close());

  it('has a sample for every operation of the OpenAPI document the server serves, and none for a missing one', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const operation of documented) {
      const [method, path] = operation.split(' ') as [string, string];
      expect(sampleOperationFor(method, path), operation).toBeDefined();
    }
    expect([...new Set(Object.values(SAMPLE_OPERATIONS).map((op) => `${op.method} ${op.path}`))].sort()).toEqual(documented.sort());
  });

  it.each(LANGUAGES)('%s: test → profile → generate → verify (a code from the new secret) → replay → stateless verify → lookups → delete', async (language) => {
    const input = { baseUrl: base, apiKey: owner.apiKey };
    const userId = `sample-${language}-${dialect}`;

    expect(json(await run(language, renderSample('test', language, input)))).toEqual({ ok: true, business_id: owner.businessId, livemode: true });

    const profile = json(await run(language, renderSample('profile', language, input)));
    expect(profile).toMatchObject({ business_id: owner.businessId, company_name: 'Sample Runner Ltd', currency: 'INR' });

    const enrolled = json(await run(language, renderSample('generate', language, { ...input, body: { user_id: userId, issuer: 'Sample Runner' } })));
    expect(enrolled.user_id).toBe(userId);
    expect(enrolled.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(enrolled.backup_codes).toHaveLength(10);
    expect(enrolled.otpauth_uri).toContain('issuer=Sample%20Runner');

    const code = totpCode(enrolled.secret);
    const verified = json(await run(language, renderSample('verify', language, { ...input, body: { user_id: userId, totp_code: code } })));
    expect(verified).toMatchObject({ verified: true, status: 'verified', cost: '0.10' });

    // The same code again is refused by the server and the sample shows it (not an HTTP error).
    const replay = json(await run(language, renderSample('verify', language, { ...input, body: { user_id: userId, totp_code: code } })));
    expect(replay).toMatchObject({ verified: false, status: 'replayed' });

    // Stateless mode: the caller keeps the secret and sends it with the token.
    const token = totpCode(enrolled.secret, { timestamp: Date.now() + 30_000 });
    const stateless = json(await run(language, renderSample('verifyStateless', language, { ...input, body: { secret: enrolled.secret, token } })));
    expect(stateless).toMatchObject({ verified: true, status: 'verified', cost: '0.10' });

    // Lookups: the check just made, the user, and both lists (free).
    const looked = json(await run(language, renderSample('getVerification', language, { ...input, pathParams: { verification_id: verified.verification_id } })));
    expect(looked).toMatchObject({ verification_id: verified.verification_id, user_id: userId, status: 'verified', created_at: verified.timestamp });
    const user = json(await run(language, renderSample('getUser', language, { ...input, pathUserId: userId })));
    expect(user).toMatchObject({ user_id: userId, backup_codes_left: 10, last_verified_at: verified.timestamp });
    const checks = json(await run(language, renderSample('listVerifications', language, { ...input, query: { user_id: userId, limit: '1' } })));
    expect(checks).toEqual({ data: [expect.objectContaining({ status: 'replayed' })], has_more: true });
    const users = json(await run(language, renderSample('listUsers', language, { ...input, query: { limit: '100' } })));
    expect(users.data.map((u: { user_id: string }) => u.user_id)).toContain(userId);

    const deleted = await run(language, renderSample('deleteUser', language, { ...input, pathUserId: userId }));
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout.trim()).toBe(language === 'curl' ? '' : '204');
    const after = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(owner.apiKey), payload: { user_id: userId, totp_code: code } });
    expect(after.statusCode).toBe(404);
  });

  it.each(LANGUAGES)('%s: webhook endpoints: create (secret once) → get → list → pause → test refused → resume → test → deliveries → delete', async (language) => {
    const input = { baseUrl: base, apiKey: owner.apiKey };
    const url = `https://9.9.9.9/hooks/${language}-${dialect}`; // a public address literal: no DNS in tests
    const created = json(await run(language, renderSample('createWebhookEndpoint', language, { ...input, body: { url, events: ['verification.failed'], description: language } })));
    expect(created).toMatchObject({ id: expect.stringMatching(/^wh_/), url, events: ['verification.failed'], description: language, is_active: true, secret: expect.stringMatching(/^whsec_/) });
    const pathParams = { id: created.id };

    const { secret: _secret, ...view } = created;
    expect(json(await run(language, renderSample('getWebhookEndpoint', language, { ...input, pathParams })))).toEqual(view);
    const listed = json(await run(language, renderSample('listWebhookEndpoints', language, { ...input, query: { limit: '100' } })));
    expect(listed.data).toContainEqual(view);

    expect(json(await run(language, renderSample('updateWebhookEndpoint', language, { ...input, pathParams })))).toEqual({ ...view, is_active: false });
    // A paused endpoint gets no test event: the sample exits non-zero and names the code.
    const refused = await run(language, renderSample('testWebhookEndpoint', language, { ...input, pathParams }));
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toContain('conflict');
    json(await run(language, renderSample('updateWebhookEndpoint', language, { ...input, pathParams, body: { is_active: true } })));

    const queued = json(await run(language, renderSample('testWebhookEndpoint', language, { ...input, pathParams })));
    expect(queued).toEqual({ queued: true, delivery_id: expect.stringMatching(/^msg_/) });
    const deliveries = json(await run(language, renderSample('listWebhookEndpointDeliveries', language, { ...input, pathParams })));
    expect(deliveries).toEqual({ data: [expect.objectContaining({ id: queued.delivery_id, type: 'test.ping' })], has_more: false });

    const deleted = await run(language, renderSample('deleteWebhookEndpoint', language, { ...input, pathParams }));
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout.trim()).toBe(language === 'curl' ? '' : '204');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/webhook_endpoints/${created.id}`, headers: bearer(owner.apiKey) })).statusCode).toBe(404);
  });

  it.each(LANGUAGES)('%s: an error answer (bad key) exits non-zero and names the error code', async (language) => {
    const result = await run(language, renderSample('test', language, { baseUrl: base, apiKey: 'sk_live_notARealKey000000000000000000' }));
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain('unauthorized');
  });

  it.each(LANGUAGES)('%s: the /v1 alias answers the same sample', async (language) => {
    const result = json(await run(language, renderSample('test', language, { baseUrl: `${origin}/v1`, apiKey: owner.apiKey })));
    expect(result).toEqual({ ok: true, business_id: owner.businessId, livemode: true });
  });
});
