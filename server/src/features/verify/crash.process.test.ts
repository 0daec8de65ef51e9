import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, testConfig, type TestDatabase } from '../../../../test/support/db';
import { client, signInOver, startServerProcess, type ServerProcess } from '../../../../test/support/server-process';
import { startReceiver, type Receiver } from '../../../../test/support/webhooks';
import { runCli } from '../../cli';
import { createContext, migrateToLatest, type AppContext } from '../../context';
import { toNumber } from '../../db/normalize';
import { ledgerTotals } from '../credits/repo';
import { grantCredits } from '../credits/service';
import { LEASE_MS } from '../webhooks/worker';

const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
/** Checks in the load: every other one for an enrolled user (managed), the rest stateless. */
const CHECKS = 300;
const CONCURRENCY = 50;
/** Kill once this many checks have been answered: the rest are in flight or not yet sent. */
const KILL_AFTER_ANSWERS = 90;

/**
 * kill -9 in the middle of a verification load, as happens to a real server: the process dies
 * with requests in flight and transactions open. After a restart, the database must show every
 * answered check exactly once, no check twice, the ledger exact, and a webhook for every
 * recorded verification, delivered with the id written in the verification's transaction.
 *
 * Both processes run their webhook worker, so deliveries are made before the kill too. A row a
 * dying worker had leased waits out the lease (LEASE_MS, 60 s) before another worker takes it —
 * `webhooks/crash.test.ts` proves that with a controlled clock — so to stay quick this test
 * freezes the process (SIGSTOP) and kills it at a moment no delivery is leased; verifications
 * are still in flight then, transactions open.
 */
describeEachDialect('SIGKILL under verify load, then restart', (dialect) => {
  let database: TestDatabase;
  let ctx: AppContext;
  let dataDir: string;
  let receiver: Receiver;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'sixdigit-crash-'));
    ctx = createContext({ ...testConfig(), database: database.config }, database.open());
    await migrateToLatest(ctx);
    receiver = await startReceiver(() => 204);
    env = {
      DATABASE_URL: database.config.kind === 'sqlite' ? `sqlite:${database.config.file}` : database.config.url,
      APP_ENCRYPTION_KEY: ENCRYPTION_KEY,
      ADMIN_EMAIL: 'admin@example.com',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: join(dataDir, 'no-web'),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      API_RATE_LIMIT_PER_MINUTE: '100000',
      UPKEEP_INTERVAL_SECONDS: '0',
    };
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    await receiver?.close();
    await ctx?.database.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('every answered check is recorded and charged once, nothing twice, the ledger exact, every webhook delivered with its original id', async () => {
    const first = await startServerProcess(env);
    servers.push(first);
    const on = client(first.url);
    const cookie = await signInOver(first.url, `crash-${randomBytes(4).toString('hex')}@example.com`);
    const created = await on('POST', '/api/business/create', { cookie, body: { companyName: 'Crash Test Ltd' } });
    expect(created.status, created.text).toBe(201);
    const apiKey = created.json.apiKey as unknown as string;
    const businessId = created.json.id as unknown as string;
    const credit = 100_000;
    await grantCredits(ctx.db, { businessIdOrEmail: businessId, amountPaise: credit, reason: 'crash test' }, { userId: null, label: 'test' });
    const hook = await on('POST', '/api/webhooks', { cookie, body: { url: receiver.url, events: ['verification.success'] } });
    expect(hook.status, hook.text).toBe(201);
    const auth = { authorization: `Bearer ${apiKey}` };

    // Half the checks are for enrolled users (one code each), half stateless; each check is
    // told apart in the records by its user id or its purpose.
    const checks: Array<{ key: string; body: () => Record<string, string> }> = [];
    for (let i = 0; i < CHECKS; i += 2) {
      checks.push({ key: `crash-user-${i}`, body: () => ({}) }, { key: `crash-check-${i + 1}`, body: () => ({}) });
    }
    for (let i = 0; i < checks.length; i += 25) {
      await Promise.all(
        checks.slice(i, i + 25).map(async (check, j) => {
          if ((i + j) % 2 === 0) {
            const res = await on('POST', '/api/v1/generate', { headers: auth, body: { user_id: check.key } });
            expect(res.status, res.text).toBe(201);
            const secret = res.json.secret as unknown as string;
            check.body = () => ({ user_id: check.key, totp_code: new TOTP({ secret }).generate() });
          } else {
            const secret = new Secret({ size: 20 }).base32;
            check.body = () => ({ secret, token: new TOTP({ secret }).generate(), purpose: check.key });
          }
        }),
      );
    }

    // The load, CONCURRENCY at a time, until the kill.
    const answered = new Map<string, string>(); // check key -> verification id, for every 200 received in full
    const unexpected: string[] = [];
    let sent = 0;
    let next = 0;
    let killing: Promise<void> | undefined;
    let leasedAtKill = 0;
    let deliveredBeforeKill = 0;
    const leased = async () =>
      toNumber((await ctx.db.selectFrom('webhook_delivery').select((eb) => eb.fn.countAll().as('n')).where('business_id', '=', businessId).where('status', '=', 'delivering').executeTakeFirstOrThrow()).n);
    const killOutsideDelivery = async (server: ServerProcess) => {
      for (let tries = 0; tries < 100; tries++) {
        server.process.kill('SIGSTOP');
        leasedAtKill = await leased();
        if (leasedAtKill === 0) break;
        server.process.kill('SIGCONT');
        await new Promise((r) => setTimeout(r, 10));
      }
      deliveredBeforeKill = receiver.received.length;
      await server.kill();
    };
    // A fast server can answer every check before its webhook worker (polling every 250 ms)
    // delivers anything: past KILL_AFTER_ANSWERS, hold the rest until the first delivery
    // arrives, then resume, so the kill lands with checks in flight and deliveries made.
    const firstDelivery = async () => {
      for (let waited = 0; receiver.received.length === 0 && waited < 15_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    };
    const worker = async () => {
      while (next < checks.length && !killing) {
        if (answered.size >= KILL_AFTER_ANSWERS) await firstDelivery();
        if (killing) break;
        const check = checks[next++]!;
        sent += 1;
        try {
          const res = await fetch(`${first.url}/api/v1/verify`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(check.body()) });
          const body = (await res.json()) as { status?: string; verification_id?: string };
          if (res.status === 200) answered.set(check.key, body.verification_id!);
          if (res.status !== 200 || body.status !== 'verified') unexpected.push(`${check.key}: ${res.status} ${JSON.stringify(body)}`);
        } catch {
          // No answer (the process died): this check may or may not have been recorded.
        }
        if (answered.size >= KILL_AFTER_ANSWERS && receiver.received.length > 0 && !killing) killing = killOutsideDelivery(first);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await killing;
    expect(first.process.signalCode).toBe('SIGKILL');
    expect(answered.size).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERS);
    expect(unexpected).toEqual([]);
    expect(sent).toBeLessThan(CHECKS); // killed mid-load, not after it
    expect(deliveredBeforeKill).toBeGreaterThan(0);

    // Restart, this time with the webhook worker.
    const second = await startServerProcess(env);
    servers.push(second);
    expect((await client(second.url)('GET', '/readyz')).status).toBe(200);

    const rows = await ctx.db.selectFrom('totp_verification').select(['id', 'external_user_id', 'purpose', 'status', 'cost_paise']).where('business_id', '=', businessId).execute();
    const byCheck = new Map<string, string[]>();
    for (const r of rows) {
      const key = r.external_user_id ?? r.purpose ?? '?';
      byCheck.set(key, [...(byCheck.get(key) ?? []), r.id]);
    }
    // Nothing charged twice: at most one record per check, and none for a check never sent.
    expect([...byCheck.values()].filter((ids) => ids.length > 1)).toEqual([]);
    const sentKeys = new Set(checks.slice(0, sent).map((c) => c.key));
    expect([...byCheck.keys()].filter((k) => !sentKeys.has(k))).toEqual([]);
    // Every answered 200 is recorded, with the id it was answered with.
    for (const [key, verificationId] of answered) expect(byCheck.get(key), key).toEqual([verificationId]);
    // Nothing recorded that was never sent; answered ≤ recorded ≤ sent.
    expect(rows.length).toBeGreaterThanOrEqual(answered.size);
    expect(rows.length).toBeLessThanOrEqual(sent);
    expect(rows.every((r) => r.status === 'verified' && toNumber(r.cost_paise) === 10)).toBe(true);

    // The ledger invariant, from the credits repository and from the operator's CLI.
    const totals = await ledgerTotals(ctx.db, businessId);
    expect(totals).toEqual({ balancePaise: credit - rows.length * 10, creditedPaise: credit, spentPaise: rows.length * 10 });
    const lines: string[] = [];
    const code = await runCli(['credits:show', businessId], { ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }, { log: (l) => lines.push(l), error: (l) => lines.push(l) });
    expect(code, lines.join('\n')).toBe(0);
    expect(lines.join('\n')).toContain('consistent (balance = credited − spent)');

    // Every recorded verification's webhook arrives after the restart, with the id its
    // delivery row got in the verification's own transaction.
    const outbox = await ctx.db.selectFrom('webhook_delivery').select(['id', 'verification_id']).where('business_id', '=', businessId).execute();
    expect(outbox.map((d) => d.verification_id).sort()).toEqual(rows.map((r) => r.id).sort());
    // A row the dying worker had leased waits out its lease before the new worker takes it (that
    // is the recovery design). The SIGSTOP probe above usually finds a lease-free moment, but a
    // claim can commit between the probe and the kill on a loaded machine: always allow the
    // lease; the loop ends as soon as everything has arrived.
    const deadline = Date.now() + 20_000 + LEASE_MS;
    const deliveredIds = () => new Set(receiver.ids());
    while (outbox.some((d) => !deliveredIds().has(d.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const delivered = deliveredIds();
    const missing = outbox.filter((d) => !delivered.has(d.id)).map((d) => d.id);
    const states = missing.length
      ? await ctx.db.selectFrom('webhook_delivery').select(['id', 'status', 'attempt_count', 'next_attempt_at', 'locked_until', 'last_error']).where('id', 'in', missing).execute()
      : [];
    expect(states, `undelivered after the restart (leased at kill: ${leasedAtKill})`).toEqual([]);
    // Ids are stable: whatever arrived under an id is that verification's event (repeats allowed).
    const expectedVerification = new Map(outbox.map((d) => [d.id, d.verification_id]));
    for (const r of receiver.received) {
      const id = r.headers['webhook-id'] as string;
      expect(expectedVerification.has(id), id).toBe(true);
      expect((JSON.parse(r.body) as { verification_id: string }).verification_id).toBe(expectedVerification.get(id));
    }

    // The restarted server serves checks and the ledger holds.
    const again = await client(second.url)('POST', '/api/v1/verify', { headers: auth, body: { user_id: checks[0]!.key, totp_code: '000000' } });
    expect(again.status).toBe(200);
    const after = await ledgerTotals(ctx.db, businessId);
    expect(after.balancePaise).toBe(after.creditedPaise - after.spentPaise);
  }, 90_000 + LEASE_MS);
});
