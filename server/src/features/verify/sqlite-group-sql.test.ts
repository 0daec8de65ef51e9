import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/support/db';
import { createBusiness, enrolMany } from '../../../../test/support/verify-api';
import { SQLITE_ADVANCE_STEP, SQLITE_ENROLMENTS, sqliteAdvanceStepRow } from './sqlite-group-sql';

/**
 * The replay guard's statement finds the enrolment by the rowid the group's read returned (not
 * through the index of random ids), and holds to the enrolment's id: a rowid of another row
 * advances nothing.
 */
describe('SQLITE_ADVANCE_STEP: the replay guard by rowid [sqlite]', () => {
  let t: TestApp;
  let rows: Array<{ row_id: number; id: string; external_user_id: string }>;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const biz = await createBusiness(t.app, 'Guard Co');
    const users = await enrolMany(t.ctx, biz.businessId, 3);
    const read = t.ctx.database.sqlite!.prepare(SQLITE_ENROLMENTS);
    rows = read.all([JSON.stringify(users.map((u) => [biz.businessId, 1, u.userId]))]) as typeof rows;
  });
  afterAll(async () => {
    await t?.close();
  });

  const advance = (guard: Parameters<typeof sqliteAdvanceStepRow>[0]) =>
    t.ctx.database.sqlite!.prepare(SQLITE_ADVANCE_STEP).run(sqliteAdvanceStepRow(guard, new Date().toISOString())).changes;
  const lastStep = async (id: string) => (await t.ctx.db.selectFrom('enrolment').select('last_used_step').where('id', '=', id).executeTakeFirstOrThrow()).last_used_step;

  it('the group read returns each enrolment with its rowid', () => {
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Number.isInteger(row.row_id) && row.row_id > 0).toBe(true);
  });

  it('advances once per step by rowid; the same step again is a replay', async () => {
    const [a] = rows;
    expect(advance({ enrolmentId: a!.id, rowId: a!.row_id, step: 1000 })).toBe(1);
    expect(advance({ enrolmentId: a!.id, rowId: a!.row_id, step: 1000 })).toBe(0);
    expect(advance({ enrolmentId: a!.id, rowId: a!.row_id, step: 999 })).toBe(0);
    expect(await lastStep(a!.id)).toBe(1000);
  });

  it('without a rowid (an enrolment read another way) finds the row by id', async () => {
    const [, b] = rows;
    expect(advance({ enrolmentId: b!.id, rowId: null, step: 2000 })).toBe(1);
    expect(advance({ enrolmentId: b!.id, step: 2000 })).toBe(0);
    expect(await lastStep(b!.id)).toBe(2000);
  });

  it("another row's rowid advances nothing: the id must match too", async () => {
    const [a, , c] = rows;
    expect(advance({ enrolmentId: c!.id, rowId: a!.row_id, step: 5000 })).toBe(0);
    expect(await lastStep(a!.id)).toBe(1000);
    expect(await lastStep(c!.id)).toBeNull();
  });
});
