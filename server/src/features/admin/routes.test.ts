import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli';
import { ADMIN, adminWithFreshMfa, get, post } from '../../../../test/support/admin';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { createBusiness, signInWithRole, submitPayment } from '../../../../test/support/payments';
import { expectError, fund, unique } from '../../../../test/support/verify-api';

describeEachDialect('admin tools', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ cookie: admin } = await adminWithFreshMfa(t.app));
  });
  afterAll(async () => t?.close());

  describe('dashboard', () => {
    it('counts users, active keys, today\'s verifications and revenue from the rows, with the service status', async () => {
      const before = (await get(t.app, '/api/admin/dashboard', admin)).json();
      const biz = await createBusiness(t.app, 'Counted Co');
      await fund(t.ctx, biz.businessId, 50_000);
      const pending = await submitPayment(t.app, biz.cookie);
      const after = (await get(t.app, '/api/admin/dashboard', admin)).json();
      expect(after.totals.users).toBe(before.totals.users + 1);
      expect(after.totals.activeApiKeys).toBe(before.totals.activeApiKeys + 1);
      expect(after.pendingApprovals.count).toBe(before.pendingApprovals.count + 1);
      expect(after.pendingApprovals.items.map((p: { id: string }) => p.id)).toContain(pending.id);
      expect(after.service.database).toMatchObject({ ok: true });
      expect(after.service.database.latencyMs).toBeGreaterThanOrEqual(0);
      expect(after.service.redis).toEqual({ configured: false, ok: null, latencyMs: null });
      expect(after.service.webhooks).toEqual({ outboxDepth: expect.any(Number), oldestDueAgeSeconds: null });
      expect(after.service.worker).toMatchObject({ enabled: true, lastHeartbeatAt: null, ok: false });
      expect(after.recentActivity.length).toBeGreaterThan(0);
      expect(after.recentActivity[0]).toMatchObject({ action: expect.any(String), actorLabel: expect.any(String), createdAt: expect.any(String) });

      // Approving it is revenue today.
      expect((await post(t.app, `/api/admin/payments/${pending.id}/approve`, admin, { notes: 'seen on statement' })).statusCode).toBe(200);
      const paid = (await get(t.app, '/api/admin/dashboard', admin)).json();
      expect(Number(paid.totals.revenueToday)).toBe(Number(before.totals.revenueToday) + Number(pending.amount));
    });
  });

  describe('payments', () => {
    it('shows counts, the pending amount, the average processing time and the lists; approve credits once, reject needs a reason', async () => {
      const biz = await createBusiness(t.app, 'Paying Co');
      const one = await submitPayment(t.app, biz.cookie);
      const two = await submitPayment(t.app, biz.cookie);
      const view = (await get(t.app, '/api/admin/payments', admin)).json();
      expect(view.counts.pending).toBeGreaterThanOrEqual(2);
      expect(view.pending.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([one.id, two.id]));
      expect(Number(view.pendingAmount)).toBeGreaterThanOrEqual(Number(one.amount) + Number(two.amount));

      expect((await post(t.app, `/api/admin/payments/${one.id}/approve`, admin)).statusCode).toBe(200);
      expectError(await post(t.app, `/api/admin/payments/${one.id}/approve`, admin), 409, 'conflict');
      const ledger = await t.ctx.db.selectFrom('ledger_entry').selectAll().where('reference', '=', one.id).execute();
      expect(ledger).toHaveLength(1);
      expectError(await post(t.app, `/api/admin/payments/${two.id}/reject`, admin, {}), 400, 'validation_failed');
      expect((await post(t.app, `/api/admin/payments/${two.id}/reject`, admin, { reason: 'UTR not on the statement' })).statusCode).toBe(200);

      const after = (await get(t.app, '/api/admin/payments', admin)).json();
      expect(after.recent.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([one.id, two.id]));
      expect(after.recent.length).toBeLessThanOrEqual(5);
      expect(after.avgProcessingSeconds).toBeGreaterThanOrEqual(0);
      expectError(await post(t.app, '/api/admin/payments/pmt_missing/approve', admin), 404, 'not_found');
    });
  });

  describe('roles', () => {
    it('assigns and removes Financial Manager by e-mail; removal closes the desk at once; audited', async () => {
      const email = `${unique('fm')}@example.com`;
      const person = await signIn(t.app, email, 'Fiona Manager');
      expectError(await get(t.app, '/api/financial/pending-approvals', person), 403, 'forbidden');
      const assigned = await post(t.app, '/api/admin/assign-financial-manager', admin, { userEmail: `  ${email.toUpperCase()} ` });
      expect(assigned.statusCode).toBe(200);
      expect(assigned.json()).toEqual({ user: { id: expect.any(String), email, role: 'financial_manager' } });
      expect((await get(t.app, '/api/financial/pending-approvals', person)).statusCode).toBe(200);
      expect((await get(t.app, '/api/admin/roles', admin)).json()).toMatchObject({ admin: { email: ADMIN }, financialManagers: expect.arrayContaining([expect.objectContaining({ email })]) });

      const removed = await post(t.app, '/api/admin/remove-financial-manager', admin, { userEmail: email });
      expect(removed.json()).toEqual({ user: { id: expect.any(String), email, role: 'user' } });
      expectError(await get(t.app, '/api/financial/pending-approvals', person), 403, 'forbidden');
      expectError(await post(t.app, '/api/admin/remove-financial-manager', admin, { userEmail: email }), 409, 'conflict');
      const audit = await t.ctx.db.selectFrom('audit_log').select('action').where('action', '=', 'user.role_changed').execute();
      expect(audit.length).toBeGreaterThanOrEqual(2);
    });

    it('answers the spec\'s messages for a missing or malformed e-mail, 404 for someone who never signed in, and never makes a second admin', async () => {
      const blank = await post(t.app, '/api/admin/assign-financial-manager', admin, { userEmail: '   ' });
      expectError(blank, 400, 'validation_failed');
      expect(blank.json().error.message).toContain('Email Required');
      const bad = await post(t.app, '/api/admin/assign-financial-manager', admin, { userEmail: 'not an email' });
      expect(bad.json().error.message).toContain('Invalid Email');
      const unknown = await post(t.app, '/api/admin/assign-financial-manager', admin, { userEmail: 'never-signed-in@example.com' });
      expectError(unknown, 404, 'not_found');
      expect(unknown.json().error.message).toContain('must sign in once first');
      expectError(await post(t.app, '/api/admin/assign-financial-manager', admin, { userEmail: ADMIN }), 409, 'conflict');
    });
  });

  describe('audit log', () => {
    it('filters by actor, action, target and dates, pages, and exports formula-safe CSV', async () => {
      const fm = await signInWithRole(t.ctx, t.app, 'financial_manager');
      const all = (await get(t.app, '/api/admin/audit?pageSize=200', admin)).json();
      expect(all.total).toBeGreaterThan(3);
      expect(all.page).toBe(1);

      const roleChanges = (await get(t.app, '/api/admin/audit?action=user.role_changed', admin)).json();
      expect(roleChanges.entries.length).toBeGreaterThan(0);
      expect(roleChanges.entries.every((e: { action: string }) => e.action === 'user.role_changed')).toBe(true);
      const mfa = (await get(t.app, '/api/admin/audit?action=admin.', admin)).json();
      expect(mfa.entries.map((e: { action: string }) => e.action)).toContain('admin.mfa_enabled');

      const byTarget = (await get(t.app, `/api/admin/audit?target=${fm.userId}`, admin)).json();
      expect(byTarget.entries.length).toBeGreaterThan(0);
      expect(byTarget.entries.every((e: { subjectId: string }) => e.subjectId === fm.userId)).toBe(true);
      const byActor = (await get(t.app, `/api/admin/audit?actor=${encodeURIComponent(ADMIN.toUpperCase())}`, admin)).json();
      expect(byActor.entries.every((e: { actorLabel: string }) => e.actorLabel.toLowerCase().includes(ADMIN))).toBe(true);

      const today = new Date().toISOString().slice(0, 10);
      expect((await get(t.app, `/api/admin/audit?from=${today}&to=${today}`, admin)).json().total).toBe(all.total);
      expect((await get(t.app, '/api/admin/audit?from=2020-01-01&to=2020-01-02', admin)).json().total).toBe(0);
      expectError(await get(t.app, '/api/admin/audit?from=2026-02-30', admin), 400, 'validation_failed');

      const page2 = (await get(t.app, '/api/admin/audit?page=2&pageSize=2', admin)).json();
      expect(page2.entries.map((e: { id: string }) => e.id)).toEqual(all.entries.slice(2, 4).map((e: { id: string }) => e.id));

      // A company name made to run as a spreadsheet formula leaves the CSV as text.
      await t.ctx.db.insertInto('audit_log').values({ id: 'aud_formula', actor_user_id: null, actor_label: '=HYPERLINK("http://evil")', action: 'test.formula', subject_type: null, subject_id: null, details: '{}', created_at: new Date() }).execute();
      const csv = await get(t.app, '/api/admin/audit.csv?action=test.formula', admin);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.headers['content-disposition']).toMatch(/attachment; filename="sixdigit-audit-/);
      const lines = csv.body.trim().split('\r\n');
      expect(lines[0]).toBe('id,created_at,actor,actor_user_id,action,subject_type,subject_id,details');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    });

    it('`audit:list` reads the same filters from the command line, printing control characters safely', async () => {
      await t.ctx.db.insertInto('audit_log').values({ id: 'aud_escape', actor_user_id: null, actor_label: 'evil\u001b[2Jname', action: 'test.escape', subject_type: null, subject_id: null, details: '{}', created_at: new Date() }).execute();
      const db = t.ctx.config.database;
      const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_EMAIL: ADMIN, APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), DATABASE_URL: db.kind === 'postgres' ? db.url : `sqlite:${db.file}` };
      const lines: string[] = [];
      const out = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };
      expect(await runCli(['audit:list', '--action', 'test.escape'], env, out)).toBe(0);
      expect(lines.join('\n')).toContain('evil\\u001b[2Jname');
      expect(lines.join('\n')).not.toContain('\u001b');
      expect(lines.at(-1)).toBe('1 of 1 entries.');
      expect(await runCli(['audit:list', '--from', 'yesterday'], env, out)).toBe(64);
    });
  });
});
