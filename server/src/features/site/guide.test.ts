import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { bearer, createBusiness, fund, totpCode, type TestBusiness } from '../../../../test/support/verify-api';
import { findArticle } from './content';

const run = promisify(execFile);
const guide = findArticle('implementing-totp-api')!.body;

/** The guide's fenced code blocks of one language, in order. */
function blocks(language: string): string[] {
  return [...guide.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

/**
 * The integration guide's code is run against a live server: the cURL calls, the Node.js
 * verifyTotp and the Python verify_totp, exactly as the article prints them.
 */
describeEachDialect('the implementation guide\'s samples run against a live server', (dialect) => {
  let t: TestApp;
  let biz: TestBusiness;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    biz = await createBusiness(t.app, 'Acme Lending');
    await fund(t.ctx, biz.businessId, 10_000);
    env = { ...process.env, SIXDIGIT_API_KEY: biz.apiKey, SIXDIGIT_BASE_URL: `http://127.0.0.1:${address.port}/api/v1` };
    dir = mkdtempSync(join(tmpdir(), 'sixdigit-guide-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const bash = async (script: string) => JSON.parse((await run('bash', ['-c', script], { env, timeout: 20_000 })).stdout);

  it('cURL checks the key and enrols user_42 with the fields the article shows; Node.js verifies a code, then sees it replayed', async () => {
    const curls = blocks('bash').filter((b) => b.startsWith('curl'));
    expect(curls).toHaveLength(2);
    expect(await bash(curls[0]!)).toEqual({ ok: true, business_id: biz.businessId, livemode: true });
    const enrolled = await bash(curls[1]!);
    expect(Object.keys(enrolled).sort()).toEqual(['algorithm', 'backup_codes', 'digits', 'livemode', 'manual_entry', 'otpauth_uri', 'period', 'qr_code', 'secret', 'user_id']);
    expect(enrolled.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Acme%20Lending:asha%40example\.com\?issuer=Acme%20Lending&secret=/);
    expect(enrolled.backup_codes).toHaveLength(10);
    // The same Idempotency-Key and body answer the stored enrolment again.
    expect((await bash(curls[1]!)).secret).toBe(enrolled.secret);

    // Node.js (fetch), as printed, verifies the user's current code.
    const [js] = blocks('js');
    const file = join(dir, 'verify.mjs');
    writeFileSync(file, `${js}\nconsole.log(JSON.stringify(await verifyTotp(process.argv[2], process.argv[3])));\n`);
    const code = totpCode(enrolled.secret);
    const node = JSON.parse((await run(process.execPath, [file, 'user_42', code], { env, timeout: 20_000 })).stdout);
    expect(node).toMatchObject({ verified: true, status: 'verified', cost: '0.10' });
    // The same code again is refused as the article says.
    const again = JSON.parse((await run(process.execPath, [file, 'user_42', code], { env, timeout: 20_000 })).stdout);
    expect(again).toMatchObject({ verified: false, status: 'replayed' });
  });

  it('Python (standard library), as printed, verifies a code and raises with the envelope on an error', async () => {
    const enrolled = await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(biz.apiKey), payload: { user_id: 'user_py' } });
    const secret = enrolled.json().secret as string;
    const [python] = blocks('python');
    const file = join(dir, 'verify.py');
    writeFileSync(file, `${python}\nimport sys\nprint(json.dumps(verify_totp(sys.argv[1], sys.argv[2])))\n`);
    const ok = JSON.parse((await run('python3', [file, 'user_py', totpCode(secret)], { env, timeout: 20_000 })).stdout);
    expect(ok).toMatchObject({ verified: true, status: 'verified' });
    const failed = await run('python3', [file, 'nobody', '123456'], { env, timeout: 20_000 }).catch((error: { stderr: string }) => error);
    expect((failed as { stderr: string }).stderr).toContain('RuntimeError: 404 not_found');
  });
});
