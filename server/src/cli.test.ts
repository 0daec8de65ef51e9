import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, testConfig, type TestApp } from '../../test/support/db';
import { helpText, runCli } from './cli';
import { listAuditEntries } from './features/audit/repo';

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return { out: { log: (l: string) => lines.push(l), error: (l: string) => errors.push(l) }, lines, errors };
}

describe('operator CLI help', () => {
  it('lists every command', async () => {
    const { out, lines } = capture();
    expect(await runCli(['--help'], {}, out)).toBe(0);
    for (const command of ['migrate', 'user:list', 'role:set']) expect(lines.join('\n')).toContain(command);
    expect(helpText()).toContain('role:set <email> <user|financial_manager|admin>');
  });

  it('rejects an unknown command with usage exit code 64', async () => {
    const { out, errors } = capture();
    expect(await runCli(['frobnicate'], {}, out)).toBe(64);
    expect(errors.join('\n')).toContain('Unknown command "frobnicate"');
  });
});

describeEachDialect('operator CLI', (dialect) => {
  let t: TestApp;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const db = t.ctx.config.database;
    const base = testConfig();
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: base.adminEmail,
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATABASE_URL: db.kind === 'postgres' ? db.url : `sqlite:${db.file}`,
    };
    await signIn(t.app, 'fm@example.com', 'Fiona Manager');
  });
  afterAll(async () => t?.close());

  it('migrate reports an up-to-date database', async () => {
    const { out, lines } = capture();
    expect(await runCli(['migrate'], env, out)).toBe(0);
    expect(lines).toEqual(['Database is up to date.']);
  });

  it('role:set makes a user a financial manager, audited, and user:list shows it', async () => {
    const { out, lines } = capture();
    expect(await runCli(['role:set', 'FM@example.com', 'financial_manager'], env, out)).toBe(0);
    expect(lines).toEqual(['fm@example.com is now financial_manager.']);

    const list = capture();
    expect(await runCli(['user:list', '--json'], env, list.out)).toBe(0);
    expect(JSON.parse(list.lines.join('\n'))).toEqual([expect.objectContaining({ email: 'fm@example.com', role: 'financial_manager' })]);

    const [entry] = await listAuditEntries(t.ctx.db);
    expect(entry).toMatchObject({ action: 'user.role_changed', actorLabel: expect.stringMatching(/^cli:/), details: { to: 'financial_manager' } });
  });

  it('the role takes effect on the next request of an existing session', async () => {
    const cookie = await signIn(t.app, 'late@example.com', 'Late Comer');
    const { out } = capture();
    await runCli(['role:set', 'late@example.com', 'financial_manager'], env, out);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).json().role).toBe('financial_manager');
    await runCli(['role:set', 'late@example.com', 'user'], env, out);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).json().role).toBe('user');
  });

  it.each([
    [['role:set', 'nobody@example.com', 'user'], 'No user with e-mail nobody@example.com'],
    [['role:set', 'fm@example.com', 'boss'], 'Unknown role "boss"'],
    [['role:set', 'fm@example.com', 'admin'], 'Only the account whose e-mail equals ADMIN_EMAIL'],
    [['role:set', 'fm@example.com'], 'usage: sixdigit role:set'],
  ])('%j fails with a clear message', async (argv, message) => {
    const { out, errors } = capture();
    expect(await runCli(argv, env, out)).not.toBe(0);
    expect(errors.join('\n')).toContain(message);
  });
});
