import { createHash } from 'node:crypto';
import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../../test/support/db';
import { bearer, createBusiness, expectError, fund, recordPastCheck, totpCode, unique, wrongCode, type TestBusiness } from '../../../../test/support/verify-api';
import { listAuditEntries } from '../audit/repo';

const DAY_MS = 86_400_000;
const CSV_HEADER = 'verification_id,created_at,user_id,mode,method,purpose,status,cost_inr,response_time_ms,livemode';

/** RFC 4180: quoted fields, doubled quotes, line breaks inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

describeEachDialect('business dashboard routes', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const send = (method: 'POST' | 'PUT', url: string, cookie: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { cookie, 'sec-fetch-site': 'same-origin', ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

  // --- create and profile -------------------------------------------------------------------

  describe('create and profile', () => {
    it('answers 404 for the profile, dashboard and ledger before a business exists', async () => {
      const cookie = await signIn(t.app, `${unique('new')}@example.com`);
      for (const url of ['/api/business/profile', '/api/business/dashboard', '/api/business/ledger', '/api/business/usage.csv?from=2026-01-01&to=2026-01-02']) {
        expectError(await get(url, cookie), 404, 'not_found');
      }
      expectError(await send('POST', '/api/business/api-key/regenerate', cookie), 404, 'not_found');
      expectError(await send('PUT', '/api/business/auto-refill', cookie, { enabled: true, thresholdRupees: 500, packId: 'basic' }), 404, 'not_found');
    });

    it('creates a business with a trimmed name; the full API key is shown once, afterwards only its prefix', async () => {
      const email = `${unique('founder')}@example.com`;
      const cookie = await signIn(t.app, email);
      const res = await send('POST', '/api/business/create', cookie, { companyName: '   Acme Fintech Pvt Ltd  ' });
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toMatchObject({
        id: expect.stringMatching(/^biz_/),
        companyName: 'Acme Fintech Pvt Ltd',
        balance: '0.00',
        balancePaise: 0,
        verificationsLeft: 0,
        lowBalance: true,
        rateLimitPerMinute: 1000,
        autoRefill: { enabled: false, thresholdPaise: null, packId: null },
      });
      const apiKey: string = created.apiKey;
      expect(apiKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
      expect(created.apiKeyPrefix).toBe(apiKey.slice(0, 12));

      const profile = await get('/api/business/profile', cookie);
      expect(profile.statusCode).toBe(200);
      expect(profile.json()).not.toHaveProperty('apiKey');
      expect(profile.json().apiKeyPrefix).toBe(apiKey.slice(0, 12));
      for (const url of ['/api/business/profile', '/api/business/dashboard', '/api/business/ledger']) {
        expect((await get(url, cookie)).body).not.toContain(apiKey.slice(12));
      }

      // The test key comes with it, shown once too.
      expect(created.testApiKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
      expect(created.testApiKeyPrefix).toBe(created.testApiKey.slice(0, 12));
      expect((await get('/api/business/profile', cookie)).body).not.toContain(created.testApiKey.slice(12));

      // Only the hashes and the prefixes are stored.
      const keys = await t.ctx.db.selectFrom('api_key').selectAll().where('business_id', '=', created.id).orderBy('livemode', 'desc').execute();
      expect(keys).toHaveLength(2);
      expect(keys[0]!.key_hash).toBe(createHash('sha256').update(apiKey).digest('hex'));
      expect(keys[1]!.key_hash).toBe(createHash('sha256').update(created.testApiKey).digest('hex'));
      expect(JSON.stringify(keys)).not.toContain(apiKey);
      expect(JSON.stringify(keys)).not.toContain(created.testApiKey);

      const [audit] = await listAuditEntries(t.ctx.db, { subjectId: created.id });
      expect(audit).toMatchObject({ action: 'business.created', actorLabel: email, details: { company_name: 'Acme Fintech Pvt Ltd' } });
    });

    it.each(['', '   ', '\t\n'])('refuses an empty company name %j with the "Company Name Required" message', async (companyName) => {
      const cookie = await signIn(t.app, `${unique('empty')}@example.com`);
      const res = await send('POST', '/api/business/create', cookie, { companyName });
      expectError(res, 400, 'validation_failed');
      expect(res.json().error.message).toBe('Company Name Required: Please enter your company name.');
      expectError(await get('/api/business/profile', cookie), 404, 'not_found');
    });

    it('refuses a second business for the same user with 409', async () => {
      const biz = await createBusiness(t.app, 'First Co');
      const res = await send('POST', '/api/business/create', biz.cookie, { companyName: 'Second Co' });
      expectError(res, 409, 'conflict');
      expect((await get('/api/business/profile', biz.cookie)).json().companyName).toBe('First Co');
      // The first key is untouched.
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(biz.apiKey) })).statusCode).toBe(200);
    });

    it('two concurrent creates by one user make exactly one business', async () => {
      const cookie = await signIn(t.app, `${unique('racer')}@example.com`);
      const responses = await Promise.all([1, 2, 3].map((n) => send('POST', '/api/business/create', cookie, { companyName: `Racer ${n}` })));
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    });

    it('accepts unicode names up to 200 characters and refuses longer, non-string, missing or NUL names with 400', async () => {
      const unicodeName = 'सिक्सडिजिट प्राइवेट लिमिटेड — 六位数 😀';
      const ok = await send('POST', '/api/business/create', await signIn(t.app, `${unique('u')}@example.com`), { companyName: ` ${unicodeName} ` });
      expect(ok.json().companyName).toBe(unicodeName);
      expect((await send('POST', '/api/business/create', await signIn(t.app, `${unique('u')}@example.com`), { companyName: 'n'.repeat(200) })).statusCode).toBe(201);
      const cookie = await signIn(t.app, `${unique('u')}@example.com`);
      for (const payload of [{ companyName: 'n'.repeat(201) }, { companyName: 'x'.repeat(10_240) }, { companyName: 42 }, { companyName: null }, {}, { companyName: 'Evil\u0000Corp' }]) {
        expectError(await send('POST', '/api/business/create', cookie, payload), 400, 'validation_failed');
      }
      expectError(await send('POST', '/api/business/create', cookie, '{"companyName":', { 'content-type': 'application/json' }), 400, 'invalid_json');
      expectError(await get('/api/business/profile', cookie), 404, 'not_found');
    });
  });

  // --- API key ------------------------------------------------------------------------------

  it('regenerates the API key: the new key is shown once, the old one is revoked at once, audited', async () => {
    const biz = await createBusiness(t.app, 'Regen Co');
    const res = await send('POST', '/api/business/api-key/regenerate', biz.cookie);
    expect(res.statusCode).toBe(200);
    const { apiKey, prefix } = res.json();
    expect(apiKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(prefix).toBe(apiKey.slice(0, 12));
    expect((await get('/api/business/profile', biz.cookie)).json().apiKeyPrefix).toBe(prefix);
    expectError(await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(biz.apiKey) }), 401, 'unauthorized');
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(apiKey) })).statusCode).toBe(200);

    // The test key is untouched by the live key's regeneration.
    const keys = await t.ctx.db.selectFrom('api_key').select(['prefix', 'revoked_at', 'livemode']).where('business_id', '=', biz.businessId).execute();
    expect(keys.filter((k) => k.revoked_at === null && k.livemode).map((k) => k.prefix)).toEqual([prefix]);
    expect(keys.filter((k) => k.revoked_at === null && !k.livemode).map((k) => k.prefix)).toEqual([biz.testApiKey.slice(0, 12)]);
    expect(keys).toHaveLength(3);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(biz.testApiKey) })).statusCode).toBe(200);
    const [audit] = await listAuditEntries(t.ctx.db, { subjectId: biz.businessId });
    expect(audit).toMatchObject({ action: 'api_key.regenerated', details: { prefix, mode: 'live' } });
    expect(JSON.stringify(audit)).not.toContain(apiKey);
  });

  // --- dashboard ----------------------------------------------------------------------------

  describe('dashboard', () => {
    it('shows zeros and an empty 30-day series before any verification', async () => {
      const biz = await createBusiness(t.app, 'Quiet Co');
      const res = await get('/api/business/dashboard', biz.cookie);
      expect(res.statusCode).toBe(200);
      const { stats, recentVerifications } = res.json();
      expect(stats.today).toEqual({ totalRequests: 0, successRate: 0, avgResponseTime: 0, failedVerifications: 0 });
      expect(stats.month).toEqual({ totalRequests: 0, successfulVerifications: 0, totalCost: '0.00', avgResponseTime: 0 });
      expect(stats.daily).toHaveLength(30);
      expect(stats.daily.every((d: { total: number }) => d.total === 0)).toBe(true);
      expect(recentVerifications).toEqual([]);
    });

    it('computes today, the month, the daily series and recent verifications from recorded verifications', async () => {
      const biz = await createBusiness(t.app, 'Busy Co');
      await fund(t.ctx, biz.businessId, 10_000);
      const api = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload });
      const enrol = async (userId: string) =>
        (await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(biz.apiKey), payload: { user_id: userId } })).json().secret as string;
      const s1 = await enrol('dash-1');
      const s2 = await enrol('dash-2');
      const stateless = new Secret({ size: 20 }).base32;
      const answers: Awaited<ReturnType<typeof api>>[] = [];
      const dash1Code = totpCode(s1); // sent twice below: the second is a replay even across a 30-s boundary
      answers.push(await api({ user_id: 'dash-1', totp_code: dash1Code, purpose: 'login' }));
      answers.push(await api({ user_id: 'dash-2', totp_code: wrongCode(s2), purpose: 'login' }));
      answers.push(await api({ user_id: 'dash-2', totp_code: totpCode(s2), purpose: 'payout' }));
      answers.push(await api({ secret: stateless, token: totpCode(stateless) }));
      answers.push(await api({ user_id: 'dash-1', totp_code: dash1Code })); // replayed
      expect(answers.map((a) => a.json().status)).toEqual(['verified', 'invalid_code', 'verified', 'verified', 'replayed']);

      // Older history written straight to the table: 10 and 40 days ago.
      const now = new Date();
      const tenDaysAgo = new Date(now.getTime() - 10 * DAY_MS);
      const fortyDaysAgo = new Date(now.getTime() - 40 * DAY_MS);
      await t.ctx.db.transaction().execute(async (trx) => {
        for (const [id, createdAt, status] of [
          ['ver_old10', tenDaysAgo, 'verified'],
          ['ver_old40', fortyDaysAgo, 'invalid_code'],
        ] as const) {
          await recordPastCheck(trx, { id: `${id}_${dialect}`, businessId: biz.businessId, externalUserId: 'history', status, createdAt, responseTimeMs: 4 });
        }
      });

      const res = await get('/api/business/dashboard', biz.cookie);
      expect(res.statusCode).toBe(200);
      const { stats, recentVerifications } = res.json();
      expect(stats.today).toMatchObject({ totalRequests: 5, successRate: 60, failedVerifications: 2 });
      expect(stats.today.avgResponseTime).toBeGreaterThanOrEqual(0);
      expect(stats.today.avgResponseTime).toBeLessThan(5_000);

      const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
      const inMonth = [tenDaysAgo, fortyDaysAgo].filter((d) => d.getTime() >= monthStart);
      const oldVerifiedInMonth = tenDaysAgo.getTime() >= monthStart ? 1 : 0;
      expect(stats.month).toMatchObject({
        totalRequests: 5 + inMonth.length,
        successfulVerifications: 3 + oldVerifiedInMonth,
        totalCost: ((5 + inMonth.length) * 0.1).toFixed(2),
      });

      expect(stats.daily).toHaveLength(30);
      const dates = stats.daily.map((d: { date: string }) => d.date);
      expect(dates[29]).toBe(isoDay(now));
      expect(dates[0]).toBe(isoDay(new Date(now.getTime() - 29 * DAY_MS)));
      for (let i = 1; i < 30; i++) expect(Date.parse(dates[i]) - Date.parse(dates[i - 1])).toBe(DAY_MS);
      expect(stats.daily[29]).toEqual({ date: isoDay(now), total: 5, verified: 3, failed: 2 });
      expect(stats.daily[19]).toEqual({ date: isoDay(tenDaysAgo), total: 1, verified: 1, failed: 0 });
      expect(stats.daily.reduce((sum: number, d: { total: number }) => sum + d.total, 0)).toBe(6); // not the 40-day-old one

      expect(recentVerifications).toHaveLength(7);
      const times = recentVerifications.map((v: { createdAt: string }) => Date.parse(v.createdAt));
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
      expect(recentVerifications.slice(0, 5).map((v: { id: string }) => v.id).sort()).toEqual(answers.map((a) => a.json().verification_id).sort());
      expect(recentVerifications.slice(5).map((v: { id: string }) => v.id)).toEqual([`ver_old10_${dialect}`, `ver_old40_${dialect}`]);
      const payout = recentVerifications.find((v: { purpose: string | null }) => v.purpose === 'payout');
      expect(payout).toMatchObject({ isVerified: true, status: 'verified', userId: 'dash-2', cost: '0.10', responseTime: expect.any(Number) });
      const statelessRow = recentVerifications.find((v: { id: string }) => v.id === answers[3]!.json().verification_id);
      expect(statelessRow).toMatchObject({ userId: null, isVerified: true });
    });

    it('lists at most 20 recent verifications', async () => {
      const biz = await createBusiness(t.app, 'Many Co');
      await fund(t.ctx, biz.businessId, 1_000);
      const secret = new Secret({ size: 20 }).base32;
      for (let i = 0; i < 22; i++) {
        await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(biz.apiKey), payload: { secret, token: totpCode(secret) } });
      }
      const { stats, recentVerifications } = (await get('/api/business/dashboard', biz.cookie)).json();
      expect(stats.today.totalRequests).toBe(22);
      expect(recentVerifications).toHaveLength(20);
    });
  });

  // --- usage export -------------------------------------------------------------------------

  describe('usage.csv', () => {
    let biz: TestBusiness;
    const today = isoDay(new Date());
    beforeAll(async () => {
      biz = await createBusiness(t.app, 'Export Co');
      await fund(t.ctx, biz.businessId, 1_000);
      const enrolAndVerify = async (userId: string, purpose?: string) => {
        const secret = (await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: bearer(biz.apiKey), payload: { user_id: userId } })).json().secret;
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/verify',
          headers: bearer(biz.apiKey),
          payload: { user_id: userId, totp_code: totpCode(secret), ...(purpose === undefined ? {} : { purpose }) },
        });
        expect(res.json().status).toBe('verified');
      };
      await enrolAndVerify('=cmd|"/c calc"!A1', '=HYPERLINK("http://evil.example","click")');
      await enrolAndVerify('+91-98765-43210', '@SUM(A1:A9)');
      await enrolAndVerify('-2+3', '\tleading tab');
      await enrolAndVerify('plain-user', 'comma, "quotes"\r\nand a new line');
      await enrolAndVerify('ünïcødé-用户', 'लॉगिन');
      await t.ctx.db.transaction().execute((trx) =>
        recordPastCheck(trx, { id: `ver_export_old_${dialect}`, businessId: biz.businessId, externalUserId: 'old-user', status: 'invalid_code', createdAt: new Date('2026-01-15T12:00:00.000Z'), responseTimeMs: 2.5 }),
      );
    });

    it('exports the chosen date range with a header row, as an attachment', async () => {
      const res = await get(`/api/business/usage.csv?from=${today}&to=${today}`, biz.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="sixdigit-usage-${today}-to-${today}.csv"`);
      expect(res.body.endsWith('\r\n')).toBe(true);
      const [header, ...rows] = parseCsv(res.body);
      expect(header!.join(',')).toBe(CSV_HEADER);
      expect(rows).toHaveLength(5);
      for (const row of rows) {
        expect(row).toHaveLength(10);
        expect(row[0]).toMatch(/^ver_/);
        expect(row[1]!.slice(0, 10)).toBe(today);
        expect(row.slice(3, 5)).toEqual(['managed', 'totp']);
        expect(row[6]).toBe('verified');
        expect(row[7]).toBe('0.10');
        expect(Number(row[8])).toBeGreaterThanOrEqual(0);
      }
      expect(rows.map((r) => r[2])).toContain('ünïcødé-用户');
      expect(rows.map((r) => r[5])).toContain('comma, "quotes"\r\nand a new line');
    });

    it('neutralises spreadsheet formulas (CSV injection) in user ids and purposes, and quotes every field', async () => {
      const res = await get(`/api/business/usage.csv?from=${today}&to=${today}`, biz.cookie);
      const rows = parseCsv(res.body).slice(1);
      const cells = rows.flatMap((r) => [r[2]!, r[5]!]);
      for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      expect(cells).toEqual(
        expect.arrayContaining([
          `'=cmd|"/c calc"!A1`,
          `'=HYPERLINK("http://evil.example","click")`,
          "'+91-98765-43210",
          "'@SUM(A1:A9)",
          "'-2+3",
          "'\tleading tab",
        ]),
      );
      // Every field of every row is quoted, with inner quotes doubled.
      const quoted = rows.map((r) => r.map((f) => `"${f.replace(/"/g, '""')}"`).join(','));
      expect(res.body).toBe([CSV_HEADER, ...quoted].join('\r\n') + '\r\n');
      expect(res.body).toContain('"\'=HYPERLINK(""http://evil.example"",""click"")"');
    });

    it('includes only rows inside the range, whole days in UTC', async () => {
      const jan = parseCsv((await get('/api/business/usage.csv?from=2026-01-15&to=2026-01-15', biz.cookie)).body);
      expect(jan.slice(1).map((r) => r[0])).toEqual([`ver_export_old_${dialect}`]);
      expect(jan[1]).toEqual([`ver_export_old_${dialect}`, '2026-01-15T12:00:00.000Z', 'old-user', 'managed', 'totp', '', 'invalid_code', '0.10', '2.5', 'true']);
      const before = parseCsv((await get('/api/business/usage.csv?from=2025-12-01&to=2026-01-14', biz.cookie)).body);
      expect(before).toEqual([CSV_HEADER.split(',')]);
    });

    it.each([
      ['from missing', 'to=2026-01-01'],
      ['to missing', 'from=2026-01-01'],
      ['not a date', 'from=yesterday&to=2026-01-01'],
      ['no zero padding', 'from=2026-1-01&to=2026-01-02'],
      ['month 13', 'from=2026-13-01&to=2026-13-02'],
      ['30 February', 'from=2026-02-01&to=2026-02-30'],
      ['29 February in a common year', 'from=2026-02-29&to=2026-03-01'],
      ['31 April', 'from=2026-04-01&to=2026-04-31'],
      ['from after to', 'from=2026-02-02&to=2026-02-01'],
      ['more than a year', 'from=2024-01-01&to=2025-06-01'],
      ['injection attempt', "from=2026-01-01'%20or%201=1--&to=2026-01-02"],
      ['10 kB value', `from=${'9'.repeat(10_240)}&to=2026-01-02`],
    ])('answers 400 for bad dates: %s', async (_name, query) => {
      expectError(await get(`/api/business/usage.csv?${query}`, biz.cookie), 400, 'validation_failed');
    });
  });

  // --- auto-refill and ledger ---------------------------------------------------------------

  it('stores auto-refill settings and validates them', async () => {
    const biz = await createBusiness(t.app, 'Refill Co');
    const ok = await send('PUT', '/api/business/auto-refill', biz.cookie, { enabled: true, thresholdRupees: 500, packId: 'standard' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().autoRefill).toMatchObject({ enabled: true, thresholdPaise: 50_000, packId: 'standard', mode: 'bank', offReason: null, lastRefill: null });
    expect((await get('/api/business/profile', biz.cookie)).json().autoRefill).toMatchObject({ enabled: true, thresholdPaise: 50_000, packId: 'standard', mode: 'bank', offReason: null, lastRefill: null });

    for (const payload of [
      { enabled: true, thresholdRupees: 99, packId: 'basic' },
      { enabled: true, thresholdRupees: 10_000_001, packId: 'basic' },
      { enabled: true, thresholdRupees: 150.5, packId: 'basic' },
      { enabled: true, thresholdRupees: -500, packId: 'basic' },
      { enabled: true, thresholdRupees: '500', packId: 'basic' },
      { enabled: true, thresholdRupees: null, packId: 'basic' },
      { enabled: true, thresholdRupees: 500, packId: 'gold' },
      { enabled: true, thresholdRupees: 500, packId: '' },
      { enabled: true, thresholdRupees: 500, packId: 'p'.repeat(10_240) },
      { enabled: true, thresholdRupees: 500, packId: 'básic😀' },
      { enabled: 'yes', thresholdRupees: 500, packId: 'basic' },
      { thresholdRupees: 500, packId: 'basic' },
      { enabled: true, packId: 'basic' },
      { enabled: true, thresholdRupees: 500 },
    ]) {
      expectError(await send('PUT', '/api/business/auto-refill', biz.cookie, payload), 400, 'validation_failed');
    }
    expect((await get('/api/business/profile', biz.cookie)).json().autoRefill).toMatchObject({ enabled: true, thresholdPaise: 50_000, packId: 'standard', mode: 'bank', offReason: null, lastRefill: null });

    const off = await send('PUT', '/api/business/auto-refill', biz.cookie, { enabled: false, thresholdRupees: 100, packId: 'basic' });
    expect(off.json().autoRefill).toMatchObject({ enabled: false, thresholdPaise: 10_000, packId: 'basic' });
  });

  it('lists the credit ledger, newest first', async () => {
    const biz = await createBusiness(t.app, 'Ledger Co');
    expect((await get('/api/business/ledger', biz.cookie)).json()).toEqual([]);
    await fund(t.ctx, biz.businessId, 10_000);
    await new Promise((r) => setTimeout(r, 5));
    await fund(t.ctx, biz.businessId, 250);
    const res = await get('/api/business/ledger', biz.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: expect.stringMatching(/^led_/), amount: '2.50', kind: 'grant', reference: null, reason: 'test funding', createdAt: expect.any(String) },
      { id: expect.stringMatching(/^led_/), amount: '100.00', kind: 'grant', reference: null, reason: 'test funding', createdAt: expect.any(String) },
    ]);
    expect((await get('/api/business/profile', biz.cookie)).json()).toMatchObject({ balance: '102.50', balancePaise: 10_250, verificationsLeft: 1025, lowBalance: false });
  });

  // --- security -----------------------------------------------------------------------------

  describe('security', () => {
    const routes = [
      ['GET', '/api/business/profile'],
      ['GET', '/api/business/dashboard'],
      ['GET', '/api/business/ledger'],
      ['GET', '/api/business/usage.csv?from=2026-01-01&to=2026-01-02'],
      ['POST', '/api/business/create'],
      ['POST', '/api/business/api-key/regenerate'],
      ['PUT', '/api/business/auto-refill'],
    ] as const;

    it.each(routes)('%s %s answers 401 when signed out, with a bad cookie or with an API key', async (method, url) => {
      const biz = await createBusiness(t.app, 'Signed Out Co');
      const payload = method === 'GET' ? {} : { payload: { companyName: 'X', enabled: true, thresholdRupees: 500, packId: 'basic' } };
      for (const headers of [{}, { cookie: 'better-auth.session_token=forged.value' }, bearer(biz.apiKey)]) {
        // As a browser on our own page would send it: past the CSRF guard, refused by the session check.
        expectError(await t.app.inject({ method, url, headers: { ...headers, 'sec-fetch-site': 'same-origin' }, ...payload }), 401, 'unauthorized');
      }
    });

    it("a user never sees or touches another user's business", async () => {
      const alice = await createBusiness(t.app, 'Alice Co');
      await fund(t.ctx, alice.businessId, 5_000);
      const secret = new Secret({ size: 20 }).base32;
      await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: bearer(alice.apiKey), payload: { secret, token: totpCode(secret) } });
      await send('PUT', '/api/business/auto-refill', alice.cookie, { enabled: true, thresholdRupees: 200, packId: 'basic' });

      const bobCookie = await signIn(t.app, `${unique('bob')}@example.com`);
      for (const url of ['/api/business/profile', '/api/business/dashboard', '/api/business/ledger', `/api/business/usage.csv?from=${isoDay(new Date())}&to=${isoDay(new Date())}`]) {
        const res = await get(url, bobCookie);
        expectError(res, 404, 'not_found');
        expect(res.body).not.toContain(alice.businessId);
      }
      expectError(await send('POST', '/api/business/api-key/regenerate', bobCookie), 404, 'not_found');
      expectError(await send('PUT', '/api/business/auto-refill', bobCookie, { enabled: false, thresholdRupees: 100, packId: 'premium' }), 404, 'not_found');

      // Bob's own business is separate and empty.
      await send('POST', '/api/business/create', bobCookie, { companyName: 'Bob Co' });
      const bobProfile = (await get('/api/business/profile', bobCookie)).json();
      expect(bobProfile.id).not.toBe(alice.businessId);
      expect(bobProfile.balancePaise).toBe(0);
      const bobDashboard = (await get('/api/business/dashboard', bobCookie)).json();
      expect(bobDashboard.stats.today.totalRequests).toBe(0);
      expect(bobDashboard.recentVerifications).toEqual([]);
      expect((await get('/api/business/ledger', bobCookie)).json()).toEqual([]);
      await send('POST', '/api/business/api-key/regenerate', bobCookie);

      // Alice is unchanged: key, settings, balance.
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(alice.apiKey) })).statusCode).toBe(200);
      const aliceProfile = (await get('/api/business/profile', alice.cookie)).json();
      expect(aliceProfile).toMatchObject({ balancePaise: 4_990, autoRefill: { enabled: true, thresholdPaise: 20_000, packId: 'basic' } });
      expect((await get('/api/business/dashboard', alice.cookie)).json().stats.today.totalRequests).toBe(1);
    });

    it('refuses cookie-authenticated writes from a foreign Origin with 403, and changes nothing', async () => {
      const biz = await createBusiness(t.app, 'Origin Co');
      const evil = { origin: 'https://evil.example' };
      const newcomer = await signIn(t.app, `${unique('csrf')}@example.com`);
      expectError(await send('POST', '/api/business/create', newcomer, { companyName: 'Phished Co' }, evil), 403, 'forbidden_origin');
      expectError(await get('/api/business/profile', newcomer), 404, 'not_found');

      expectError(await send('POST', '/api/business/api-key/regenerate', biz.cookie, undefined, evil), 403, 'forbidden_origin');
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(biz.apiKey) })).statusCode).toBe(200);

      expectError(await send('PUT', '/api/business/auto-refill', biz.cookie, { enabled: true, thresholdRupees: 500, packId: 'basic' }, evil), 403, 'forbidden_origin');
      expect((await get('/api/business/profile', biz.cookie)).json().autoRefill.enabled).toBe(false);

      // Our own origin is fine.
      const own = await send('PUT', '/api/business/auto-refill', biz.cookie, { enabled: true, thresholdRupees: 500, packId: 'basic' }, { origin: 'http://localhost:5000' });
      expect(own.statusCode).toBe(200);
    });

    it('refuses cookie-authenticated writes with no same-site signal at all, or a foreign Referer or Sec-Fetch-Site (403)', async () => {
      const biz = await createBusiness(t.app, 'No Origin Co');
      const bare = (method: 'POST' | 'PUT', url: string, cookie: string, payload: unknown, headers: Record<string, string>) =>
        t.app.inject({ method, url, headers: { cookie, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
      const newcomer = await signIn(t.app, `${unique('nosignal')}@example.com`);
      const signals: Array<Record<string, string>> = [{}, { referer: 'https://evil.example/page' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'none' }, { origin: 'null' }];
      for (const headers of signals) {
        expectError(await bare('POST', '/api/business/create', newcomer, { companyName: 'Phished Co' }, headers), 403, 'forbidden_origin');
        expectError(await get('/api/business/profile', newcomer), 404, 'not_found');
        expectError(await bare('POST', '/api/business/api-key/regenerate', biz.cookie, undefined, headers), 403, 'forbidden_origin');
      }
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/test', headers: bearer(biz.apiKey) })).statusCode).toBe(200);
      // A same-origin Referer alone (an old browser) is enough.
      const viaReferer = await bare('PUT', '/api/business/auto-refill', biz.cookie, { enabled: true, thresholdRupees: 500, packId: 'basic' }, { referer: 'http://localhost:5000/business' });
      expect(viaReferer.statusCode).toBe(200);
    });
  });
});
