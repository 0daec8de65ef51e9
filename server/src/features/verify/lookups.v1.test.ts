import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { bearer, createBusiness, expectError, fund, totpCode, unique, wrongCode, type TestBusiness } from '../../../../test/support/verify-api';
import { newId } from '../../lib/ids';

type Json = Record<string, any>;

describeEachDialect('public API v1 lookups: verifications and enrolled users', (dialect) => {
  let t: TestApp;
  let acme: TestBusiness;
  let other: TestBusiness;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createBusiness(t.app, 'Lookup Acme');
    other = await createBusiness(t.app, 'Lookup Other');
    await fund(t.ctx, acme.businessId, 100_000);
    await fund(t.ctx, other.businessId, 100_000);
  });
  afterAll(async () => t?.close());

  const get = (business: TestBusiness | null, url: string) => t.app.inject({ method: 'GET', url, headers: business ? bearer(business.apiKey) : {} });
  const post = (business: TestBusiness, url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: bearer(business.apiKey), payload });

  async function enrol(business: TestBusiness, userId = unique('user')) {
    const res = await post(business, '/api/v1/generate', { user_id: userId, purpose: 'login' });
    expect(res.statusCode, res.body).toBe(201);
    return { userId, ...(res.json() as { secret: string; backup_codes: string[] }) };
  }

  /** A business with `n` verifications of its own, all at one instant when `sameInstant` (the cursor's tie-break). */
  async function seedVerifications(business: TestBusiness, n: number, options: { sameInstant?: Date; userId?: string } = {}) {
    const base = Date.now() - 3_600_000;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = newId('ver');
      ids.push(id);
      await t.ctx.db
        .insertInto('totp_verification')
        .values({
          id,
          business_id: business.businessId,
          external_user_id: options.userId ?? `seed-${i % 3}`,
          mode: 'managed',
          method: 'totp',
          purpose: null,
          status: i % 2 === 0 ? 'verified' : 'invalid_code',
          cost_paise: 10,
          response_time_ms: 1,
          created_at: options.sameInstant ?? new Date(base + i * 1000),
        })
        .execute();
    }
    return ids;
  }

  /** Every page of a list, following has_more with starting_after. */
  async function allPages(business: TestBusiness, url: string, idOf: (item: Json) => string) {
    const pages: Json[][] = [];
    let after: string | undefined;
    for (;;) {
      const sep = url.includes('?') ? '&' : '?';
      const res = await get(business, `${url}${after ? `${sep}starting_after=${encodeURIComponent(after)}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      pages.push(body.data);
      if (!body.has_more) break;
      after = idOf(body.data.at(-1));
      if (pages.length > 50) throw new Error('pagination does not end');
    }
    return pages;
  }

  describe('GET /verifications/{verification_id}', () => {
    it.each(['/api/v1', '/v1'])('%s: returns one check as POST /verify recorded it, and nothing secret', async (prefix) => {
      const { userId, secret } = await enrol(acme);
      const code = totpCode(secret);
      const checked = await post(acme, '/api/v1/verify', { user_id: userId, totp_code: code, purpose: 'payout' });
      const { verification_id, timestamp } = checked.json();
      const res = await get(acme, `${prefix}/verifications/${verification_id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        verification_id,
        user_id: userId,
        mode: 'managed',
        method: 'totp',
        status: 'verified',
        verified: true,
        purpose: 'payout',
        cost: '0.10',
        created_at: timestamp,
        livemode: true,
      });
      expect(res.body).not.toContain(code);
      expect(res.body).not.toContain(secret);
      expect(res.headers['ratelimit-remaining']).toMatch(/^\d+$/);
    });

    it('a stateless check has no user', async () => {
      const checked = await post(acme, '/api/v1/verify', { secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', token: '000000' });
      const res = await get(acme, `/api/v1/verifications/${checked.json().verification_id}`);
      expect(res.json()).toMatchObject({ user_id: null, mode: 'stateless' });
    });

    it('another business’s verification is 404, exactly like a missing one; no key is 401', async () => {
      const { userId, secret } = await enrol(other);
      const theirs = (await post(other, '/api/v1/verify', { user_id: userId, totp_code: totpCode(secret) })).json().verification_id;
      const foreign = await get(acme, `/api/v1/verifications/${theirs}`);
      const missing = await get(acme, `/api/v1/verifications/ver_${'x'.repeat(20)}`);
      expectError(foreign, 404, 'not_found');
      expectError(missing, 404, 'not_found');
      expect(foreign.json().error.message.replace(theirs, 'ID')).toBe(missing.json().error.message.replace(`ver_${'x'.repeat(20)}`, 'ID'));
      expectError(await get(null, `/api/v1/verifications/${theirs}`), 401, 'unauthorized');
      expectError(await get(acme, `/api/v1/verifications/${'x'.repeat(41)}`), 400, 'validation_failed');
    });
  });

  describe('GET /verifications', () => {
    it('pages newest first with limit and starting_after, across pages, never showing another business’s checks', async () => {
      const biz = await createBusiness(t.app, 'Pager Ltd');
      const ids = await seedVerifications(biz, 7);
      await seedVerifications(other, 3);
      const pages = await allPages(biz, '/api/v1/verifications?limit=3', (v) => v.verification_id);
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(pages.flat().map((v) => v.verification_id)).toEqual([...ids].reverse());
      // The default page is 20, and has_more is false when everything fits.
      const all = (await get(biz, '/api/v1/verifications')).json();
      expect(all.data).toHaveLength(7);
      expect(all.has_more).toBe(false);
    });

    it('keeps one order when checks share a timestamp: the cursor neither repeats nor skips', async () => {
      const biz = await createBusiness(t.app, 'Same Instant Ltd');
      const ids = await seedVerifications(biz, 5, { sameInstant: new Date('2026-11-20T10:00:00.000Z') });
      const pages = await allPages(biz, '/api/v1/verifications?limit=2', (v) => v.verification_id);
      const paged = pages.flat().map((v) => v.verification_id);
      // The tie-break is the database's own order of ids: the pages, joined, are the one page.
      const onePage = (await get(biz, '/api/v1/verifications?limit=100')).json().data.map((v: Json) => v.verification_id);
      expect(paged).toEqual(onePage);
      expect([...paged].sort()).toEqual([...ids].sort());
    });

    it('filters by user_id, status and a created_after / created_before window (exclusive)', async () => {
      const biz = await createBusiness(t.app, 'Filter Ltd');
      await seedVerifications(biz, 6); // seed-0, seed-1, seed-2, seed-0, seed-1, seed-2; even i verified
      const list = async (query: string) => (await get(biz, `/api/v1/verifications?${query}`)).json().data as Json[];
      expect((await list('user_id=seed-1')).map((v) => v.user_id)).toEqual(['seed-1', 'seed-1']);
      expect((await list('status=verified')).every((v) => v.status === 'verified' && v.verified)).toBe(true);
      expect(await list('status=verified')).toHaveLength(3);
      const times = (await list('')).map((v) => v.created_at).reverse(); // oldest first
      const window = await list(`created_after=${times[1]}&created_before=${times[4]}`);
      expect(window.map((v) => v.created_at)).toEqual([times[3], times[2]]);
      expect(await list('user_id=nobody')).toEqual([]);
    });

    it('refuses a bad limit, status or date with 400 and the field named; an unknown or foreign cursor is 404', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=abc', 'limit'],
        ['status=approved', 'status'],
        ['created_after=yesterday', 'created_after'],
        ['colour=blue', ''],
      ] as const) {
        const res = await get(acme, `/api/v1/verifications?${query}`);
        expectError(res, 400, 'validation_failed');
        expect(res.json().error.details.map((d: Json) => d.path), query).toContain(field);
      }
      expect((await get(acme, '/api/v1/verifications?limit=100')).statusCode).toBe(200);
      const [foreign] = await seedVerifications(other, 1);
      expectError(await get(acme, `/api/v1/verifications?starting_after=${foreign}`), 404, 'not_found');
      expectError(await get(acme, '/api/v1/verifications?starting_after=ver_nothing'), 404, 'not_found');
    });
  });

  describe('GET /users/{user_id}', () => {
    it('shows settings, enrolment time, last accepted check and backup codes left — never the secret or a code', async () => {
      const { userId, secret, backup_codes } = await enrol(acme);
      const fresh = await get(acme, `/api/v1/users/${userId}`);
      expect(fresh.statusCode).toBe(200);
      expect(fresh.json()).toEqual({
        user_id: userId,
        enrolled_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
        purpose: 'login',
        last_verified_at: null,
        backup_codes_left: 10,
        livemode: true,
      });
      await post(acme, '/api/v1/verify', { user_id: userId, totp_code: wrongCode(secret) }); // a failure is not "last verified"
      expect((await get(acme, `/api/v1/users/${userId}`)).json().last_verified_at).toBeNull();
      const ok = (await post(acme, '/api/v1/verify', { user_id: userId, backup_code: backup_codes[0]! })).json();
      const user = (await get(acme, `/v1/users/${userId}`)).json();
      expect(user).toMatchObject({ last_verified_at: ok.timestamp, backup_codes_left: 9 });
      for (const leak of [secret, ...backup_codes]) expect(JSON.stringify(user)).not.toContain(leak);
    });

    it('another business’s user is 404 like a missing one; a deleted user is gone', async () => {
      const { userId } = await enrol(other);
      expectError(await get(acme, `/api/v1/users/${userId}`), 404, 'not_found');
      expect((await get(other, `/api/v1/users/${userId}`)).statusCode).toBe(200);
      await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${userId}`, headers: bearer(other.apiKey) });
      expectError(await get(other, `/api/v1/users/${userId}`), 404, 'not_found');
      expectError(await get(null, `/api/v1/users/${userId}`), 401, 'unauthorized');
    });
  });

  describe('GET /users', () => {
    it('pages enrolled users newest first across pages, only the caller’s own', async () => {
      const biz = await createBusiness(t.app, 'User Pager Ltd');
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await enrol(biz, `pager-${i}`)).userId);
      await enrol(other, 'pager-foreign');
      const pages = await allPages(biz, '/api/v1/users?limit=2', (u) => u.user_id);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      // Enrolled in a loop, some may share a millisecond: newest first, ties in one fixed order, none repeated or lost.
      const seen = pages.flat().map((u) => u.user_id);
      expect([...seen].sort()).toEqual([...ids].sort());
      const times = pages.flat().map((u) => Date.parse(u.enrolled_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(JSON.stringify(pages)).not.toContain('secret');
      expectError(await get(biz, '/api/v1/users?starting_after=pager-foreign'), 404, 'not_found');
      expectError(await get(biz, '/api/v1/users?limit=101'), 400, 'validation_failed');
    });
  });
});
