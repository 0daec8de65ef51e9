import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, oathtoolCode } from '../../../../test/support/admin';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../../test/support/db';
import { client, signInOver, startServerProcess, type ServerProcess } from '../../../../test/support/server-process';

const LINE = /Admin MFA is not set up: enrolment code ([A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4})/g;

/**
 * The real server (`main.ts`) as an operator starts it: while the admin MFA is not configured its
 * start-up log shows one fresh enrolment code that works at /admin; once MFA is on, no code is shown.
 */
describeEachDialect('the start-up log and the admin MFA enrolment code', (dialect) => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'sixdigit-enrol-'));
    env = {
      DATABASE_URL: database.config.kind === 'sqlite' ? `sqlite:${database.config.file}` : database.config.url,
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      ADMIN_EMAIL: ADMIN,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: join(dataDir, 'no-web'),
      UPKEEP_INTERVAL_SECONDS: '0',
    };
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    const server = await startServerProcess(env);
    servers.push(server);
    return server;
  };

  it('shows a working code while MFA is not configured, and none after it is', async () => {
    const first = await start();
    const lines = first.output().split('\n').filter((l) => l.includes('enrolment code'));
    expect(lines, first.output()).toHaveLength(1);
    expect(lines[0]).toContain('valid 15 minutes');
    expect(lines[0]).toContain('npm run cli -- admin:mfa-enrol-code');
    const code = [...first.output().matchAll(LINE)][0]![1]!;

    const http = client(first.url);
    const cookie = await signInOver(first.url, ADMIN, 'Ada Admin');
    const without = await http('POST', '/api/admin/mfa/setup', { cookie, body: {} });
    expect([without.status, (without.json.error as { code?: string } | undefined)?.code]).toEqual([403, 'enrolment_code_required']);
    const setup = await http('POST', '/api/admin/mfa/setup', { cookie, body: { enrolmentCode: code.toLowerCase() } });
    expect(setup.status, setup.text).toBe(200);
    const confirm = await http('POST', '/api/admin/mfa/confirm', { cookie, body: { totpCode: oathtoolCode(setup.json.secret as unknown as string) } });
    expect(confirm.status, confirm.text).toBe(200);
    await first.stop();

    const second = await start();
    // The code's line comes before "Server listening" (main.ts logs it before listen), so this output would hold it.
    expect(second.output()).toContain('Server listening');
    expect(second.output()).not.toContain('enrolment code');
    expect(second.output()).not.toMatch(LINE);
  });
});
