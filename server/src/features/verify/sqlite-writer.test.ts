import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOW_BALANCE_THRESHOLD_PAISE } from '@common/pricing';
import { createTestApp, type TestApp } from '../../../../test/support/db';
import { balancePaise, bearer, createBusiness, enrolMany, fund, totpCode, wrongCode } from '../../../../test/support/verify-api';
import { ledgerTotals } from '../credits/repo';
import { liveWriterOf } from './service';
import { SqliteGroupWriter, SqliteLoopWriter, type LiveGroupWriter } from './sqlite-writer';

/**
 * SQLite: live groups of checks are read, decided and written in one synchronous call
 * (sqlite-group-write.ts), on the event loop's connection (the default) or on a worker thread
 * with its own connection (SQLITE_WRITER=thread); a group that needs the careful way (a business
 * that cannot pay, a debit crossing a line, live webhook endpoints) is refused, kept nowhere, and
 * written again the careful way. Every case below runs against both writers.
 */
/** A funded business, its checks sent at once, the ledger checked: on the app `app()` gives. */
function helpers(app: () => TestApp) {
  async function business(name: string, paise: number) {
    const { ctx } = app();
    const biz = await createBusiness(app().app, name);
    await ctx.db.updateTable('business').set({ rate_limit_per_minute: 10_000 }).where('id', '=', biz.businessId).execute();
    await fund(ctx, biz.businessId, paise);
    return biz;
  }
  const verifyAll = (apiKey: string, payloads: object[]) =>
    Promise.all(payloads.map((payload) => app().app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(apiKey), payload })));
  async function expectLedgerExact(businessId: string) {
    const totals = await ledgerTotals(app().ctx.db, businessId);
    expect(totals.balancePaise).toBe(totals.creditedPaise - totals.spentPaise);
  }
  return { business, verifyAll, expectLedgerExact };
}

const writers = [
  { where: 'on the event loop (SQLITE_WRITER unset)', env: {}, kind: SqliteLoopWriter },
  { where: 'on the writer thread (SQLITE_WRITER=thread)', env: { SQLITE_WRITER: 'thread' }, kind: SqliteGroupWriter },
];

describe.each(writers)('verify: SQLite live groups in one call, $where [sqlite]', ({ env, kind }) => {
  let t: TestApp;
  let writer: LiveGroupWriter;
  beforeAll(async () => {
    t = await createTestApp('sqlite', env);
    writer = liveWriterOf(t.ctx)!;
  });
  afterAll(async () => {
    await t?.close();
  });

  const { business, verifyAll, expectLedgerExact } = helpers(() => t);

  /** What the writer answered while `work` ran. */
  async function countsDuring(work: () => Promise<void>) {
    const before = { ...writer.counts };
    await work();
    return { written: writer.counts.written - before.written, refused: writer.counts.refused - before.refused, failed: writer.counts.failed - before.failed };
  }

  it('writes live groups in one call: each answer as the careful way gives it, every check recorded and charged once', async () => {
    const biz = await business('Thread Ltd', 100_000);
    const users = await enrolMany(t.ctx, biz.businessId, 60);
    const stateless = Array.from({ length: 10 }, () => new Secret({ size: 20 }).base32);
    let answers: Awaited<ReturnType<typeof verifyAll>> = [];
    const counts = await countsDuring(async () => {
      answers = await verifyAll(biz.apiKey, [
        ...users.map((u, i) => ({ user_id: u.userId, totp_code: i % 4 === 0 ? wrongCode(u.secret) : totpCode(u.secret), purpose: i === 1 ? "o'brien \\ ✓" : undefined })),
        ...stateless.map((secret, i) => ({ secret: secret.toLowerCase(), token: i % 2 ? totpCode(secret) : wrongCode(secret) })),
        { user_id: 'nobody-here', totp_code: '123456' },
      ]);
    });
    expect(counts.written).toBeGreaterThan(0);
    expect(counts.refused + counts.failed).toBe(0);
    expect(answers.slice(0, 70).map((a) => a.statusCode)).toEqual(Array(70).fill(200));
    expect(answers[70]!.statusCode).toBe(404);
    expect(answers[70]!.json().error.code).toBe('not_found');
    expect(answers.filter((a) => a.statusCode === 200 && a.json().verified)).toHaveLength(45 + 5);
    // Each answer carries the balance right after its own charge: 70 distinct balances.
    const balances = answers.slice(0, 70).map((a) => Number(a.json().balance));
    expect(new Set(balances).size).toBe(70);
    expect(Math.min(...balances)).toBe((100_000 - 70 * 10) / 100);
    const rows = await t.ctx.db.selectFrom('totp_verification').select(['id', 'status', 'purpose', 'mode', 'response_time_ms']).where('business_id', '=', biz.businessId).execute();
    expect(rows).toHaveLength(70);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(answers.slice(0, 70).map((a) => a.json().verification_id)));
    expect(rows.filter((r) => r.mode === 'stateless')).toHaveLength(10);
    expect(rows.some((r) => r.purpose === "o'brien \\ ✓")).toBe(true);
    expect(rows.every((r) => r.response_time_ms >= 0 && r.response_time_ms < 60_000)).toBe(true);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(100_000 - 70 * 10);
    await expectLedgerExact(biz.businessId);
  });

  it("keeps the replay guard and the throttle across the writer's groups", async () => {
    const biz = await business('Guard Ltd', 100_000);
    const [user, guessed] = await enrolMany(t.ctx, biz.businessId, 2);
    // One user's checks never share a group: these 20 go in 20 groups, in flight together.
    const code = totpCode(user!.secret); // one value for all 20: a 30-s boundary between them would change it
    const same = await verifyAll(biz.apiKey, Array.from({ length: 20 }, () => ({ user_id: user!.userId, totp_code: code })));
    expect(same.filter((a) => a.json().status === 'verified')).toHaveLength(1);
    expect(same.filter((a) => a.json().status === 'replayed')).toHaveLength(19);
    const guesses = await verifyAll(biz.apiKey, Array.from({ length: 12 }, () => ({ user_id: guessed!.userId, totp_code: wrongCode(guessed!.secret) })));
    expect(guesses.filter((a) => a.statusCode === 200)).toHaveLength(5);
    expect(guesses.filter((a) => a.statusCode === 429 && a.json().error.code === 'too_many_attempts' && Number(a.headers['retry-after']) > 0)).toHaveLength(7);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(100_000 - 25 * 10);
    await expectLedgerExact(biz.businessId);
  });

  it('a business that cannot pay is refused by the writer: exactly what the credit pays is answered 200, the rest 402', async () => {
    const biz = await business('Short Ltd', 30 * 10);
    const users = await enrolMany(t.ctx, biz.businessId, 50);
    let answers: Awaited<ReturnType<typeof verifyAll>> = [];
    const counts = await countsDuring(async () => {
      answers = await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    });
    expect(counts.refused).toBeGreaterThan(0);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(30);
    expect(answers.filter((a) => a.statusCode === 402 && a.json().error.code === 'insufficient_credits')).toHaveLength(20);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
    await expectLedgerExact(biz.businessId);
  });

  it('a debit crossing the low-balance line is written the careful way: the owner is mailed once', async () => {
    const biz = await business('Low Ltd', LOW_BALANCE_THRESHOLD_PAISE + 5 * 10);
    const users = await enrolMany(t.ctx, biz.businessId, 20);
    let answers: Awaited<ReturnType<typeof verifyAll>> = [];
    const counts = await countsDuring(async () => {
      answers = await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    });
    expect(counts.refused).toBeGreaterThan(0);
    expect(answers.map((a) => a.statusCode)).toEqual(users.map(() => 200));
    const mails = await t.ctx.db.selectFrom('mail_outbox').select('dedupe_key').where('dedupe_key', 'like', `balance_low:${biz.businessId}:%`).execute();
    expect(mails).toHaveLength(1);
    await expectLedgerExact(biz.businessId);
  });

  it('another write during a burst (an enrolment, a grant) waits its turn and fails nothing', async () => {
    const biz = await business('Busy Ltd', 1_000_000);
    const users = await enrolMany(t.ctx, biz.businessId, 300);
    const [answers, enrolled] = await Promise.all([
      verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) }))),
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2 === 0
            ? t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(biz.apiKey), payload: { user_id: `during-burst-${i}` } })
            : fund(t.ctx, biz.businessId, 100).then(() => ({ statusCode: 201 })),
        ),
      ),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual(users.map(() => 200));
    expect(enrolled.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(1_000_000 + 5 * 100 - 300 * 10);
    await expectLedgerExact(biz.businessId);
  });

  it('is the configured writer', () => {
    expect(writer).toBeInstanceOf(kind);
  });

  it("waits for another transaction on the connection, and is never part of it: that one's rollback keeps every check", async () => {
    const biz = await business('Held Ltd', 1_000_000);
    const [first, ...users] = await enrolMany(t.ctx, biz.businessId, 6);
    // The key is looked up (and its last use written) now, so the checks below need nothing but their group.
    expect((await verifyAll(biz.apiKey, [{ user_id: first!.userId, totp_code: totpCode(first!.secret) }]))[0]!.statusCode).toBe(200);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let renamed!: () => void;
    const begun = new Promise<void>((resolve) => (renamed = resolve));
    const other = t.ctx.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('business').set({ company_name: 'Renamed Ltd' }).where('id', '=', biz.businessId).execute();
        renamed();
        await held;
        throw new Error('rolled back on purpose');
      })
      .catch((err: Error) => err);
    await begun;
    let answers: Awaited<ReturnType<typeof verifyAll>> = [];
    const counts = await countsDuring(async () => {
      const sent = verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      answers = await sent;
    });
    expect(((await other) as Error).message).toBe('rolled back on purpose');
    // Written in one call once the other transaction ended, not failed over to the careful way.
    expect(counts).toMatchObject({ written: 1, failed: 0, refused: 0 });
    expect(answers.map((a) => a.statusCode)).toEqual(users.map(() => 200));
    const row = await t.ctx.db.selectFrom('business').select('company_name').where('id', '=', biz.businessId).executeTakeFirstOrThrow();
    expect(row.company_name).toBe('Held Ltd');
    const rows = await t.ctx.db.selectFrom('totp_verification').select('id').where('business_id', '=', biz.businessId).execute();
    expect(rows).toHaveLength(6);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(1_000_000 - 6 * 10);
    await expectLedgerExact(biz.businessId);
  });
});

describe('verify: the SQLite writer thread, lost and paused [sqlite]', () => {
  let t: TestApp;
  let writer: SqliteGroupWriter;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { SQLITE_WRITER: 'thread' });
    writer = liveWriterOf(t.ctx) as SqliteGroupWriter;
  });
  afterAll(async () => {
    await t?.close();
  });

  const { business, verifyAll, expectLedgerExact } = helpers(() => t);

  it('a thread that dies with groups in flight loses nothing and charges nothing twice; the next group starts a new one', async () => {
    const biz = await business('Crash Ltd', 100_000);
    const users = await enrolMany(t.ctx, biz.businessId, 200);
    const started = writer.counts.started;
    const burst = verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    // Kill the thread as soon as it has a group in flight.
    const inside = writer as unknown as { worker: import('node:worker_threads').Worker | null; pending: Map<number, unknown> };
    while (inside.pending.size === 0) await new Promise((r) => setImmediate(r));
    await inside.worker!.terminate();
    const answers = await burst;
    const ok = answers.filter((a) => a.statusCode === 200);
    // A group the thread had committed before it died answers 500 (never written twice); the rest are written the careful way.
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 500)).toBe(true);
    const rows = await t.ctx.db.selectFrom('totp_verification').select('id').where('business_id', '=', biz.businessId).execute();
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const a of ok) expect(rows.some((r) => r.id === a.json().verification_id)).toBe(true);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(100_000 - rows.length * 10);
    await expectLedgerExact(biz.businessId);
    const more = await enrolMany(t.ctx, biz.businessId, 5);
    const after = await verifyAll(biz.apiKey, more.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    expect(after.map((a) => a.statusCode)).toEqual(more.map(() => 200));
    expect(writer.counts.started).toBeGreaterThan(started);
  });

  // Last: it leaves the thread paused.
  it('a thread that keeps dying is paused: groups go the careful way, answered and charged as usual', async () => {
    const biz = await business('Paused Ltd', 100_000);
    const inside = writer as unknown as { worker: import('node:worker_threads').Worker | null };
    for (let i = 0; i < 3; i++) {
      const [u] = await enrolMany(t.ctx, biz.businessId, 1);
      await verifyAll(biz.apiKey, [{ user_id: u!.userId, totp_code: totpCode(u!.secret) }]);
      await inside.worker?.terminate();
    }
    const started = writer.counts.started;
    const users = await enrolMany(t.ctx, biz.businessId, 20);
    const answers = await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    expect(answers.map((a) => a.statusCode)).toEqual(users.map(() => 200));
    expect(writer.counts.started).toBe(started);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(100_000 - 23 * 10);
    await expectLedgerExact(biz.businessId);
  });
});

