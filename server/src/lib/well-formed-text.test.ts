import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../test/support/db';
import { createBusiness } from '../../../test/support/payments';
import { illFormedIn } from './well-formed-text';

const write = { origin: 'http://localhost:5000', 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };

describe('illFormedIn', () => {
  it('finds lone surrogates and NUL in values and keys at any depth, and passes well-formed text (surrogate pairs included)', () => {
    expect(illFormedIn({ a: ['ok', { b: 'fine 💥' }], c: 1, d: null }, 'body')).toBeNull();
    expect(illFormedIn({ a: [{ b: 'x\ud800' }] }, 'body')).toEqual({ at: 'The body field "b"', nul: false });
    expect(illFormedIn({ a: ['\udc00'] }, 'body')).toEqual({ at: 'A body list item', nul: false });
    expect(illFormedIn({ 'k\u0000': 1 }, 'query')).toEqual({ at: 'A query field name', nul: true });
    expect(illFormedIn('a\u0000b', 'body')).toEqual({ at: 'The body', nul: true });
    expect(illFormedIn(Buffer.from([0xff]), 'body')).toBeNull();
  });

  it('walks a body nested 100,000 deep without overflowing the stack', () => {
    let deep: unknown = '\ud800';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(illFormedIn(deep, 'body')).not.toBeNull();
  });
});

describeEachDialect('ill-formed text is refused with 400 invalid_text (NUL: validation_failed), and nothing is stored', (dialect) => {
  let t: TestApp;
  let apiKey: string;
  let ownerCookie: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const business = await createBusiness(t.app, 'Text Co');
    apiKey = business.apiKey;
    ownerCookie = business.cookie;
  });
  afterAll(async () => t?.close());

  const count = async (table: 'enrolment' | 'business' | 'authenticator_account') =>
    Number((await t.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  function expectInvalidText(res: { statusCode: number; json(): { error: { code: string; message: string; request_id: string } } }) {
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_text', request_id: expect.any(String) });
  }

  it('POST /api/v1/generate: an unpaired surrogate in user_id, label or issuer (was a 500 from encodeURIComponent)', async () => {
    const before = await count('enrolment');
    for (const body of ['{"user_id":"\\ud800"}', '{"user_id":"u1","label":"a\\udfffb"}', '{"user_id":"u2","issuer":"\\udbff"}']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, payload: body });
      expectInvalidText(res);
      expect(res.json().error.message).toMatch(/body field "(user_id|label|issuer)"/);
    }
    expect(await count('enrolment')).toBe(before);
    // A surrogate pair (an emoji) is well-formed and still welcome.
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: { authorization: `Bearer ${apiKey}` }, payload: { user_id: 'emoji 💥', issuer: 'Ünïcødé ✓' } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().otpauth_uri).toContain(encodeURIComponent('emoji 💥'));
  });

  it('POST /api/business/create: a lone surrogate or invalid UTF-8 bytes in the company name (was stored as U+FFFD)', async () => {
    const cookie = await signIn(t.app, `text-${dialect}@example.com`, 'Text Person');
    const before = await count('business');
    expectInvalidText(await t.app.inject({ method: 'POST', url: '/api/business/create', headers: { cookie, ...write }, payload: '{"companyName":"Acme \\ud800"}' }));
    const badBytes = Buffer.concat([Buffer.from('{"companyName":"Acme '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    const res = await t.app.inject({ method: 'POST', url: '/api/business/create', headers: { cookie, ...write }, payload: badBytes });
    expectInvalidText(res);
    expect(res.json().error.message).toMatch(/not valid UTF-8/);
    // Encoded surrogates (CESU-8 / WTF-8 bytes) are not UTF-8 either.
    const cesu = Buffer.concat([Buffer.from('{"companyName":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    expectInvalidText(await t.app.inject({ method: 'POST', url: '/api/business/create', headers: { cookie, ...write }, payload: cesu }));
    expect(await count('business')).toBe(before);
    const ok = await t.app.inject({ method: 'POST', url: '/api/business/create', headers: { cookie, ...write }, payload: Buffer.from('{"companyName":"Café 日本 💥"}') });
    expect(ok.statusCode).toBe(201);
    const stored = await t.ctx.db.selectFrom('business').select('company_name').where('id', '=', ok.json().id).executeTakeFirstOrThrow();
    expect(stored.company_name).toBe('Café 日本 💥');
  });

  it('PUT /api/user/vault/entries/:id: a lone surrogate in a field name', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/user/vault/entries/entry_text_1', headers: { cookie: ownerCookie, ...write }, payload: '{"baseVersion":0,"ciphertext":"AAAA","\\ud800":1}' });
    expectInvalidText(res);
  });

  it('refuses NUL everywhere as validation_failed (PostgreSQL cannot store it; was a 500 on routes without a per-field rule)', async () => {
    for (const [url, payload] of [
      ['/api/business/create', '{"companyName":"x\\u0000"}'],
      ['/api/user/vault', '{"vaultId":"vault_nul_1","format":1,"slots":[],"note\\u0000":1}'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: { cookie: ownerCookie, ...write }, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/NUL/) });
    }
  });

  it('refuses them in the query string and path parameters too', async () => {
    const query = await t.app.inject({ method: 'GET', url: '/api/webhooks/logs?x=%00', headers: { cookie: ownerCookie } });
    expect(query.json().error.code).toBe('validation_failed');
    const path = await t.app.inject({ method: 'DELETE', url: '/api/v1/users/a%00b', headers: { authorization: `Bearer ${apiKey}` } });
    expect(path.json().error.code).toBe('validation_failed');
  });
});
