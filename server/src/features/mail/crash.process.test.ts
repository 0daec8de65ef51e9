import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, testConfig, type TestDatabase } from '../../../../test/support/db';
import { startServerProcess, type ServerProcess } from '../../../../test/support/server-process';
import { startSmtp, type TestSmtp } from '../../../../test/support/smtp';
import { createContext, migrateToLatest, type AppContext } from '../../context';
import { toNumber } from '../../db/normalize';
import { queueMail } from './outbox';

const FIRST = 10;
const QUEUED_AT_KILL = 20;

/**
 * kill -9 of a real server process (`server/src/main.ts`, its mail worker running) with mails
 * queued: after a restart every mail arrives, and none twice. The first batch is delivered before
 * the kill; the second waits in the outbox (the SMTP server refuses it for now with 451, so it has
 * attempts and a backoff) when the process dies. The kill lands at a moment no mail is mid-send
 * (SIGSTOP, look, SIGKILL), the only moment a crash can make a repeat, which
 * `outbox.test.ts` covers with a controlled clock.
 */
describeEachDialect('SIGKILL with mails queued, then restart', (dialect) => {
  let database: TestDatabase;
  let ctx: AppContext;
  let dataDir: string;
  let smtp: TestSmtp;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'sixdigit-mail-crash-'));
    ctx = createContext({ ...testConfig(), database: database.config }, database.open());
    await migrateToLatest(ctx);
    smtp = await startSmtp();
    env = {
      DATABASE_URL: database.config.kind === 'sqlite' ? `sqlite:${database.config.file}` : database.config.url,
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      ADMIN_EMAIL: 'admin@example.com',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: join(dataDir, 'no-web'),
      UPKEEP_INTERVAL_SECONDS: '0',
      SMTP_URL: smtp.url,
    };
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    await smtp?.close();
    await ctx?.database.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const queue = async (from: number, count: number) => {
    const ids: string[] = [];
    for (let i = from; i < from + count; i++) {
      const id = await ctx.db.transaction().execute((trx) => queueMail(trx, { to: { email: `crash-${i}@example.com` }, template: 'balance_depleted', data: { companyName: `Crash ${i}` } }));
      ids.push(id!);
    }
    return ids;
  };
  const byStatus = async () => {
    const rows = await ctx.db.selectFrom('mail_outbox').select(['status', 'attempt_count']).execute();
    return { rows, count: (status: string) => rows.filter((r) => r.status === status).length };
  };
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('every queued mail arrives once: those sent before the kill are not sent again, the rest are sent after the restart', async () => {
    const first = await startServerProcess(env);
    servers.push(first);
    const sentBefore = await queue(0, FIRST);
    await smtp.waitFor(FIRST, 30_000);
    await until('the first batch marked sent', async () => (await byStatus()).count('sent') === FIRST);

    // The SMTP server refuses for now: the next mails are tried, refused, and wait for their retry.
    smtp.answer = 'temporary';
    const waiting = await queue(FIRST, QUEUED_AT_KILL);
    await until('every waiting mail tried once', async () => {
      const { rows } = await byStatus();
      return rows.filter((r) => r.status === 'pending' && toNumber(r.attempt_count) >= 1).length === QUEUED_AT_KILL;
    });
    let sendingAtKill = -1;
    for (let tries = 0; tries < 200 && sendingAtKill !== 0; tries++) {
      first.process.kill('SIGSTOP');
      sendingAtKill = (await byStatus()).count('sending');
      if (sendingAtKill !== 0) {
        first.process.kill('SIGCONT');
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    expect(sendingAtKill).toBe(0);
    await first.kill();
    expect(first.process.signalCode).toBe('SIGKILL');
    expect(smtp.received).toHaveLength(FIRST);

    // The SMTP server is back; a new process takes the outbox over.
    smtp.answer = 'accept';
    const second = await startServerProcess(env);
    servers.push(second);
    await smtp.waitFor(FIRST + QUEUED_AT_KILL, 60_000);
    await until('every mail marked sent', async () => (await byStatus()).count('sent') === FIRST + QUEUED_AT_KILL);
    // A moment more: nothing else may arrive.
    await new Promise((r) => setTimeout(r, 1500));

    const host = 'localhost';
    const arrived = smtp.received.map((r) => r.mail.messageId);
    expect(arrived).toHaveLength(FIRST + QUEUED_AT_KILL);
    expect(new Set(arrived).size).toBe(FIRST + QUEUED_AT_KILL);
    expect(new Set(arrived)).toEqual(new Set([...sentBefore, ...waiting].map((id) => `<${id}@${host}>`)));
    // Each to its own recipient.
    for (const r of smtp.received) expect(r.rcptTo).toEqual([`crash-${Number(/Crash (\d+)/.exec(r.mail.subject ?? '')![1])}@example.com`]);
  }, 180_000);
});
