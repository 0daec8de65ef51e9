import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/support/db';
import { bearer, createBusiness, enrolMany, fund, totpCode } from '../../../../test/support/verify-api';

/**
 * PostgreSQL's live writer keeps its connections between groups (pg-group-write.ts): the next
 * group's reads go out at once, not after the pool hands a connection over on a later tick. What
 * a kept connection must still do as the pool's own would: never end the process when PostgreSQL
 * ends it while it waits, and never hold the database's close.
 */
/** The backend's process id, as PostgreSQL gave it to the connection (pg's types do not name it). */
const pidOf = (client: pg.PoolClient) => (client as unknown as { processID: number }).processID;

describe.skipIf(!inject('postgresAvailable'))("verify: PostgreSQL's live writer keeps its connections [postgres]", () => {
  let t: TestApp;
  /** Connections the live writer's pool (the only pool in pipeline mode) handed out, in order. */
  let handedOut: pg.PoolClient[] = [];
  const realConnect = pg.Pool.prototype.connect;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    vi.spyOn(pg.Pool.prototype, 'connect').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
      const result = (realConnect as (...a: unknown[]) => unknown).apply(this, args);
      const pipelined = (this as unknown as { options: { pipeline?: boolean } }).options.pipeline === true;
      if (pipelined && result instanceof Promise) void result.then((client: pg.PoolClient) => handedOut.push(client), () => undefined);
      return result as never;
    });
  });
  afterEach(() => {
    handedOut = [];
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  async function enrolledBusiness(on: TestApp, users: number) {
    const biz = await createBusiness(on.app);
    await fund(on.ctx, biz.businessId, 100_000);
    return { ...biz, users: await enrolMany(on.ctx, biz.businessId, users) };
  }

  const verify = (on: TestApp, apiKey: string, user: { userId: string; secret: string }) =>
    on.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(apiKey), payload: { user_id: user.userId, totp_code: totpCode(user.secret) } });

  it('takes a connection from the pool once and writes group after group on it', async () => {
    const biz = await enrolledBusiness(t, 6);
    handedOut = [];
    // One at a time: each check is a group of its own.
    for (const user of biz.users) {
      const res = await verify(t, biz.apiKey, user);
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('verified');
    }
    // At most one for the first group (none if an earlier test's group left one kept); never one a group.
    expect(handedOut.length).toBeLessThanOrEqual(1);
  });

  it('lets go of a kept connection that PostgreSQL ends while it waits: the process lives on and the next check is written on a new one', async () => {
    const own = await createTestApp('postgres');
    try {
      const biz = await enrolledBusiness(own, 2);
      handedOut = [];
      expect((await verify(own, biz.apiKey, biz.users[0]!)).statusCode).toBe(200);
      // A new app: its writer's first group took the connection it now keeps.
      expect(handedOut).toHaveLength(1);
      const pid = pidOf(handedOut[0]!);

      const warned = new Promise<string>((resolve) => {
        const onWarning = (w: Error & { code?: string }) => {
          if (w.code !== 'SIXDIGIT_PG_IDLE_CONNECTION') return;
          process.off('warning', onWarning);
          resolve(w.message);
        };
        process.on('warning', onWarning);
      });
      await sql`select pg_terminate_backend(${pid})`.execute(t.ctx.db);
      expect(await warned).toMatch(/an idle PostgreSQL connection ended/);

      handedOut = [];
      const res = await verify(own, biz.apiKey, biz.users[1]!);
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('verified');
      expect(handedOut).toHaveLength(1);
      expect(pidOf(handedOut[0]!)).not.toBe(pid);
    } finally {
      await own.close();
    }
  });

  it('hands its kept connections back as the database closes: close ends, and no connection to the database is left', async () => {
    const own = await createTestApp('postgres');
    const biz = await enrolledBusiness(own, 1);
    expect((await verify(own, biz.apiKey, biz.users[0]!)).statusCode).toBe(200);
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(own.ctx.db);
    const database = rows[0]!.name;

    // A pool that waited for a connection the writer still held would never end.
    const closing = own.app.close().then(() => 'closed');
    const outcome = await Promise.race([closing, new Promise((r) => setTimeout(() => r('still open after 5 s'), 5_000))]);
    expect(outcome).toBe('closed');
    let left = -1;
    for (let i = 0; i < 100 && left !== 0; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 20));
      const count = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = ${database}`.execute(t.ctx.db);
      left = count.rows[0]!.n;
    }
    expect(left).toBe(0);
    await own.close();
  });
});
