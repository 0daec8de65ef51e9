import { Secret } from 'otpauth';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { balancePaise, bearer, createBusiness, totpCode, type TestBusiness } from '../../../../test/support/verify-api';
import { runCli } from '../../cli';
import { listAuditEntries } from '../audit/repo';
import { ledgerTotals, listLedger } from './repo';

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return { out: { log: (l: string) => lines.push(l), error: (l: string) => errors.push(l) }, lines, errors };
}

describeEachDialect('operator CLI: credits', (dialect) => {
  let t: TestApp;
  let env: Record<string, string>;
  let biz: TestBusiness;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const db = t.ctx.config.database;
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: 'admin@example.com',
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATABASE_URL: db.kind === 'postgres' ? db.url : `sqlite:${db.file}`,
    };
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    biz = await createBusiness(t.app, 'Granted Pvt Ltd');
  });

  async function cli(...argv: string[]) {
    const c = capture();
    const code = await runCli(argv, env, c.out);
    return { code, lines: c.lines, errors: c.errors, text: [...c.lines, ...c.errors].join('\n') };
  }

  it('credits:grant by business id adds credit, a ledger row and an audit entry in one go', async () => {
    const { code, lines } = await cli('credits:grant', biz.businessId, '5000', '--reason', 'Pilot onboarding');
    expect(code).toBe(0);
    expect(lines).toEqual([`Granted ₹5000.00 to Granted Pvt Ltd (${biz.businessId}). Balance ₹5000.00 = 50000 verifications.`]);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(500_000);

    const [entry] = await listLedger(t.ctx.db, biz.businessId);
    expect(entry).toMatchObject({ amountPaise: 500_000, kind: 'grant', reason: 'Pilot onboarding', reference: null, actorLabel: expect.stringMatching(/^cli:/) });

    const [audit] = await listAuditEntries(t.ctx.db, { subjectId: biz.businessId });
    expect(audit).toMatchObject({
      action: 'credits.granted',
      actorUserId: null,
      actorLabel: expect.stringMatching(/^cli:/),
      subjectType: 'business',
      details: { amount_paise: 500_000, reason: 'Pilot onboarding', ledger_entry_id: entry!.id, balance_after_paise: 500_000 },
    });

    // The business sees it at once, on the dashboard and through the API.
    const profile = await t.app.inject({ method: 'GET', url: '/api/business/profile', headers: { cookie: biz.cookie } });
    expect(profile.json()).toMatchObject({ balance: '5000.00', verificationsLeft: 50_000 });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(biz.apiKey) })).json().balance).toBe('5000.00');
  });

  it('credits:grant by the owner e-mail (any case), with paise', async () => {
    const { code, lines } = await cli('credits:grant', biz.email.toUpperCase(), '99.5', '--reason=Goodwill');
    expect(code).toBe(0);
    expect(lines[0]).toContain('Granted ₹99.50 to Granted Pvt Ltd');
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(9_950);
    expect(await cli('credits:grant', biz.email, '0.05', '--reason', 'Rounding')).toMatchObject({ code: 0 });
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(9_955);
  });

  it.each([
    ['0', 1, 'positive'],
    ['0.00', 1, 'positive'],
    ['10000001', 1, 'at most'],
    ['abc', 64, 'is not an amount of rupees'],
    ['1.234', 64, 'is not an amount of rupees'],
    ['1e3', 64, 'is not an amount of rupees'],
    ['1,000', 64, 'is not an amount of rupees'],
    ['₹100', 64, 'is not an amount of rupees'],
    ['0x10', 64, 'is not an amount of rupees'],
    ['99999999999999999999', 64, 'is not an amount of rupees'],
  ])('credits:grant refuses the amount %j (exit %i) and changes nothing', async (amount, exit, message) => {
    const result = await cli('credits:grant', biz.businessId, amount, '--reason', 'Bad amount');
    expect(result.code).toBe(exit);
    expect(result.errors.join('\n')).toContain(message);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
    expect(await listLedger(t.ctx.db, biz.businessId)).toEqual([]);
    expect(await listAuditEntries(t.ctx.db, { subjectId: biz.businessId })).toHaveLength(1); // business.created only
  });

  it.each([
    [['BIZ', '-5', '--reason', 'Negative'], "Unknown option '-5'"],
    [['BIZ', '--reason', 'Negative', '--', '-5'], 'is not an amount of rupees'],
    [['BIZ', '100', '--reasn', 'Typo'], "Unknown option '--reasn'"],
    [['BIZ', '100', '--reason'], "Option '--reason <value>' argument missing"],
  ])('credits:grant %j is a usage error (exit 64) with a message, not a stack trace', async (argv, message) => {
    const result = await cli('credits:grant', ...argv.map((a) => (a === 'BIZ' ? biz.businessId : a)));
    expect(result.code).toBe(64);
    expect(result.errors.join('\n')).toContain(message);
    expect(result.errors.join('\n')).not.toMatch(/\n\s+at /);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
  });

  it.each([
    [['credits:grant', 'BIZ', '100'], 64, 'usage: sixdigit credits:grant'],
    [['credits:grant', 'BIZ', '100', '--reason', ''], 64, 'usage: sixdigit credits:grant'],
    [['credits:grant', 'BIZ', '100', '--reason', '   '], 1, 'A reason is required'],
    [['credits:grant', 'BIZ', '--reason', 'No amount'], 64, 'usage: sixdigit credits:grant'],
    [['credits:grant', '--reason', 'Nothing'], 64, 'usage: sixdigit credits:grant'],
  ])('%j fails with a clear message and changes nothing', async (argv, exit, message) => {
    const result = await cli(...argv.map((a) => (a === 'BIZ' ? biz.businessId : a)));
    expect(result.code).toBe(exit);
    expect(result.errors.join('\n')).toContain(message);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
    expect(await listLedger(t.ctx.db, biz.businessId)).toEqual([]);
  });

  it.each(['biz_doesNotExist00000000', 'nobody@example.com'])('credits:grant to an unknown business %s fails with exit 1', async (target) => {
    const result = await cli('credits:grant', target, '100', '--reason', 'Lost');
    expect(result.code).toBe(1);
    expect(result.errors.join('\n')).toContain(`No business for "${target}"`);
  });

  it('credits:grant to a user without a business fails with exit 1', async () => {
    await signIn(t.app, 'no-business@example.com');
    const result = await cli('credits:grant', 'no-business@example.com', '100', '--reason', 'Lost');
    expect(result.code).toBe(1);
    expect(result.errors.join('\n')).toContain('No business for');
  });

  it('credits:show reports the balance, the totals checked against it and the latest entries', async () => {
    await cli('credits:grant', biz.businessId, '1', '--reason', 'First grant');
    await cli('credits:grant', biz.email, '0.50', '--reason', 'Second grant');
    const secret = new Secret({ size: 20 }).base32;
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { secret, token: totpCode(secret) } });
    }

    for (const target of [biz.businessId, biz.email]) {
      const { code, lines } = await cli('credits:show', target);
      expect(code).toBe(0);
      expect(lines.slice(0, 4)).toEqual([
        `Granted Pvt Ltd (${biz.businessId})`,
        'Balance:  ₹1.20 (12 verifications)',
        'Credited: ₹1.50   Spent: ₹0.30',
        'Ledger:   consistent (balance = credited − spent)',
      ]);
      expect(lines).toHaveLength(6);
      expect(lines[4]).toMatch(/^ {2}\S+Z {2}\+₹0\.50 {2}grant {2}Second grant {2}\(cli:.+\)$/);
      expect(lines[5]).toContain('+₹1.00  grant  First grant');
    }
    expect(await ledgerTotals(t.ctx.db, biz.businessId)).toEqual({ balancePaise: 120, creditedPaise: 150, spentPaise: 30 });
  });

  it('credits:show exits 1 and says INCONSISTENT when the balance does not match the ledger', async () => {
    await cli('credits:grant', biz.businessId, '10', '--reason', 'Before tampering');
    await t.ctx.db.updateTable('business').set({ balance_paise: 999_999 }).where('id', '=', biz.businessId).execute();
    const { code, text } = await cli('credits:show', biz.businessId);
    expect(code).toBe(1);
    expect(text).toContain('INCONSISTENT');
    expect(text).toContain('Ledger invariant violated');
  });

  it('credits:show for a business with nothing yet, and its usage errors', async () => {
    const { code, lines } = await cli('credits:show', biz.businessId);
    expect(code).toBe(0);
    expect(lines).toEqual([
      `Granted Pvt Ltd (${biz.businessId})`,
      'Balance:  ₹0.00 (0 verifications)',
      'Credited: ₹0.00   Spent: ₹0.00',
      'Ledger:   consistent (balance = credited − spent)',
    ]);
    expect(await cli('credits:show')).toMatchObject({ code: 64, errors: [expect.stringContaining('usage: sixdigit credits:show')] });
    expect(await cli('credits:show', 'ghost@example.com')).toMatchObject({ code: 1, errors: ['No business for "ghost@example.com".'] });
  });

  it('--help lists both credits commands', async () => {
    const { code, text } = await cli('--help');
    expect(code).toBe(0);
    expect(text).toContain('credits:grant <business-id|owner-email> <rupees> --reason');
    expect(text).toContain('credits:show <business-id|owner-email>');
  });

  it(`runs on ${dialect}`, () => {
    expect(t.ctx.database.dialect).toBe(dialect);
  });
});
