import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { call, createBusiness, submitPayment } from '../../../../test/support/payments';
import { balancePaise } from '../../../../test/support/verify-api';
import { helpText, runCli } from '../../cli';
import { listAuditEntries } from '../audit/repo';
import { listLedger } from '../credits/repo';

describeEachDialect('operator CLI: payments', (dialect) => {
  let t: TestApp;
  let env: Record<string, string>;

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

  async function cli(...argv: string[]) {
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await runCli(argv, env, { log: (l) => lines.push(l), error: (l) => errors.push(l) });
    return { code, lines, errors, text: [...lines, ...errors].join('\n') };
  }

  it('lists the payment commands in --help', () => {
    for (const usage of ['payments:list [--status pending|approved|rejected] [--json]', 'payments:approve <payment-id> [--notes "…"]', 'payments:reject <payment-id> --reason "…"']) {
      expect(helpText()).toContain(usage);
    }
  });

  it('lists, approves (credit once, audited as cli:<user>) and rejects with a reason', async () => {
    expect(await cli('payments:list', '--status', 'pending')).toMatchObject({ code: 0, lines: ['No pending payments.'] });
    const biz = await createBusiness(t.app, 'CLI Payer Pvt Ltd');
    const toApprove = await submitPayment(t.app, biz.cookie);
    const toReject = await submitPayment(t.app, biz.cookie);

    const listed = await cli('payments:list', '--status', 'pending');
    expect(listed.code).toBe(0);
    expect(listed.lines[0]).toMatch(/^ID\s+STATUS\s+AMOUNT\s+METHOD\s+COMPANY\s+REFERENCE\s+UTR\s+SUBMITTED \(UTC\)$/);
    expect(listed.lines).toHaveLength(3);
    expect(listed.text).toContain(toApprove.id);
    expect(listed.text).toContain(toReject.utr);
    const json = JSON.parse((await cli('payments:list', '--json')).text) as Array<{ id: string; status: string }>;
    expect(json.map((p) => p.id).sort()).toEqual([toApprove.id, toReject.id].sort());

    const approved = await cli('payments:approve', toApprove.id, '--notes', 'Matched on statement');
    expect(approved).toMatchObject({ code: 0, lines: [`Approved ${toApprove.id}: ₹5000.00 credited to CLI Payer Pvt Ltd (${biz.businessId}). Balance ₹5000.00.`] });
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(500_000);
    const [entry] = await listLedger(t.ctx.db, biz.businessId);
    expect(entry).toMatchObject({ kind: 'top_up', reference: toApprove.id, actorLabel: expect.stringMatching(/^cli:/) });
    const [audit] = await listAuditEntries(t.ctx.db, { subjectId: toApprove.id });
    expect(audit).toMatchObject({ action: 'payment.approved', actorUserId: null, actorLabel: expect.stringMatching(/^cli:/), details: { notes: 'Matched on statement' } });

    const again = await cli('payments:approve', toApprove.id);
    expect(again.code).toBe(1);
    expect(again.errors[0]).toBe('This payment was already approved; its credit was added once.');

    const rejected = await cli('payments:reject', toReject.id, '--reason', 'Not on the statement');
    expect(rejected).toMatchObject({ code: 0, lines: [`Rejected ${toReject.id} (₹5000.00, CLI Payer Pvt Ltd): Not on the statement`] });
    const [rejectAudit] = await listAuditEntries(t.ctx.db, { subjectId: toReject.id });
    expect(rejectAudit).toMatchObject({ action: 'payment.rejected', actorLabel: expect.stringMatching(/^cli:/) });
    const seen = (await call(t.app, 'GET', '/api/business/payment-requests', biz.cookie)).json();
    expect(seen.map((p: { status: string; reason: string | null }) => [p.status, p.reason]).sort()).toEqual([
      ['approved', null],
      ['rejected', 'Not on the statement'],
    ]);
    expect((await cli('payments:list', '--status', 'approved')).text).toContain(toApprove.id);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(500_000);
  });

  it('refuses bad usage (64) and unknown ids (1)', async () => {
    const biz = await createBusiness(t.app, 'CLI Usage Co');
    const pending = await submitPayment(t.app, biz.cookie);
    for (const argv of [
      ['payments:approve'],
      ['payments:reject', pending.id],
      ['payments:reject', pending.id, '--reason', '   '],
      ['payments:reject', '--reason', 'x'],
      ['payments:list', '--status', 'lost'],
      ['payments:approve', pending.id, '--bogus'],
    ]) {
      expect((await cli(...argv)).code, argv.join(' ')).toBe(64);
    }
    const unknown = await cli('payments:approve', 'pmt_nope');
    expect(unknown).toMatchObject({ code: 1, errors: ['No such payment request.'] });
    expect((await call(t.app, 'GET', '/api/business/payment-requests', biz.cookie)).json()[0].status).toBe('pending');
  });

  it('prints a company name with terminal escape codes as text (no screen cleared, no forged lines)', async () => {
    const hostile = 'Evil\u001b[2J\u001b[H\u009b31mCo\rFake\nID  STATUS';
    const biz = await createBusiness(t.app, 'Escape Test Co');
    await t.ctx.db.updateTable('business').set({ company_name: hostile }).where('id', '=', biz.businessId).execute();
    const payment = await submitPayment(t.app, biz.cookie);
    const outputs = [
      await cli('payments:list', '--status', 'pending'),
      await cli('credits:show', biz.businessId),
      await cli('payments:approve', payment.id),
    ];
    for (const output of outputs) {
      expect(output.code).toBe(0);
      // eslint-disable-next-line no-control-regex
      for (const line of output.lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(output.text).toContain('Evil\\u001b[2J\\u001b[H\\u009b31mCo\\u000dFake\\u000aID  STATUS');
    }
    expect(outputs[0]!.lines.filter((l) => l.includes(payment.id))).toHaveLength(1);
  });
});
