import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, testConfig, type TestDatabase } from '../../../test/support/db';
import { createContext, migrateToLatest, type AppContext } from '../context';
import { insertAuditEntry, listAuditEntries } from '../features/audit/repo';

describeEachDialect('database engine', (dialect) => {
  let database: TestDatabase;
  let ctx: AppContext;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    ctx = createContext({ ...testConfig(), database: database.config }, database.open());
  });
  afterAll(async () => {
    await ctx?.database.close();
    await database?.drop();
  });

  it('migrates an empty database, and a second run has nothing to do', async () => {
    expect(await migrateToLatest(ctx)).toContain('20261121000000_audit_log');
    expect(await migrateToLatest(ctx)).toEqual([]);
  });

  it('stores and reads back timestamps, JSON and unicode identically', async () => {
    const at = new Date('2026-11-21T10:11:12.345Z');
    await insertAuditEntry(ctx.db, { actorUserId: null, actorLabel: 'système ✓', action: 'test', details: { n: 1, s: 'ü' } }, at);
    const [entry] = await listAuditEntries(ctx.db);
    expect(entry).toMatchObject({ actorLabel: 'système ✓', action: 'test', details: { n: 1, s: 'ü' } });
    expect(entry!.createdAt.toISOString()).toBe(at.toISOString());
  });

  it('binds booleans on both engines', async () => {
    const rows = await ctx.db.selectFrom('user').select('id').where('emailVerified', '=', false).execute();
    expect(rows).toEqual([]);
  });
});
