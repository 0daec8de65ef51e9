import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { isUniqueViolation } from '../../db/errors';
import { up } from '../../db/migrations/20261125100100_desk_impersonation_one_live';

describeEachDialect('migration: one live impersonation per administrator', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const row = (id: string, admin: string, startedMinutesAgo: number) => {
    const startedAt = new Date(Date.now() - startedMinutesAgo * 60_000);
    return {
      id,
      admin_user_id: admin,
      admin_email: `${admin}@example.com`,
      target_user_id: 'usr_t',
      target_email: 't@example.com',
      session_id: `ses_${id}`,
      reason: 'r',
      started_at: startedAt,
      expires_at: new Date(startedAt.getTime() + 30 * 60_000),
      ended_at: null,
    };
  };

  it('keeps the newest open one per administrator open, closes the older ones at their expiry, then refuses a second', async () => {
    // As before the migration: overlapping open rows were possible.
    await t.ctx.db.schema.dropIndex('impersonation_one_live_uq').execute();
    await t.ctx.db.insertInto('impersonation').values([row('imp_old', 'adm', 20), row('imp_mid', 'adm', 10), row('imp_new', 'adm', 1), row('imp_other', 'adm2', 5)]).execute();
    await up(t.ctx.db);

    const open = await t.ctx.db.selectFrom('impersonation').select('id').where('ended_at', 'is', null).orderBy('id').execute();
    expect(open.map((r) => r.id)).toEqual(['imp_new', 'imp_other']);
    const closed = await t.ctx.db.selectFrom('impersonation').select(['ended_at', 'expires_at']).where('id', '=', 'imp_old').executeTakeFirstOrThrow();
    expect(new Date(closed.ended_at!).getTime()).toBe(new Date(closed.expires_at).getTime());

    const second = await t.ctx.db.insertInto('impersonation').values(row('imp_second', 'adm', 0)).execute().catch((err: unknown) => err);
    expect(isUniqueViolation(second)).toBe(true);
  });
});
