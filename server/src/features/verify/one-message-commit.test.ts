import { sql } from 'kysely';
import pg from 'pg';
import { Secret } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { LOW_BALANCE_THRESHOLD_PAISE } from '@common/pricing';
import { createTestApp, type TestApp } from '../../../../test/support/db';
import { balancePaise, bearer, createBusiness, fund, totpCode, wrongCode, enrolMany as enrolManyUsers } from '../../../../test/support/verify-api';
import { newId } from '../../lib/ids';
import { ledgerTotals } from '../credits/repo';

/**
 * PostgreSQL: a live group's write carries COMMIT in the same message (pg-group-write.ts),
 * and a group that needs the careful path — a business that cannot pay, a debit crossing a line
 * with a mail or an event behind it, a business with live webhook endpoints — is refused by the
 * database, kept nowhere, and written again the careful way.
 */
/** One query the app sent (see `sent`). */
interface Sent {
  text: string;
  name: string | undefined;
  values: unknown[];
  /** what was still unanswered on its connection when it was sent: its prepared statement's name, else its text */
  behind: string[];
  /** sent on a connection in pg's pipeline mode, which sends a query at once, not after the one before it is answered */
  pipelined: boolean;
  /** sent while its socket was corked: it leaves in one write with the rest of its round trip */
  corked: boolean;
}
const label = (s: Sent) => s.name ?? s.text.trim().toLowerCase();
/** The live writer's group write (a statement prepared once per connection). */
const LIVE_WRITE = 'sixdigit_record_group_lines';

describe.skipIf(!inject('postgresAvailable'))("verify: PostgreSQL's live writer, a group in two round trips [postgres]", () => {
  let t: TestApp;
  /**
   * Every query the app sent, in order: its text, its prepared statement's name (the live
   * writer's statements have one), its values, and what was still unanswered on the same
   * connection when it went: a query sent behind another is in the same round trip (pg's
   * pipeline mode sends it without waiting).
   */
  let sent: Sent[] = [];
  /** When set, what the live group's write answers in place of its real result (after it ran). */
  let afterWrite: ((result: unknown) => unknown) | null = null;
  /** When set, the next live group write fails as a dropped connection before it is sent. */
  let loseWrite = false;
  const realQuery = pg.Client.prototype.query;
  const socketOf = (client: pg.Client) => (client as unknown as { connection?: { stream?: { writableCorked?: number } } }).connection?.stream;
  const unanswered = new WeakMap<object, Set<Sent>>();
  beforeAll(async () => {
    t = await createTestApp('postgres');
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const config = (typeof args[0] === 'string' ? { text: args[0] } : args[0]) as { text?: unknown; name?: string; values?: unknown[] } | null;
      const pending = unanswered.get(this) ?? new Set<Sent>();
      unanswered.set(this, pending);
      const entry: Sent = { text: typeof config?.text === 'string' ? config.text : '', name: config?.name, values: config?.values ?? [], behind: [...pending].map(label), pipelined: this.pipeline === true, corked: socketOf(this)?.writableCorked ? true : false };
      sent.push(entry);
      const liveWrite = entry.name === LIVE_WRITE;
      if (liveWrite && loseWrite) {
        loseWrite = false;
        return Promise.reject(new Error('Connection terminated unexpectedly')) as never;
      }
      const result = (realQuery as (...a: unknown[]) => unknown).apply(this, args) as Promise<unknown>;
      if (result && typeof result.then === 'function') {
        pending.add(entry);
        const done = () => void pending.delete(entry);
        result.then(done, done);
      }
      const replace = afterWrite;
      if (replace && liveWrite) return result.then(replace) as never;
      return result as never;
    });
  });
  afterEach(() => {
    sent = [];
    afterWrite = null;
    loseWrite = false;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  const enrolMany = (businessId: string, count: number) => enrolManyUsers(t.ctx, businessId, count);

  async function business(name: string, paise: number) {
    const biz = await createBusiness(t.app, name);
    await t.ctx.db.updateTable('business').set({ rate_limit_per_minute: 10_000 }).where('id', '=', biz.businessId).execute();
    await fund(t.ctx, biz.businessId, paise);
    return biz;
  }

  /** The checks at once; `sent` then holds only what they sent (the setup's own transactions commit too). */
  const verifyAll = (apiKey: string, payloads: object[]) => {
    sent = [];
    return Promise.all(payloads.map((payload) => t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(apiKey), payload })));
  };

  /** The group writes: the live writer's (a prepared statement) and the careful way's. */
  const writes = () => sent.filter((s) => s.text.includes('sixdigit_record_group('));
  const liveWrites = () => sent.filter((s) => s.name === LIVE_WRITE);
  const isCommit = (s: Sent) => /^\s*commit\s*$/i.test(s.text);
  /** COMMITs sent in a round trip of their own (nothing else unanswered on the connection). */
  const separateCommits = () => sent.filter((s) => isCommit(s) && s.behind.length === 0);
  /** Each live write went with a COMMIT behind it, in the same round trip. */
  const expectEachLiveWriteCommitsInItsRoundTrip = () => {
    const writesSent = liveWrites();
    expect(writesSent.length).toBeGreaterThan(0);
    const commitsBehind = sent.filter((s) => isCommit(s) && s.behind.includes(LIVE_WRITE));
    expect(commitsBehind).toHaveLength(writesSent.length);
    expect([...writesSent, ...commitsBehind].every((s) => s.pipelined)).toBe(true);
  };

  async function expectLedgerExact(businessId: string) {
    const totals = await ledgerTotals(t.ctx.db, businessId);
    expect(totals.balancePaise).toBe(totals.creditedPaise - totals.spentPaise);
  }

  /**
   * A connection of its own that reports the plan of every statement it runs, the functions' own
   * included (auto_explain, sent to this client as notices). Its functions keep their plans
   * between calls, as the app's pooled connections do.
   */
  async function explainingConnection() {
    const client = new pg.Client({ connectionString: (t.ctx.config.database as { url: string }).url });
    await client.connect();
    const notices: string[] = [];
    client.on('notice', (n) => notices.push(n.message ?? ''));
    for (const setting of ["load 'auto_explain'", 'set auto_explain.log_min_duration = 0', 'set auto_explain.log_nested_statements = on', 'set auto_explain.log_level = notice', 'set client_min_messages = notice']) {
      await client.query(setting);
    }
    return {
      /** The plans of what `statements` ran, in a transaction rolled back. */
      async plans(statements: string[]): Promise<string> {
        notices.length = 0;
        await client.query('begin');
        try {
          for (const statement of statements) await client.query(statement);
        } finally {
          await client.query('rollback');
        }
        return notices.join('\n');
      },
      close: () => client.end(),
    };
  }

  // First in the file: the tables are nearly empty and nothing has run ANALYZE (autovacuum is
  // behind, or off as on this machine's PostgreSQL). The functions' plans are made now, once per
  // connection, and kept while the tables grow.
  it("keeps index plans made on empty tables as they grow: the group's reads and write never read a whole table", async () => {
    const biz = await business('Fresh Stats Ltd', 100_000);
    const connection = await explainingConnection();
    try {
      const [first] = await enrolMany(biz.businessId, 1);
      const calls = (userIds: string[], enrolmentId: string) => {
        const users = `array[${userIds.map(() => `'${biz.businessId}'`).join(',')}]::text[], array[${userIds.map(() => 'true').join(',')}]::boolean[], array[${userIds.map((u) => `'${u}'`).join(',')}]::text[]`;
        return [
          `select * from sixdigit_group_enrolments(${users})`,
          `select * from sixdigit_group_recent_checks(${users}, now() - interval '15 minutes', 5)`,
          `select * from sixdigit_record_group(now(), array['${enrolmentId}'], array[1]::bigint[], array['ver_plan_${Date.now()}'], array['${biz.businessId}'], array['${userIds[0]}'],
            array['managed'], array['totp'], array[null]::text[], array['verified'], array[10]::bigint[], array[1]::float8[], array['${enrolmentId}'], array[true], array['${biz.businessId}'], array[10]::bigint[], null)`,
        ];
      };
      const enrolmentId = async (userId: string) => (await t.ctx.db.selectFrom('enrolment').select('id').where('external_user_id', '=', userId).executeTakeFirstOrThrow()).id;
      await connection.plans(calls([first!.userId], await enrolmentId(first!.userId)));
      const users = await enrolMany(biz.businessId, 2_000);
      await sql`insert into totp_verification (id, business_id, external_user_id, mode, method, status, cost_paise, response_time_ms, created_at, livemode)
        select 'ver_fresh_' || g, ${biz.businessId}, ${users[0]!.userId}::text || (g % 500), 'managed', 'totp', 'invalid_code', 10, 1, now() - (g || ' ms')::interval, true
        from generate_series(1, 5000) as g`.execute(t.ctx.db);
      const plans = await connection.plans(calls(users.slice(0, 16).map((u) => u.userId), await enrolmentId(users[0]!.userId)));
      const kept = plans;
      // The enrolment read by the one key only its own index holds, never by the business's (business, mode, time) index.
      expect(kept).toMatch(/LockRows[\s\S]*Index Scan using enrolment_user_key_idx on enrolment/);
      expect(kept).not.toContain('enrolment_business_mode_time_idx');
      expect(kept).toMatch(/Index Scan Backward using verification_user_time_idx/);
      expect(kept).not.toContain('verification_business_mode_time_idx');
      expect(kept).toMatch(/Update on enrolment[\s\S]*Index Scan (using|on) enrolment_pkey/);
      expect(kept).toMatch(/Update on business[\s\S]*Index Scan (using|on) business_pkey/);
      expect(kept).not.toMatch(/Seq Scan on (enrolment|totp_verification|business)/);
    } finally {
      await connection.close();
    }
  });

  it("keeps the plans of the group's reads and write per connection; the group sends calls, not statements", async () => {
    const { rows } = await sql<{ proname: string; proconfig: string[] }>`
      select proname, proconfig from pg_proc where proname in ('sixdigit_group_enrolments', 'sixdigit_group_recent_checks', 'sixdigit_record_group') order by proname`.execute(t.ctx.db);
    expect(rows.map((r) => r.proname)).toEqual(['sixdigit_group_enrolments', 'sixdigit_group_recent_checks', 'sixdigit_record_group']);
    const settings = new Map(rows.map((r) => [r.proname, r.proconfig]));
    for (const kept of ['sixdigit_group_enrolments', 'sixdigit_group_recent_checks', 'sixdigit_record_group']) {
      expect(settings.get(kept)).toEqual(expect.arrayContaining(['plan_cache_mode=force_generic_plan', 'enable_seqscan=off', 'enable_hashjoin=off', 'enable_mergejoin=off']));
    }
    // What the app sends per group is the calls, prepared once per connection with the values
    // bound: nothing for PostgreSQL to parse or plan again but the values.
    const biz = await business('Calls Ltd', 100_000);
    const users = await enrolMany(biz.businessId, 20);
    await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    const groupStatements = sent.filter((s) => s.name?.startsWith('sixdigit_'));
    expect(new Set(groupStatements.map((s) => s.name))).toEqual(new Set(['sixdigit_group_reads', LIVE_WRITE]));
    for (const statement of groupStatements) {
      expect(statement.text).toMatch(/^select \* from sixdigit_\w+\(\$1::\w+(\[\])?(, \$\d+::[\w ]+(\[\])?)*\)$/);
      expect(statement.text).not.toContain(biz.businessId);
    }
  });

  it("updates an enrolment in place when a check verifies (HOT): its row stays on its page, so none of the table's indexes is written", async () => {
    const biz = await business('Hot Update Ltd', 100_000);
    const users = await enrolMany(biz.businessId, 300);
    // Every fifth user: a few checks per page, as users spread over time would give (a page
    // holds ~16 enrolments and has room for a few new versions; many at once would not fit).
    const checked = users.filter((_, i) => i % 5 === 0);
    const pages = async () =>
      new Map(
        (
          await sql<{ external_user_id: string; page: string }>`select external_user_id, (ctid::text::point)[0]::text as page from enrolment where business_id = ${biz.businessId}`.execute(t.ctx.db)
        ).rows.map((r) => [r.external_user_id, r.page]),
      );
    const before = await pages();
    const answers = await verifyAll(biz.apiKey, checked.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    expect(answers.map((a) => JSON.parse(a.body).verified)).toEqual(Array(checked.length).fill(true));
    const after = await pages();
    // With the table packed full (fillfactor 100), every new version would go to another page.
    expect(checked.filter((u) => after.get(u.userId) !== before.get(u.userId))).toEqual([]);
    const { rows } = await sql<{ reloptions: string[] | null }>`select reloptions from pg_class where relname = 'enrolment'`.execute(t.ctx.db);
    expect(rows[0]!.reloptions).toContain('fillfactor=70');
  });
  it('sends a live group in two round trips: BEGIN with the reads (one call), then the write with its COMMIT; no COMMIT of its own', async () => {
    const biz = await business('One Message Ltd', 100_000);
    const users = await enrolMany(biz.businessId, 60);
    const answers = await verifyAll(biz.apiKey, users.map((u, i) => ({ user_id: u.userId, totp_code: i % 4 === 0 ? wrongCode(u.secret) : totpCode(u.secret) })));
    expect(answers.map((a) => a.statusCode)).toEqual(users.map(() => 200));
    expect(answers.filter((a) => a.json().verified)).toHaveLength(45);
    expectEachLiveWriteCommitsInItsRoundTrip();
    // Each group's reads went as one call behind its BEGIN, and neither read on its own.
    const groups = liveWrites().length;
    expect(sent.filter((s) => s.name === 'sixdigit_group_reads' && s.behind.includes('begin') && s.pipelined)).toHaveLength(groups);
    expect(sent.filter((s) => s.name === 'sixdigit_group_enrolments' || s.name === 'sixdigit_group_recent_checks')).toEqual([]);
    // The write went after the reads were answered (it needs them), and nothing sent COMMIT on its own.
    for (const write of liveWrites()) expect(write.behind).toEqual([]);
    expect(separateCommits()).toEqual([]);
    // Each round trip's queries left in one write: the socket was corked while they were sent.
    expect(sent.filter((s) => s.pipelined).length).toBeGreaterThanOrEqual(groups * 4);
    expect(sent.filter((s) => s.pipelined && !s.corked).map(label)).toEqual([]);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(100_000 - 60 * 10);
    await expectLedgerExact(biz.businessId);
  });

  it('binds hostile text (quotes, backslashes, a statement) as values: stored as sent, nothing else runs', async () => {
    const biz = await business('Quote Ltd', 100_000);
    const users = await enrolMany(biz.businessId, 4);
    const purposes = ["o'brien", "x\\'; update business set balance_paise = 0; --", '$$ $tag$ E\'\\\\\'', 'naïve ✓ "double"'];
    const answers = await verifyAll(biz.apiKey, users.map((u, i) => ({ user_id: u.userId, totp_code: totpCode(u.secret), purpose: purposes[i] })));
    expect(answers.map((a) => a.json().verified)).toEqual([true, true, true, true]);
    const rows = await t.ctx.db.selectFrom('totp_verification').select(['purpose']).where('business_id', '=', biz.businessId).execute();
    expect(rows.map((r) => r.purpose).sort()).toEqual([...purposes].sort());
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(100_000 - 40);
    // The texts went as values (elements of an array's text, a quote or a backslash behind a
    // backslash), never into the statement.
    for (const write of liveWrites()) for (const purpose of purposes) expect(write.text).not.toContain(purpose);
    const sent = liveWrites().flatMap((w) => w.values as unknown[]).join('\n');
    for (const purpose of purposes) expect(sent).toContain(`"${purpose.replace(/[\\"]/g, '\\$&')}"`);
  });

  it("reads each user's throttle history by the user's index, at most 5 rows per user, whatever the business's last 15 minutes hold", async () => {
    // The earlier form, `(…) in (users) and created_at >= since`, let the planner choose: with
    // statistics from before the newest checks (they always lag a table filling in time order) it
    // took the business's (business, mode, time) index and read every check of the last 15
    // minutes once per user — measured with 300,000 checks of one business and 100,000 users:
    // 7.2 ms per 16-user read instead of 0.7 ms, worse with every check recorded. The LATERAL
    // form reads per user in the user's index order and stops at the limit.
    const biz = await business('Busy Ltd', 10);
    await sql`insert into totp_verification (id, business_id, external_user_id, mode, method, status, cost_paise, response_time_ms, created_at, livemode)
      select 'ver_old_' || g, ${biz.businessId}, 'user_' || (g % 20000), 'managed', 'totp', 'verified', 10, 1, now() - interval '2 hours' - (g || ' ms')::interval, true
      from generate_series(1, 60000) as g`.execute(t.ctx.db);
    await sql`analyze totp_verification`.execute(t.ctx.db);
    await sql`insert into totp_verification (id, business_id, external_user_id, mode, method, status, cost_paise, response_time_ms, created_at, livemode)
      select 'ver_busy_' || g, ${biz.businessId}, 'user_' || (g % 20000), 'managed', 'totp', 'verified', 10, 1, now() - (g || ' ms')::interval, true
      from generate_series(1, 20000) as g`.execute(t.ctx.db);
    const ids = Array.from({ length: 16 }, (_, i) => `'user_${7 + i * 1000}'`);
    const read = `select * from sixdigit_group_recent_checks(array[${ids.map(() => `'${biz.businessId}'`).join(',')}]::text[], array[${ids.map(() => 'true').join(',')}]::boolean[],
      array[${ids.join(',')}]::text[], '${new Date(Date.now() - 15 * 60_000).toISOString()}'::timestamptz, 5)`;
    const connection = await explainingConnection();
    try {
      const plan = await connection.plans([read]);
      expect(plan).toMatch(/Limit[\s\S]*Index Scan Backward using verification_user_time_idx/);
      expect(plan).not.toContain('verification_business_mode_time_idx');
    } finally {
      await connection.close();
    }
    // user_7 also has 7 newer checks in the window: the 2 newest are replays (not counted), so
    // the read gives the 5 newest others, newest first; and 1 check older than the window.
    await sql`insert into totp_verification (id, business_id, external_user_id, mode, method, status, cost_paise, response_time_ms, created_at, livemode)
      select 'ver_u7_' || g, ${biz.businessId}, 'user_7', 'managed', 'totp', case when g <= 2 then 'replayed' else 'invalid_code' end, 10, 1,
        now() + (100 - g || ' ms')::interval, true
      from generate_series(1, 7) as g
      union all select 'ver_u7_old', ${biz.businessId}, 'user_7', 'managed', 'totp', 'invalid_code', 10, 1, now() - interval '16 minutes', true`.execute(t.ctx.db);
    const rows = (await sql.raw<{ external_user_id: string; status: string }>(read).execute(t.ctx.db)).rows;
    const user7 = rows.filter((r) => r.external_user_id === 'user_7');
    expect(user7.map((r) => r.status)).toEqual(Array(5).fill('invalid_code'));
    expect(rows.filter((r) => r.external_user_id === 'user_1007')).toHaveLength(1);
  });

  it("reads a user's history after taking the user's lock: failures committed by the group that held it count (one call, two snapshots)", async () => {
    const biz = await business('Two Snapshots Ltd', 10_000);
    const [user] = await enrolMany(biz.businessId, 1);
    const call = (name: string, history: boolean) =>
      `select * from ${name}(array['${biz.businessId}']::text[], array[true]::boolean[], array['${user!.userId}']::text[]${history ? `, now() - interval '15 minutes', 5` : ''})`;
    const { url } = t.ctx.config.database as { url: string };
    const holder = new pg.Client({ connectionString: url });
    const reader = new pg.Client({ connectionString: url });
    await holder.connect();
    await reader.connect();
    try {
      // Another group holds the user's lock and records five failures.
      await holder.query('begin');
      await holder.query(call('sixdigit_group_enrolments', false));
      await holder.query(`insert into totp_verification (id, business_id, external_user_id, mode, method, status, cost_paise, response_time_ms, created_at, livemode)
        select 'ver_held_' || g, '${biz.businessId}', '${user!.userId}', 'managed', 'totp', 'invalid_code', 10, 1, now(), true from generate_series(1, 5) as g`);
      // This group's reads start now and wait for the lock.
      await reader.query('begin');
      const reading = reader.query({ text: call('sixdigit_group_reads', true), rowMode: 'array' });
      await vi.waitFor(async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%sixdigit_group_reads%'`.execute(t.ctx.db);
        expect(rows[0]!.n).toBe(1);
      });
      await holder.query('commit');
      const { rows } = await reading;
      await reader.query('commit');
      // The enrolment, then the five failures: the history's snapshot was taken after the lock was granted.
      expect(rows.map((r) => r[0])).toEqual(['enr', 'chk', 'chk', 'chk', 'chk', 'chk']);
    } finally {
      await holder.end();
      await reader.end();
    }
  });

  it('a stateless-only group sends BEGIN, the write and COMMIT in a single round trip', async () => {
    const biz = await business('Stateless One Ltd', 10_000 + 50_000);
    const checks = Array.from({ length: 20 }, (_, i) => {
      const secret = new Secret({ size: 20 }).base32;
      return { secret, token: i % 2 ? totpCode(secret) : wrongCode(secret) };
    });
    const answers = await verifyAll(biz.apiKey, checks);
    expect(answers.map((a) => a.statusCode)).toEqual(checks.map(() => 200));
    expectEachLiveWriteCommitsInItsRoundTrip();
    for (const write of liveWrites()) expect(write.behind).toEqual(['begin']);
    expect(sent.filter((s) => s.name === 'sixdigit_group_reads')).toEqual([]);
    expect(separateCommits()).toEqual([]);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(60_000 - 20 * 10);
  });

  it('a business that cannot pay is refused by the balance CHECK: exactly what the credit pays is answered 200, the rest 402, ledger exact', async () => {
    const biz = await business('Short One Ltd', 30 * 10);
    const users = await enrolMany(biz.businessId, 50);
    const answers = await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(30);
    expect(answers.filter((a) => a.statusCode === 402)).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 402).every((a) => a.json().error.code === 'insufficient_credits')).toBe(true);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
    await expectLedgerExact(biz.businessId);
    // The live write was refused by the CHECK and the group went the careful way (its write
    // without COMMIT, then the checks one by one), not some other failure's path.
    const groupWrites = writes();
    expect(groupWrites[0]!.name).toBe(LIVE_WRITE);
    expect(groupWrites.some((w) => w.name === undefined)).toBe(true);
  });

  it('a debit crossing the auto-refill threshold is written the careful way: one refill is due', async () => {
    const biz = await business('Refill Ltd', 50_000 + 3 * 10);
    await t.ctx.db
      .updateTable('business')
      .set({ auto_refill_enabled: true, auto_refill_threshold_paise: 50_000, auto_refill_pack_id: 'basic' } as never)
      .where('id', '=', biz.businessId)
      .execute();
    const users = await enrolMany(biz.businessId, 10);
    const answers = await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    expect(answers.map((a) => a.statusCode)).toEqual(users.map(() => 200));
    const due = await t.ctx.db.selectFrom('auto_refill').select(['status', 'pack_id']).where('business_id', '=', biz.businessId).execute();
    expect(due).toEqual([{ status: 'due', pack_id: 'basic' }]);
    await expectLedgerExact(biz.businessId);
  });

  it('live checks are not held back by test checks arriving with them: the live groups stay on the live writer', async () => {
    const biz = await business('Mixed Ltd', 100_000);
    const live = await enrolMany(biz.businessId, 20);
    const testSecret = new Secret({ size: 20 }).base32;
    const payloads = live.map((u) => ({ key: biz.apiKey, payload: { user_id: u.userId, totp_code: totpCode(u.secret) } as object }));
    for (let i = 0; i < 5; i++) payloads.splice(i * 4, 0, { key: biz.testApiKey, payload: { secret: testSecret, token: wrongCode(testSecret) } });
    // Both keys looked up once before, so the burst's checks reach the queue together.
    for (const key of [biz.apiKey, biz.testApiKey]) await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(key) });
    sent = [];
    const answers = await Promise.all(payloads.map((p) => t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(p.key), payload: p.payload })));
    expect(answers.map((a) => a.statusCode)).toEqual(payloads.map(() => 200));
    expect(answers.filter((a) => a.json().livemode === false)).toHaveLength(5);
    const writesOfLive = writes().filter((w) => live.some((u) => JSON.stringify(w.values).includes(u.userId)));
    expect(writesOfLive.length).toBeGreaterThan(0);
    for (const w of writesOfLive) expect(w.name).toBe(LIVE_WRITE);
    expectEachLiveWriteCommitsInItsRoundTrip();
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(100_000 - 200);
  });

  it('a failure after the group committed is reported as committed (never taken for "nothing kept" and written twice)', async () => {
    const biz = await business('Committed Ltd', 1_000);
    const [user] = await enrolMany(biz.businessId, 1);
    // The write and its COMMIT ran; what came back cannot be read.
    afterWrite = () => ({ rows: [], fields: [] });
    const [answer] = await verifyAll(biz.apiKey, [{ user_id: user!.userId, totp_code: totpCode(user!.secret) }]);
    expect(answer!.statusCode).toBe(500);
    expect(answer!.json().error.code).toBe('internal_error');
    // Recorded and charged once: not written again the careful way.
    expect(writes()).toHaveLength(1);
    expect(await t.ctx.db.selectFrom('totp_verification').select('status').where('business_id', '=', biz.businessId).execute()).toEqual([{ status: 'verified' }]);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(990);
    await expectLedgerExact(biz.businessId);
  });

  it('a connection lost after the write ran is looked up, not written again: answered 500, recorded and charged once', async () => {
    const biz = await business('Lost After Ltd', 1_000);
    const users = await enrolMany(biz.businessId, 3);
    afterWrite = () => {
      throw new Error('Connection terminated unexpectedly');
    };
    const answers = await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    expect(answers.map((a) => a.statusCode)).toEqual([500, 500, 500]);
    // Only the live writes: nothing was written again the careful way.
    expect(writes().every((w) => w.name === LIVE_WRITE)).toBe(true);
    const recorded = await t.ctx.db.selectFrom('totp_verification').select('status').where('business_id', '=', biz.businessId).execute();
    expect(recorded).toEqual([{ status: 'verified' }, { status: 'verified' }, { status: 'verified' }]);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(1_000 - 30);
    await expectLedgerExact(biz.businessId);
  });

  it('a connection lost before the write reached PostgreSQL keeps nothing: the group is written again the careful way, charged once', async () => {
    const biz = await business('Lost Before Ltd', 1_000);
    const users = await enrolMany(biz.businessId, 3);
    loseWrite = true;
    const answers = await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.every((a) => a.json().verified)).toBe(true);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(1_000 - 30);
    expect(await t.ctx.db.selectFrom('totp_verification').select('id').where('business_id', '=', biz.businessId).execute()).toHaveLength(3);
    await expectLedgerExact(biz.businessId);
  });

  it('a debit crossing the low-balance line is written the careful way: the low-balance mail is queued once, in the same transaction', async () => {
    const biz = await business('Crossing Ltd', LOW_BALANCE_THRESHOLD_PAISE + 5 * 10);
    const users = await enrolMany(biz.businessId, 20);
    const answers = await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    expect(answers.map((a) => a.statusCode)).toEqual(users.map(() => 200));
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(LOW_BALANCE_THRESHOLD_PAISE + 50 - 200);
    const mails = await t.ctx.db.selectFrom('mail_outbox').select('template').where('template', '=', 'balance_low').where('dedupe_key', 'like', `balance_low:${biz.businessId}:%`).execute();
    expect(mails).toHaveLength(1);
    // The refused live write kept nothing; the careful write then sent its own COMMIT.
    expect(liveWrites().length).toBeGreaterThan(0);
    expect(separateCommits().length).toBeGreaterThan(0);
    expect(await t.ctx.db.selectFrom('totp_verification').select((eb) => eb.fn.countAll().as('n')).where('business_id', '=', biz.businessId).executeTakeFirstOrThrow()).toMatchObject({ n: 20 });
    await expectLedgerExact(biz.businessId);
  });

  it('a business with a live webhook endpoint gets every check event: its groups are written the careful way', async () => {
    const biz = await business('Hooked Ltd', 100_000);
    await t.ctx.db
      .insertInto('webhook')
      .values({ id: newId('wh'), business_id: biz.businessId, url: 'https://hooks.example.com/sixdigit', events: JSON.stringify(['verification.success', 'verification.failed']), secret_enc: t.ctx.secrets.encrypt('whsec_test', 'webhook'), is_active: true, livemode: true, created_at: new Date() } as never)
      .execute();
    const users = await enrolMany(biz.businessId, 30);
    const answers = await verifyAll(biz.apiKey, users.map((u) => ({ user_id: u.userId, totp_code: totpCode(u.secret) })));
    expect(answers.map((a) => a.statusCode)).toEqual(users.map(() => 200));
    const deliveries = await t.ctx.db.selectFrom('webhook_delivery').select('verification_id').where('business_id', '=', biz.businessId).execute();
    expect(new Set(deliveries.map((d) => d.verification_id))).toEqual(new Set(answers.map((a) => a.json().verification_id)));
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(100_000 - 300);
    await expectLedgerExact(biz.businessId);
  });
});
