import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { call, createBusiness, qrOptions, signIn, submitPayment } from '../../../../test/support/payments';
import { bearer, fund, totpCode, unique } from '../../../../test/support/verify-api';
import { createContext } from '../../context';
import { openDatabase } from '../../db';
import { toNumber } from '../../db/normalize';
import { ledgerTotals } from '../credits/repo';
import { UpkeepJob } from './job';
import { IDEMPOTENCY_TTL_MS, runUpkeep, UPKEEP_LOCK_KEY } from './service';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describeEachDialect('upkeep', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const count = async (table: 'session' | 'payment_reference' | 'payment_request' | 'idempotency_record' | 'admin_mfa_session' | 'admin_mfa_attempt' | 'totp_verification', businessId?: string) => {
    let q = t.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (businessId) q = q.where('business_id' as never, '=', businessId as never);
    return toNumber((await q.executeTakeFirstOrThrow()).n);
  };
  const sessionIdOf = async (cookie: string) => {
    const token = decodeURIComponent(cookie.split('; ').find((c) => c.includes('session_token='))!.split('=')[1]!).split('.')[0]!;
    return (await t.ctx.db.selectFrom('session').select('id').where('token', '=', token).executeTakeFirstOrThrow()).id;
  };

  it('removes expired sessions (and their admin MFA marks) but keeps live ones working', async () => {
    const stale = await signIn(t.app, `${unique('stale')}@example.com`);
    const live = await signIn(t.app, `${unique('live')}@example.com`);
    const staleId = await sessionIdOf(stale);
    const liveId = await sessionIdOf(live);
    const userId = (await t.ctx.db.selectFrom('session').select('userId').where('id', '=', staleId).executeTakeFirstOrThrow()).userId;
    await t.ctx.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', staleId).execute();
    for (const sessionId of [staleId, liveId]) await t.ctx.db.insertInto('admin_mfa_session').values({ session_id: sessionId, user_id: userId, verified_at: new Date() }).execute();

    const report = await runUpkeep(t.ctx);
    expect(report?.sessions).toBeGreaterThanOrEqual(1);
    expect(await t.ctx.db.selectFrom('session').select('id').where('id', 'in', [staleId, liveId]).execute()).toEqual([{ id: liveId }]);
    expect((await t.ctx.db.selectFrom('admin_mfa_session').select('session_id').where('session_id', 'in', [staleId, liveId]).execute()).map((r) => r.session_id)).toEqual([liveId]);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: live } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: stale } })).statusCode).toBe(401);
  });

  it('removes expired payment references nobody paid against; one with a payment request stays, and so does the money', async () => {
    const biz = await createBusiness(t.app, 'Upkeep Pay');
    const paid = await submitPayment(t.app, biz.cookie); // makes the four references, pays against the first
    const refs = await t.ctx.db.selectFrom('payment_reference').select(['id', 'reference']).where('business_id', '=', biz.businessId).execute();
    expect(refs.length).toBeGreaterThan(1);
    // Still valid: nothing goes.
    await runUpkeep(t.ctx);
    expect(await count('payment_reference', biz.businessId)).toBe(refs.length);

    await t.ctx.db.updateTable('payment_reference').set({ expires_at: new Date(Date.now() - 1000) }).where('business_id', '=', biz.businessId).execute();
    const report = await runUpkeep(t.ctx);
    expect(report?.paymentReferences).toBeGreaterThanOrEqual(refs.length - 1);
    const left = await t.ctx.db.selectFrom('payment_reference').select('reference').where('business_id', '=', biz.businessId).execute();
    expect(left.map((r) => r.reference)).toEqual([paid.paymentReference]);
    expect(await count('payment_request', biz.businessId)).toBe(1);
    // A fresh set of options is made on the next visit.
    expect((await qrOptions(t.app, biz.cookie)).option1.paymentReference).not.toBe(paid.paymentReference);
  });

  it('removes idempotency records older than 24 h and keeps younger ones (their retries still replay)', async () => {
    const biz = await createBusiness(t.app, 'Upkeep Idem');
    await fund(t.ctx, biz.businessId, 1_000);
    // One token for every call: the retry's body must be the first's, and a 30-s boundary would change it (409).
    const token = totpCode('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    const check = (key: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: { ...bearer(biz.apiKey), 'idempotency-key': key }, payload: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', token } });
    expect((await check('old-key')).statusCode).toBe(200);
    expect((await check('young-key')).statusCode).toBe(200);
    await t.ctx.db
      .updateTable('idempotency_record')
      .set({ created_at: new Date(Date.now() - IDEMPOTENCY_TTL_MS - HOUR) })
      .where('business_id', '=', biz.businessId)
      .where('idempotency_key', '=', 'old-key')
      .execute();
    const report = await runUpkeep(t.ctx);
    expect(report?.idempotencyRecords).toBeGreaterThanOrEqual(1);
    const keys = await t.ctx.db.selectFrom('idempotency_record').select('idempotency_key').where('business_id', '=', biz.businessId).execute();
    expect(keys.map((k) => k.idempotency_key)).toEqual(['young-key']);
    const retry = await check('young-key');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await count('totp_verification', biz.businessId)).toBe(2);
  });

  it('removes admin MFA attempts older than a day and better-auth records past their expiry', async () => {
    const user = await signIn(t.app, `${unique('mfa')}@example.com`);
    const userId = (await t.ctx.db.selectFrom('session').select('userId').where('id', '=', await sessionIdOf(user)).executeTakeFirstOrThrow()).userId;
    await t.ctx.db.insertInto('admin_mfa_attempt').values([
      { id: unique('old-attempt'), user_id: userId, created_at: new Date(Date.now() - DAY - HOUR) },
      { id: unique('new-attempt'), user_id: userId, created_at: new Date() },
    ]).execute();
    const now = new Date();
    for (const [id, expiresAt] of [['ver-old', new Date(Date.now() - 1000)], ['ver-new', new Date(Date.now() + HOUR)]] as const) {
      await sql`insert into ${sql.table('verification')} (${sql.ref('id')}, ${sql.ref('identifier')}, ${sql.ref('value')}, ${sql.ref('expiresAt')}, ${sql.ref('createdAt')}, ${sql.ref('updatedAt')}) values (${id}, ${id}, ${'state'}, ${expiresAt}, ${now}, ${now})`.execute(t.ctx.db);
    }
    await runUpkeep(t.ctx);
    expect((await t.ctx.db.selectFrom('admin_mfa_attempt').select('id').where('user_id', '=', userId).execute()).map((r) => r.id)).toEqual([expect.stringMatching(/^new-attempt/)]);
    const left = await sql<{ id: string }>`select ${sql.ref('id')} from ${sql.table('verification')} where ${sql.ref('id')} in (${'ver-old'}, ${'ver-new'})`.execute(t.ctx.db);
    expect(left.rows.map((r) => r.id)).toEqual(['ver-new']);
  });

  it('keeps every verification by default; with a retention it erases who and why but keeps rows and costs, so the ledger stays exact', async () => {
    const biz = await createBusiness(t.app, 'Upkeep Keep');
    await fund(t.ctx, biz.businessId, 1_000);
    const userId = unique('kept-user');
    const enrolled = await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(biz.apiKey), payload: { user_id: userId } });
    const { secret } = enrolled.json();
    for (const code of [totpCode(secret), '000000']) {
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: userId, totp_code: code, purpose: 'login' } })).statusCode).toBe(200);
    }
    // Both old enough for any retention, and one finished webhook delivery of the same age.
    await t.ctx.db.updateTable('totp_verification').set({ created_at: new Date(Date.now() - 400 * DAY) }).where('business_id', '=', biz.businessId).execute();
    const hook = await call(t.app, 'POST', '/api/webhooks', biz.cookie, { url: 'http://127.0.0.1:9/never', events: ['verification.success'] }, { 'sec-fetch-site': 'same-origin' });
    expect(hook.statusCode).toBe(201);
    const old = new Date(Date.now() - 400 * DAY);
    const delivery = (id: string, status: 'succeeded' | 'pending') => ({
      id, webhook_id: hook.json().id, business_id: biz.businessId, event: 'verification.success', payload: JSON.stringify({ user_id: userId }), verification_id: null,
      status, attempt_count: 1, next_attempt_at: old, locked_until: null, last_status_code: 200, last_error: null, last_response_ms: 5, created_at: old, updated_at: old,
    });
    await t.ctx.db.insertInto('webhook_delivery').values([delivery(unique('whd-done'), 'succeeded'), delivery(unique('whd-due'), 'pending')]).execute();
    const before = await ledgerTotals(t.ctx.db, biz.businessId);

    // Default (0): nothing about verifications changes.
    expect((await runUpkeep(t.ctx))?.verificationsErased).toBe(0);
    expect(await t.ctx.db.selectFrom('totp_verification').select('id').where('external_user_id', '=', userId).execute()).toHaveLength(2);

    const retaining = { ...t.ctx, config: { ...t.ctx.config, upkeep: { ...t.ctx.config.upkeep, verificationRetentionDays: 365 } } };
    const report = await runUpkeep(retaining);
    expect(report?.verificationsErased).toBeGreaterThanOrEqual(2);
    const rows = await t.ctx.db.selectFrom('totp_verification').select(['external_user_id', 'purpose', 'cost_paise', 'status']).where('business_id', '=', biz.businessId).orderBy('status').execute();
    expect(rows.map((r) => [r.external_user_id, r.purpose, toNumber(r.cost_paise), r.status])).toEqual([
      [null, null, 10, 'invalid_code'],
      [null, null, 10, 'verified'],
    ]);
    const after = await ledgerTotals(t.ctx.db, biz.businessId);
    expect(after).toEqual(before);
    expect(after.balancePaise).toBe(after.creditedPaise - after.spentPaise);
    expect((await t.ctx.db.selectFrom('webhook_delivery').select('status').where('webhook_id', '=', hook.json().id).execute()).map((d) => d.status)).toEqual(['pending']);
  });

  it('is safe to run from several instances at once: overlapping passes remove each row once and fail nowhere', async () => {
    const sessions = await Promise.all(Array.from({ length: 6 }, (_, i) => signIn(t.app, `${unique(`race${i}`)}@example.com`)));
    const ids = await Promise.all(sessions.map(sessionIdOf));
    await t.ctx.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', 'in', ids).execute();
    const other = createContext(t.ctx.config, openDatabase(t.ctx.config.database));
    try {
      const reports = await Promise.all([runUpkeep(t.ctx), runUpkeep(other), runUpkeep(t.ctx)]);
      const ran = reports.filter((r) => r !== undefined);
      expect(ran.length).toBeGreaterThanOrEqual(1);
      expect(ran.reduce((n, r) => n + r.sessions, 0)).toBe(ids.length);
      expect(await t.ctx.db.selectFrom('session').select('id').where('id', 'in', ids).execute()).toEqual([]);
    } finally {
      await other.database.close();
    }
  });

  if (dialect === 'postgres') it('on PostgreSQL a pass is skipped while another instance holds the upkeep lock', async () => {
    const stale = await sessionIdOf(await signIn(t.app, `${unique('locked')}@example.com`));
    await t.ctx.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', stale).execute();
    const other = createContext(t.ctx.config, openDatabase(t.ctx.config.database));
    try {
      await other.db.connection().execute(async (conn) => {
        await sql`select pg_advisory_lock(${UPKEEP_LOCK_KEY})`.execute(conn);
        try {
          expect(await runUpkeep(t.ctx)).toBeUndefined();
          expect(await t.ctx.db.selectFrom('session').select('id').where('id', '=', stale).execute()).toHaveLength(1);
        } finally {
          await sql`select pg_advisory_unlock(${UPKEEP_LOCK_KEY})`.execute(conn);
        }
      });
      expect((await runUpkeep(t.ctx))?.sessions).toBeGreaterThanOrEqual(1);
    } finally {
      await other.database.close();
    }
  });

  it('runs on its own inside the server at the configured interval', async () => {
    const stale = await sessionIdOf(await signIn(t.app, `${unique('job')}@example.com`));
    await t.ctx.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', stale).execute();
    const job = new UpkeepJob(t.ctx, { intervalMs: 50, firstDelayMs: 0 });
    job.start();
    try {
      for (let i = 0; i < 100 && (await t.ctx.db.selectFrom('session').select('id').where('id', '=', stale).execute()).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await t.ctx.db.selectFrom('session').select('id').where('id', '=', stale).execute()).toEqual([]);
    } finally {
      await job.stop();
    }
  });
});
