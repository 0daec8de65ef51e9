import { Secret } from 'otpauth';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { balancePaise, bearer, createBusiness, fund, recordPastCheck, totpCode, unique, verificationCount, wrongCode } from '../../../../test/support/verify-api';
import type { VerificationStatus } from '../../db/types';
import { ledgerTotals } from '../credits/repo';
import * as repo from './repo';

/** Fisher–Yates, so the kinds of request interleave. */
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function tally(values: Array<string | number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

describeEachDialect('credit ledger under concurrent verifies', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  async function enrol(apiKey: string) {
    const userId = unique('user');
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(apiKey), payload: { user_id: userId } });
    expect(res.statusCode).toBe(201);
    return { userId, secret: res.json().secret as string, backupCodes: res.json().backup_codes as string[] };
  }

  it('200 concurrent verifies with credit for exactly 100: 100 answered 200, 100 answered 402, balance 0, invariant exact', async () => {
    const biz = await createBusiness(t.app, 'Hammered Ltd');
    await fund(t.ctx, biz.businessId, 1_000); // ₹100 = 100 verifications

    // 20 managed users × 5 requests (one valid code each, so 1 verified + 4 replayed, or a
    // mix with a wrong code) — at most 5 per user so the 5-failure throttle never triggers —
    // plus 100 stateless checks, half valid, half wrong.
    const users = await Promise.all(Array.from({ length: 20 }, () => enrol(biz.apiKey)));
    const bodies: object[] = [];
    users.forEach(({ userId, secret }, i) => {
      const code = totpCode(secret); // one value for the user's checks: a 30-s boundary between them would change it
      for (let k = 0; k < 5; k++) {
        bodies.push({ user_id: userId, totp_code: i % 4 === 0 && k === 4 ? wrongCode(secret) : code });
      }
    });
    for (let k = 0; k < 100; k++) {
      const secret = new Secret({ size: 20 }).base32;
      bodies.push({ secret, token: k % 2 === 0 ? totpCode(secret) : wrongCode(secret) });
    }
    expect(bodies).toHaveLength(200);

    const responses = await Promise.all(
      shuffle(bodies).map((payload) => t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload })),
    );

    const statuses = tally(responses.map((r) => r.statusCode));
    expect(statuses).toEqual({ 200: 100, 402: 100 });
    for (const r of responses.filter((r) => r.statusCode === 402)) expect(r.json().error.code).toBe('insufficient_credits');

    // Every charged answer reports a distinct balance from 9.90 down to 0.00.
    const balances = responses.filter((r) => r.statusCode === 200).map((r) => Math.round(Number(r.json().balance) * 100));
    expect(new Set(balances).size).toBe(100);
    expect(Math.min(...balances)).toBe(0);
    expect(Math.max(...balances)).toBe(990);

    expect(await balancePaise(t.ctx, biz.businessId)).toBe(0);
    expect(await verificationCount(t.ctx, biz.businessId)).toBe(100);
    const totals = await ledgerTotals(t.ctx.db, biz.businessId);
    expect(totals).toEqual({ creditedPaise: 1_000, spentPaise: 1_000, balancePaise: 0 });
    expect(totals.balancePaise).toBe(totals.creditedPaise - totals.spentPaise);

    // No managed user was verified twice with one code.
    const verified = await t.ctx.db
      .selectFrom('totp_verification')
      .select(['external_user_id'])
      .where('business_id', '=', biz.businessId)
      .where('mode', '=', 'managed')
      .where('status', '=', 'verified')
      .execute();
    const perUser = tally(verified.map((v) => v.external_user_id!));
    expect(Math.max(0, ...Object.values(perUser))).toBeLessThanOrEqual(1);
  });

  it('20 concurrent verifies of the same valid code for one user: exactly one verified, the rest replayed', async () => {
    const biz = await createBusiness(t.app, 'Replay Race Ltd');
    await fund(t.ctx, biz.businessId, 1_000);
    const { userId, secret } = await enrol(biz.apiKey);
    const code = totpCode(secret);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: userId, totp_code: code } }),
      ),
    );
    expect(tally(responses.map((r) => r.statusCode))).toEqual({ 200: 20 });
    expect(tally(responses.map((r) => r.json().status))).toEqual({ verified: 1, replayed: 19 });
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(800);
    const totals = await ledgerTotals(t.ctx.db, biz.businessId);
    expect(totals.balancePaise).toBe(totals.creditedPaise - totals.spentPaise);
  });

  it('20 concurrent wrong guesses for one user: only 5 are checked and charged, the rest 429 too_many_attempts for free', async () => {
    const biz = await createBusiness(t.app, 'Brute Force Target Ltd');
    await fund(t.ctx, biz.businessId, 1_000);
    const { userId, secret } = await enrol(biz.apiKey);
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(wrongCode(secret)) + i * 7919) % 1_000_000).padStart(6, '0'));
    const responses = await Promise.all(
      guesses.map((code) =>
        t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: userId, totp_code: code } }),
      ),
    );
    const outcomes = tally(responses.map((r) => (r.statusCode === 200 ? r.json().status : r.json().error.code)));
    expect(outcomes.too_many_attempts).toBe(15);
    expect(outcomes.verified ?? 0).toBe(0);
    expect(await verificationCount(t.ctx, biz.businessId)).toBe(5);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(950);
  });

  it('a user_id full of quotes and backslashes is found and throttled exactly (PostgreSQL sends the group reads as escaped literals)', async () => {
    const biz = await createBusiness(t.app, 'Quoting Ltd');
    await fund(t.ctx, biz.businessId, 1_000);
    const userId = `o'brien\\'); delete from business; -- "${unique('q')}" \\x27 ''`;
    const enrolled = await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(biz.apiKey), payload: { user_id: userId } });
    expect(enrolled.statusCode).toBe(201);
    const secret = enrolled.json().secret as string;
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: userId, totp_code: totpCode(secret) } });
    expect(ok.json().status).toBe('verified');
    // Records carry millisecond times, and a failure in the success's millisecond may sort before
    // or after it in the history read (the throttle would then count one guess late). Apart here.
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Six wrong guesses in a row, one at a time: the history read finds this user's failures.
    const statuses: Array<string> = [];
    for (let i = 0; i < 6; i++) {
      const code = String((Number(wrongCode(secret)) + i * 7919) % 1_000_000).padStart(6, '0');
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: userId, totp_code: code } });
      statuses.push(res.statusCode === 200 ? res.json().status : res.json().error.code);
    }
    expect(statuses.slice(0, 5).every((s) => s === 'invalid_code' || s === 'expired')).toBe(true);
    expect(statuses[5]).toBe('too_many_attempts');
    expect(await verificationCount(t.ctx, biz.businessId)).toBe(6);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(940);
    // The group's reads themselves (a failed group would fall back to one-by-one checks on
    // bound parameters and hide a quoting bug): on PostgreSQL this is the one-message path.
    const user = { businessId: biz.businessId, livemode: true, externalUserId: userId };
    const read = await repo.inCheckTransaction(t.ctx.database, (tx) => {
      if (dialect === 'postgres') expect(tx.pinned?.begun).toBe(false);
      return repo.readGroup(tx, [user, { ...user, externalUserId: `${userId}'` }], new Date(Date.now() - 15 * 60_000), 5);
    });
    expect([...read.enrolments.values()].map((e) => e.externalUserId)).toEqual([userId]);
    expect(read.recent.get(repo.userKey(biz.businessId, true, userId))?.map((c) => c.status).filter((s) => s === 'verified')).toEqual([]);
    expect(read.recent.get(repo.userKey(biz.businessId, true, userId))).toHaveLength(5);
  });

  it('a failure in the same millisecond as a success counts as the newer: the throttle is not one guess late', async () => {
    const biz = await createBusiness(t.app, 'Tie Ltd');
    await fund(t.ctx, biz.businessId, 1_000);
    // History written straight to the table, a minute ago: a failure and a success in one
    // millisecond, and four failures after them. The newest five are the four and one of the tied
    // pair. Which of the pair an engine meets first depends on the order they were written in, so
    // both orders, each for a user of its own.
    const at = Date.now() - 60_000;
    const tiedPairs: Array<Array<[number, VerificationStatus]>> = [
      [[0, 'invalid_code'], [0, 'verified']],
      [[0, 'verified'], [0, 'invalid_code']],
    ];
    for (const pair of tiedPairs) {
      const { userId, secret } = await enrol(biz.apiKey);
      const history: Array<[number, VerificationStatus]> = [...pair, [1, 'invalid_code'], [2, 'invalid_code'], [3, 'invalid_code'], [4, 'invalid_code']];
      for (const [k, [ms, status]] of history.entries()) {
        await recordPastCheck(t.ctx.db, { id: `${unique('ver_tie')}_${k}`, businessId: biz.businessId, externalUserId: userId, status, createdAt: new Date(at + ms) });
      }
      // Five failures in a row, the tied one counted as the newer: the next guess is refused, on
      // the group path and on the careful path (an Idempotency-Key), both reading this history.
      for (const extra of [{}, { 'idempotency-key': unique('tie') }]) {
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: { ...bearer(biz.apiKey), ...extra }, payload: { user_id: userId, totp_code: wrongCode(secret) } });
        expect(res.statusCode, res.body).toBe(429);
        expect(res.json().error.code).toBe('too_many_attempts');
      }
    }
  });

  it('10 concurrent uses of one backup code: exactly one verified', async () => {
    const biz = await createBusiness(t.app, 'Backup Race Ltd');
    await fund(t.ctx, biz.businessId, 1_000);
    const { userId, backupCodes } = await enrol(biz.apiKey);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: userId, backup_code: backupCodes[0] } }),
      ),
    );
    // At most 5 failures can be recorded before the throttle; the rest may be refused for free.
    const statuses = responses.map((r) => (r.statusCode === 200 ? r.json().status : r.json().error.code));
    expect(statuses.filter((s) => s === 'verified')).toHaveLength(1);
    for (const s of statuses) expect(['verified', 'invalid_code', 'too_many_attempts']).toContain(s);
    const charged = statuses.filter((s) => s !== 'too_many_attempts').length;
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(1_000 - 10 * charged);
    const unused = await t.ctx.db
      .selectFrom('backup_code')
      .innerJoin('enrolment', 'enrolment.id', 'backup_code.enrolment_id')
      .select('backup_code.id')
      .where('enrolment.external_user_id', '=', userId)
      .where('backup_code.used_at', 'is', null)
      .execute();
    expect(unused).toHaveLength(9);
  });

  it('10 concurrent retries with one Idempotency-Key: one answer, charged once', async () => {
    const biz = await createBusiness(t.app, 'Retry Storm Ltd');
    await fund(t.ctx, biz.businessId, 1_000);
    const { userId, secret } = await enrol(biz.apiKey);
    const payload = { user_id: userId, totp_code: totpCode(secret) };
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: { ...bearer(biz.apiKey), 'idempotency-key': 'storm-1' }, payload }),
      ),
    );
    expect(tally(responses.map((r) => r.statusCode))).toEqual({ 200: 10 });
    expect(new Set(responses.map((r) => r.json().verification_id)).size).toBe(1);
    expect(responses.every((r) => r.json().status === 'verified')).toBe(true);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await balancePaise(t.ctx, biz.businessId)).toBe(990);
    expect(await verificationCount(t.ctx, biz.businessId)).toBe(1);
  });

  it('10 concurrent enrolments of one user: exactly one 201, the rest 409', async () => {
    const biz = await createBusiness(t.app, 'Enrol Race Ltd');
    const userId = unique('racer');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(biz.apiKey), payload: { user_id: userId } })),
    );
    expect(tally(responses.map((r) => r.statusCode))).toEqual({ 201: 1, 409: 9 });
    const winner = responses.find((r) => r.statusCode === 201)!.json();
    await fund(t.ctx, biz.businessId, 10);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { user_id: userId, totp_code: totpCode(winner.secret) } });
    expect(res.json().status).toBe('verified');
  });
});
