import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/db';
import { TEST_POSTGRES_URL } from '../../../test/support/services';
import { bearer, createBusiness, enrolMany, fund, totpCode } from '../../../test/support/verify-api';

describe.skipIf(!inject('postgresAvailable'))('PostgreSQL connections ended under the server [postgres]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres');
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  /** Ends every connection to the app's database but this one, as a restart or an administrator would. */
  async function terminateAppConnections(): Promise<number> {
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      const database = new URL((t.ctx.config.database as { url: string }).url).pathname.slice(1);
      const { rows } = await admin.query('select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
      return rows.filter((r: { ended: boolean }) => r.ended).length;
    } finally {
      await admin.end();
    }
  }

  it('keeps serving when PostgreSQL ends its idle connections: a warning, and the next check is verified and charged', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const biz = await createBusiness(t.app, 'Restart Ltd');
    await fund(t.ctx, biz.businessId, 1_000);
    const [first, second] = await enrolMany(t.ctx, biz.businessId, 2);
    const check = (user: { userId: string; secret: string }) =>
      t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: user.userId, totp_code: totpCode(user.secret) } });
    // Both pools (the query builder's and the live writer's pipelined one) hold idle connections now.
    expect((await check(first!)).json().verified).toBe(true);

    expect(await terminateAppConnections()).toBeGreaterThan(0);
    await vi.waitFor(() => expect(warnings.mock.calls.some(([, options]) => (options as { code?: string } | undefined)?.code === 'SIXDIGIT_PG_IDLE_CONNECTION')).toBe(true));

    const after = await check(second!);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ verified: true, balance: '9.80' });
  });
});
