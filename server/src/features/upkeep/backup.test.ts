import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../../../../test/support/db';
import { bearer, createBusiness, fund, paise, totpCode, unique } from '../../../../test/support/verify-api';
import { buildApp } from '../../app';
import { runCli } from '../../cli';
import { createContext } from '../../context';
import { openDatabase } from '../../db';
import { ledgerTotals } from '../credits/repo';

const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

async function cli(argv: string[], env: Record<string, string>) {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runCli(argv, { NODE_ENV: 'test', LOG_LEVEL: 'silent', APP_ENCRYPTION_KEY: ENCRYPTION_KEY, ADMIN_EMAIL: 'admin@example.com', ...env }, {
    log: (l) => lines.push(l),
    error: (l) => errors.push(l),
  });
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

describe('npm run cli -- backup <file> (SQLite)', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'sixdigit-backup-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies the database while verifications keep being charged; the copy opens as a server with the ledger exact', async () => {
    if (t.ctx.config.database.kind !== 'sqlite') throw new Error('sqlite expected');
    const dbUrl = `sqlite:${t.ctx.config.database.file}`;
    const biz = await createBusiness(t.app, 'Backup Co');
    await fund(t.ctx, biz.businessId, 100_000);
    const users = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const userId = unique('bk');
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(biz.apiKey), payload: { user_id: userId } });
        return { userId, secret: res.json().secret as string };
      }),
    );

    // A write load that keeps going for the whole backup.
    let stop = false;
    let charged = 0;
    const load = (async () => {
      for (let i = 0; !stop && i < 5_000; i++) {
        const u = users[i % users.length]!;
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { secret: u.secret, token: totpCode(u.secret) } });
        if (res.statusCode === 200) charged += 1;
      }
    })();
    while (charged < 30) await new Promise((r) => setTimeout(r, 5));
    const chargedBefore = charged;
    const file = join(dir, 'copy.db');
    const result = await cli(['backup', file], { DATABASE_URL: dbUrl });
    const chargedAfter = charged;
    stop = true;
    await load;
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Backed up to .*copy\.db \(\d+ pages, \d+ bytes; integrity check ok\)\.$/);

    // The copy: a snapshot between the checks answered before and after the backup, ledger exact.
    const copy = openDatabase({ kind: 'sqlite', file });
    const totals = await ledgerTotals(copy.db, biz.businessId);
    const recorded = (await copy.db.selectFrom('totp_verification').select('cost_paise').where('business_id', '=', biz.businessId).execute()).length;
    await copy.close();
    expect(totals.balancePaise).toBe(totals.creditedPaise - totals.spentPaise);
    expect(totals.creditedPaise).toBe(100_000);
    expect(recorded).toBeGreaterThanOrEqual(chargedBefore);
    expect(recorded).toBeLessThanOrEqual(chargedAfter);
    expect(totals.spentPaise).toBe(recorded * 10);

    // Restore: a server over the copy answers with the copy's balance for the same key.
    const restoredCtx = createContext({ ...testConfig(), database: { kind: 'sqlite', file } }, openDatabase({ kind: 'sqlite', file }));
    const restored = await buildApp(restoredCtx);
    try {
      const profile = await restored.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(biz.apiKey) });
      expect(profile.statusCode).toBe(200);
      expect(paise(profile.json().balance)).toBe(totals.balancePaise);
    } finally {
      await restored.close();
    }
    // And the live database moved on without harm.
    const live = await ledgerTotals(t.ctx.db, biz.businessId);
    expect(live.balancePaise).toBe(live.creditedPaise - live.spentPaise);
    expect(live.spentPaise).toBe(charged * 10);
  });

  it('never overwrites a file, and refuses a missing argument or the database itself', async () => {
    if (t.ctx.config.database.kind !== 'sqlite') throw new Error('sqlite expected');
    const dbUrl = `sqlite:${t.ctx.config.database.file}`;
    const existing = join(dir, 'exists.db');
    writeFileSync(existing, 'precious');
    const refused = await cli(['backup', existing], { DATABASE_URL: dbUrl });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/already exists/);
    expect(readFileSync(existing, 'utf8')).toBe('precious');
    expect((await cli(['backup'], { DATABASE_URL: dbUrl })).code).toBe(64);
    const self = await cli(['backup', t.ctx.config.database.file], { DATABASE_URL: dbUrl });
    expect(self.code).toBe(1);
    expect(self.err).toMatch(/must not be the database itself/);
  });
});

describe.skipIf(!inject('postgresAvailable'))('npm run cli -- backup on PostgreSQL', () => {
  it('refuses and points at pg_dump, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sixdigit-backup-pg-'));
    const database = await createTestDatabase('postgres');
    try {
      const file = join(dir, 'copy.db');
      const result = await cli(['backup', file], { DATABASE_URL: (database.config as { url: string }).url });
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/pg_dump/);
      expect(existsSync(file)).toBe(false);
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
