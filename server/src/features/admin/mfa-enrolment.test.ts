import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, oathtoolCode, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { runCli } from '../../cli';
import { issueEnrolmentCode, normaliseEnrolmentCode } from './mfa-enrolment';

type Res = { statusCode: number; json: () => { error: { code: string } } };
const expectError = (res: Res, status: number, code: string) => {
  expect([res.statusCode, res.json().error?.code]).toEqual([status, code]);
};
const CODE_FORMAT = /\b[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}\b/;

/**
 * The first admin MFA setup needs the operator's one-time enrolment code: the admin's cookie (or
 * Google account) alone must not enrol an authenticator. The tests share one database and run in order.
 */
describeEachDialect('admin MFA enrolment code', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let cliEnv: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    cookie = await signIn(t.app, ADMIN, 'Ada Admin');
    const db = t.ctx.config.database;
    cliEnv = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: ADMIN,
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATABASE_URL: db.kind === 'postgres' ? db.url : `sqlite:${db.file}`,
    };
  });
  afterAll(async () => t?.close());

  const setup = (body?: unknown) => post(t.app, '/api/admin/mfa/setup', cookie, body);
  const issue = async (at?: Date) => (await issueEnrolmentCode(t.ctx, 'cli:test', at)).code;
  /** Earlier tests' wrong codes leave the 15-minute window (as time would). */
  const ageFailures = () => t.ctx.db.updateTable('admin_mfa_attempt').set({ created_at: new Date(Date.now() - 16 * 60_000) }).execute();
  const mfaRows = () => t.ctx.db.selectFrom('admin_mfa').selectAll().execute();
  const cli = async (argv: string[]) => {
    const lines: string[] = [];
    const code = await runCli(argv, cliEnv, { log: (l) => lines.push(l), error: (l) => lines.push(l) });
    return { code, text: lines.join('\n') };
  };

  it('refuses setup without a code (403 enrolment_code_required) and makes no secret', async () => {
    for (const body of [undefined, {}, { enrolmentCode: '' }, { enrolmentCode: ' - ' }]) {
      const res = await setup(body);
      expectError(res, 403, 'enrolment_code_required');
      expect(res.json().error).toHaveProperty('message', expect.stringContaining('admin:mfa-enrol-code'));
    }
    expect(await mfaRows()).toHaveLength(0);
  });

  it('refuses a wrong and an expired code (403 enrolment_code_invalid), and stores only the SHA-256', async () => {
    const expired = await issue(new Date(Date.now() - 16 * 60_000));
    expectError(await setup({ enrolmentCode: expired }), 403, 'enrolment_code_invalid');
    const fresh = await issue();
    expect(fresh).toMatch(CODE_FORMAT);
    const wrong = fresh.startsWith('A') ? `B${fresh.slice(1)}` : `A${fresh.slice(1)}`;
    expectError(await setup({ enrolmentCode: wrong }), 403, 'enrolment_code_invalid');
    expect(await mfaRows()).toHaveLength(0);

    const stored = await t.ctx.db.selectFrom('admin_mfa_enrolment_code').selectAll().execute();
    expect(stored).toHaveLength(1); // the fresh code replaced the expired one
    expect(stored[0]!.code_hash).toBe(createHash('sha256').update(normaliseEnrolmentCode(fresh)).digest('hex'));
    const audit = await t.ctx.db.selectFrom('audit_log').select(['action', 'details']).execute();
    expect(JSON.stringify(audit)).not.toContain(normaliseEnrolmentCode(fresh).slice(0, 8));
    expect(audit.filter((a) => a.action === 'admin.mfa_enrolment_code_issued')).toHaveLength(2);
    expect(audit.filter((a) => a.action === 'admin.mfa_failed' && JSON.stringify(a.details).includes('enrolment_code'))).toHaveLength(2);
  });

  it('accepts a fresh code in any case, with spaces or without dashes — once', async () => {
    const code = await issue();
    const typed = code.toLowerCase().replace(/-/g, ' ');
    const res = await setup({ enrolmentCode: typed });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveProperty('secret');
    expect(await mfaRows()).toHaveLength(1);
    // Used: the same code cannot start a second setup (which would replace the secret being scanned).
    expectError(await setup({ enrolmentCode: code }), 403, 'enrolment_code_invalid');
    expectError(await setup({ enrolmentCode: code.replace(/-/g, '') }), 403, 'enrolment_code_invalid');
  });

  it('a code is single use under concurrency too, and a new code replaces older unused ones', async () => {
    await ageFailures();
    const same = await issue();
    const answers = await Promise.all([setup({ enrolmentCode: same }), setup({ enrolmentCode: same })]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403]);

    const older = await issue();
    const newer = await issue();
    expectError(await setup({ enrolmentCode: older }), 403, 'enrolment_code_invalid');
    expect((await setup({ enrolmentCode: newer })).statusCode).toBe(200);
  });

  it('wrong codes count toward the 5-in-15-minutes lock: then even a right one is refused (429) and not used up', async () => {
    await ageFailures();
    for (let i = 0; i < 5; i++) expectError(await setup({ enrolmentCode: 'AAAA-AAAA-AAAA-AAAA' }), 403, 'enrolment_code_invalid');
    const code = await issue();
    const locked = await setup({ enrolmentCode: code });
    expectError(locked, 429, 'too_many_attempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // The window passes (the failures age out): the same code still works, and the setup can be confirmed.
    await ageFailures();
    const res = await setup({ enrolmentCode: code });
    expect(res.statusCode, res.body).toBe(200);
    // Consumed at setup, not at confirm: the first code from the app turns it on without the enrolment code.
    const confirm = await post(t.app, '/api/admin/mfa/confirm', cookie, { totpCode: oathtoolCode(res.json().secret) });
    expect(confirm.statusCode, confirm.body).toBe(200);
  });

  it('once MFA is configured: setup answers 409 whatever the code, and the CLI refuses to print a code', async () => {
    expectError(await setup({ enrolmentCode: await issue() }), 409, 'conflict');
    expectError(await setup({}), 409, 'conflict');
    const printed = await cli(['admin:mfa-enrol-code']);
    expect(printed.code).toBe(64);
    expect(printed.text).toContain('already configured');
    expect(printed.text).not.toMatch(CODE_FORMAT);
  });

  it('after `admin:mfa-reset` the next setup needs a new code: older ones are void; the CLI prints one that works', async () => {
    const beforeReset = await issue();
    const reset = await cli(['admin:mfa-reset', '--yes']);
    expect(reset.code).toBe(0);
    expect(reset.text).toContain('admin:mfa-enrol-code');
    expect(await mfaRows()).toHaveLength(0);
    expectError(await setup({}), 403, 'enrolment_code_required');
    expectError(await setup({ enrolmentCode: beforeReset }), 403, 'enrolment_code_invalid');

    const printed = await cli(['admin:mfa-enrol-code']);
    expect(printed.code, printed.text).toBe(0);
    expect(printed.text).toContain(ADMIN);
    const code = CODE_FORMAT.exec(printed.text)![0];
    const res = await setup({ enrolmentCode: code });
    expect(res.statusCode, res.body).toBe(200);
    const confirm = await post(t.app, '/api/admin/mfa/confirm', cookie, { totpCode: oathtoolCode(res.json().secret) });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const issued = await t.ctx.db.selectFrom('audit_log').select('actor_label').where('action', '=', 'admin.mfa_enrolment_code_issued').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(issued.actor_label).toMatch(/^cli:/);
  });

  it('a setup that does not name the code field, or names another, is still refused before anything is stored', async () => {
    expect((await cli(['admin:mfa-reset', '--yes'])).code).toBe(0);
    await issue();
    expectError(await setup({ code: 'AAAA-AAAA-AAAA-AAAA' }), 400, 'validation_failed');
    expectError(await setup({ enrolmentCode: 'x'.repeat(65) }), 400, 'validation_failed');
    expect(await mfaRows()).toHaveLength(0);
  });
});
