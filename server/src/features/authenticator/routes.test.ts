import { randomBytes } from 'node:crypto';
import { INVALID_QR_MESSAGE, QR_NOT_FOUND_MESSAGE, base32Encode, generateCode, toMigrationUris, toOtpauthUri, type OtpAccount } from '@common/otpauth';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORIGIN,
  blankPng,
  imagePart,
  multipart,
  pngHeaderClaiming,
  pngToJpeg,
  pngToWebp,
  qrPng,
  signInFresh,
  uniqueEmail,
  type Part,
} from '../../../../test/support/authenticator';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { MAX_UPLOAD_BYTES } from './qr-image';
import { MAX_ACCOUNTS_PER_USER } from './service';

const SECRET = 'JBSWY3DPEHPK3PXP';
const randomSecret = () => base32Encode(randomBytes(20));
const link = (overrides: Partial<OtpAccount> = {}) =>
  toOtpauthUri({ type: 'totp', issuer: 'ACME', accountName: 'alice@example.com', secret: SECRET, algorithm: 'SHA1', digits: 6, period: 30, counter: null, ...overrides });

/** The personal authenticator: SPEC.md §2, §3 (TOTP account), §5, §7, §8; DESIGN.md §5, §9. */
describeEachDialect('authenticator routes', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const call = (opts: InjectOptions & { cookie?: string }) => {
    const { cookie, headers, ...rest } = opts;
    return t.app.inject({ ...rest, headers: { ...(cookie ? { cookie } : {}), ...(rest.method !== 'GET' ? ORIGIN : {}), ...headers } } as InjectOptions);
  };
  const list = (cookie: string) => call({ method: 'GET', url: '/api/user/totp-accounts', cookie });
  const add = (cookie: string, payload: unknown) => call({ method: 'POST', url: '/api/user/totp-accounts', cookie, payload: payload as object });
  const importMany = (cookie: string, accounts: unknown[]) => call({ method: 'POST', url: '/api/user/totp-accounts/import', cookie, payload: { accounts } });
  const remove = (cookie: string, id: string) => call({ method: 'DELETE', url: `/api/user/totp-accounts/${id}`, cookie });
  const codeFor = (cookie: string, accountId: string) => call({ method: 'POST', url: '/api/user/generate-totp-code', cookie, payload: { accountId } });
  const scan = (cookie: string, parts: Part[], headers: Record<string, string> = {}) => {
    const body = multipart(parts);
    return call({ method: 'POST', url: '/api/user/scan-qr', cookie, payload: body.payload, headers: { ...body.headers, ...headers } });
  };
  const userIdOf = async (email: string) => (await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  it('refuses every route when signed out (401)', async () => {
    for (const [method, url] of [
      ['GET', '/api/user/totp-accounts'],
      ['POST', '/api/user/totp-accounts'],
      ['POST', '/api/user/totp-accounts/import'],
      ['DELETE', '/api/user/totp-accounts/tac_x'],
      ['POST', '/api/user/generate-totp-code'],
      ['POST', '/api/user/scan-qr'],
    ] as const) {
      const res = await call({ method, url, ...(method === 'POST' ? { payload: { accountName: 'x', secret: SECRET, accountId: 'tac_x', accounts: [] } } : {}) });
      expect({ url, status: res.statusCode, code: res.json().error.code }).toEqual({ url, status: 401, code: 'unauthorized' });
    }
  });

  describe('add, list, delete', () => {
    it('starts empty', async () => {
      const res = await list(await signInFresh(t.app, uniqueEmail('empty')));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });

    it('adds by manual entry (secret with spaces in lower case), lists it with its secret, stores it encrypted', async () => {
      const email = uniqueEmail('add');
      const cookie = await signInFresh(t.app, email);
      const res = await add(cookie, { accountName: '  alice@example.com ', issuer: 'GitHub', secret: 'jbsw y3dp ehpk 3pxp' });
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toEqual({
        id: expect.stringMatching(/^tac_[A-Za-z0-9]{20}$/),
        type: 'totp',
        issuer: 'GitHub',
        accountName: 'alice@example.com',
        secret: SECRET,
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
        counter: null,
        createdAt: expect.any(String),
      });
      const listed = await list(cookie);
      expect(listed.headers['cache-control']).toBe('no-store');
      expect(listed.json()).toEqual([created]);

      const row = await t.ctx.db.selectFrom('authenticator_account').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.secret_enc).not.toContain(SECRET);
      expect(row.fingerprint).not.toContain(SECRET);
      const userId = await userIdOf(email);
      expect(t.ctx.secrets.decrypt(row.secret_enc, `authenticator_account:${userId}:${created.id}`)).toBe(SECRET);
      expect(() => t.ctx.secrets.decrypt(row.secret_enc, `authenticator_account:other:${created.id}`)).toThrow();
    });

    it('keeps every field: HOTP with counter, SHA512, 8 digits, unicode names, order of adding', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('fields'));
      const a = (await add(cookie, { accountName: 'üser 🔑', issuer: '日本銀行', secret: randomSecret(), algorithm: 'SHA512', digits: 8, period: 60 })).json();
      const b = (await add(cookie, { accountName: 'h', secret: randomSecret(), type: 'hotp', counter: 2 ** 40, algorithm: 'sha256', digits: '7' })).json();
      expect(a).toMatchObject({ accountName: 'üser 🔑', issuer: '日本銀行', algorithm: 'SHA512', digits: 8, period: 60, type: 'totp', counter: null });
      expect(b).toMatchObject({ accountName: 'h', issuer: null, algorithm: 'SHA256', digits: 7, period: 30, type: 'hotp', counter: 2 ** 40 });
      expect((await list(cookie)).json()).toEqual([a, b]);
    });

    it.each([
      ['no name', { secret: SECRET }, 'The account name is missing.'],
      ['a blank name', { accountName: '   ', secret: SECRET }, 'The account name is missing.'],
      ['no secret', { accountName: 'bob' }, 'The secret is missing.'],
      ['a secret that is not base32', { accountName: 'bob', secret: 'hello world 1890' }, 'The secret is not valid base32 (letters A–Z and digits 2–7).'],
      ['an unknown algorithm', { accountName: 'bob', secret: SECRET, algorithm: 'MD5' }, 'Unsupported algorithm "MD5" (use SHA1, SHA256 or SHA512).'],
      ['9 digits', { accountName: 'bob', secret: SECRET, digits: 9 }, 'Codes must have 6 to 8 digits (got "9").'],
      ['a 5-second period', { accountName: 'bob', secret: SECRET, period: 5 }, 'The period must be 10 to 300 seconds (got "5").'],
      ['HOTP without counter', { accountName: 'bob', secret: SECRET, type: 'hotp' }, 'An HOTP account needs its counter.'],
      ['an unknown type', { accountName: 'bob', secret: SECRET, type: 'motp' }, 'Unknown OTP type "motp" (use totp or hotp).'],
      ['a 201-character issuer', { accountName: 'bob', issuer: 'i'.repeat(201), secret: SECRET }, 'The issuer is too long (at most 200 characters).'],
    ])('refuses %s with the rule’s message (400)', async (_name, payload, message) => {
      const cookie = await signInFresh(t.app, uniqueEmail('invalid'));
      const res = await add(cookie, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message });
      expect((await list(cookie)).json()).toEqual([]);
    });

    it('refuses malformed bodies (400): wrong types, NUL, oversized, not JSON', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('malformed'));
      for (const payload of [{ accountName: 5, secret: SECRET }, { accountName: 'a\u0000b', secret: SECRET }, { accountName: 'x'.repeat(1001), secret: SECRET }, { accountName: 'bob', secret: SECRET, digits: [6] }]) {
        const res = await add(cookie, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('validation_failed');
      }
      const notJson = await call({ method: 'POST', url: '/api/user/totp-accounts', cookie, payload: '{oops', headers: { 'content-type': 'application/json' } });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json().error.code).toBe('invalid_json');
      const huge = await add(cookie, { accountName: 'bob', secret: SECRET, padding: 'x'.repeat(70 * 1024) });
      expect(huge.statusCode).toBe(413);
    });

    it('refuses the same account twice (issuer + name + secret, case-insensitive names) with 409', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('dup'));
      expect((await add(cookie, { accountName: 'bob', issuer: 'ACME', secret: SECRET })).statusCode).toBe(201);
      const again = await add(cookie, { accountName: 'BOB', issuer: 'acme', secret: SECRET.toLowerCase() });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('acme: BOB is already in your authenticator.');
      // Another secret, or another person, is another account.
      expect((await add(cookie, { accountName: 'bob', issuer: 'ACME', secret: randomSecret() })).statusCode).toBe(201);
      expect((await add(await signInFresh(t.app, uniqueEmail('dup2')), { accountName: 'bob', issuer: 'ACME', secret: SECRET })).statusCode).toBe(201);
    });

    it('deletes only one’s own accounts: another person’s is 404 and stays', async () => {
      const owner = await signInFresh(t.app, uniqueEmail('owner'));
      const intruder = await signInFresh(t.app, uniqueEmail('intruder'));
      const mine = (await add(owner, { accountName: 'bob', secret: SECRET })).json();
      expect((await list(intruder)).json()).toEqual([]);
      const foreign = await remove(intruder, mine.id);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error).toMatchObject({ code: 'not_found', message: 'No such account in your authenticator.' });
      expect((await codeFor(intruder, mine.id)).statusCode).toBe(404);
      expect((await list(owner)).json()).toHaveLength(1);

      const res = await remove(owner, mine.id);
      expect(res.statusCode).toBe(204);
      expect((await list(owner)).json()).toEqual([]);
      expect((await remove(owner, mine.id)).statusCode).toBe(404);
      expect((await remove(owner, 'x'.repeat(41))).statusCode).toBe(400);
    });

    it('refuses writes from a foreign Origin (403)', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('origin'));
      const created = (await add(cookie, { accountName: 'bob', secret: SECRET })).json();
      const evil = { origin: 'https://evil.example' };
      for (const res of [
        await call({ method: 'POST', url: '/api/user/totp-accounts', cookie, payload: { accountName: 'eve', secret: SECRET }, headers: evil }),
        await call({ method: 'DELETE', url: `/api/user/totp-accounts/${created.id}`, cookie, headers: evil }),
        await call({ method: 'POST', url: '/api/user/totp-accounts/import', cookie, payload: { accounts: [{ accountName: 'e', secret: SECRET }] }, headers: evil }),
        await call({ method: 'POST', url: '/api/user/generate-totp-code', cookie, payload: { accountId: created.id }, headers: evil }),
        await scan(cookie, [imagePart(await qrPng(link()))], evil),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('forbidden_origin');
      }
      expect((await list(cookie)).json()).toEqual([created]);
    });

    it(`keeps at most ${MAX_ACCOUNTS_PER_USER} accounts per person`, async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('limit'));
      const accounts = Array.from({ length: MAX_ACCOUNTS_PER_USER }, (_, i) => ({ accountName: `user${i}`, issuer: 'Bulk', secret: randomSecret() }));
      const res = await importMany(cookie, accounts);
      expect(res.statusCode).toBe(200);
      expect(res.json().added).toHaveLength(MAX_ACCOUNTS_PER_USER);
      const more = await add(cookie, { accountName: 'one too many', secret: randomSecret() });
      expect(more.statusCode).toBe(409);
      expect(more.json().error.message).toBe(`You can keep at most ${MAX_ACCOUNTS_PER_USER} accounts. Delete some before adding more.`);
      const imported = (await importMany(cookie, [{ accountName: 'late', secret: randomSecret() }])).json();
      expect(imported).toEqual({ added: [], skipped: [{ reason: `The limit of ${MAX_ACCOUNTS_PER_USER} accounts is reached.`, label: 'late' }] });
      expect((await list(cookie)).json()).toHaveLength(MAX_ACCOUNTS_PER_USER);
    });
  });

  describe('import', () => {
    it('adds the valid entries and says why the others were skipped (invalid, repeated, already stored)', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('import'));
      await add(cookie, { accountName: 'stored', issuer: 'ACME', secret: SECRET });
      const secret2 = randomSecret();
      const res = await importMany(cookie, [
        { accountName: 'new', issuer: 'ACME', secret: secret2 },
        { accountName: 'stored', issuer: 'ACME', secret: SECRET },
        { accountName: 'NEW', issuer: 'acme', secret: secret2.toLowerCase() },
        { accountName: 'bad', issuer: 'X', secret: '!!!' },
        { issuer: '', secret: SECRET },
        { accountName: 'counter', type: 'hotp', secret: randomSecret(), counter: '7' },
      ]);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.added.map((a: OtpAccount) => a.accountName)).toEqual(['new', 'counter']);
      expect(body.added[1]).toMatchObject({ type: 'hotp', counter: 7, id: expect.stringMatching(/^tac_/) });
      expect(body.skipped).toEqual([
        { reason: 'Already in your authenticator.', label: 'ACME: stored' },
        { reason: 'Already in your authenticator.', label: 'acme: NEW' },
        { reason: 'The secret is not valid base32 (letters A–Z and digits 2–7).', label: 'X: bad' },
        { reason: 'The account name is missing.', label: 'entry 5' },
      ]);
      expect((await list(cookie)).json().map((a: OtpAccount) => a.accountName)).toEqual(['stored', 'new', 'counter']);
      expect(JSON.stringify(body.skipped)).not.toContain(SECRET);
    });

    it('refuses an empty list, a non-list and more than the limit in one go (400)', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('import-bad'));
      for (const payload of [{ accounts: [] }, { accounts: 'x' }, {}, { accounts: Array.from({ length: MAX_ACCOUNTS_PER_USER + 1 }, () => ({ accountName: 'a', secret: SECRET })) }]) {
        const res = await call({ method: 'POST', url: '/api/user/totp-accounts/import', cookie, payload });
        expect(res.statusCode).toBe(400);
      }
    });

    it('rate-limits imports per user: 10 a minute', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('import-limit'));
      for (let i = 0; i < 10; i++) expect((await importMany(cookie, [{ accountName: `a${i}`, secret: randomSecret() }])).statusCode).toBe(200);
      const limited = await importMany(cookie, [{ accountName: 'late', secret: randomSecret() }]);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('rate_limited');
    });
  });

  describe('generate-totp-code (kept for API compatibility)', () => {
    it('answers the TOTP code and the seconds it has left', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('gen'));
      const account = (await add(cookie, { accountName: 'bob', secret: SECRET, algorithm: 'SHA256', digits: 8, period: 60 })).json();
      const before = Date.now();
      const res = await codeFor(cookie, account.id);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({ code: expect.stringMatching(/^\d{8}$/), timeRemaining: expect.any(Number), expiresAt: expect.any(String), counter: null });
      expect([generateCode(account, before), generateCode(account, Date.now())]).toContain(body.code);
      expect(body.timeRemaining).toBeGreaterThanOrEqual(1);
      expect(body.timeRemaining).toBeLessThanOrEqual(60);
    });

    it('moves an HOTP counter on with each code (RFC 4226 Appendix D values)', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('hotp'));
      const secret = base32Encode(new TextEncoder().encode('12345678901234567890'));
      const account = (await add(cookie, { accountName: 'h', secret, type: 'hotp', counter: 0 })).json();
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await codeFor(cookie, account.id)).json());
      expect(codes).toEqual([
        { code: '755224', timeRemaining: null, expiresAt: null, counter: 1 },
        { code: '287082', timeRemaining: null, expiresAt: null, counter: 2 },
        { code: '359152', timeRemaining: null, expiresAt: null, counter: 3 },
        { code: '969429', timeRemaining: null, expiresAt: null, counter: 4 },
      ]);
      expect((await list(cookie)).json()[0].counter).toBe(4);
    });

    it('refuses a missing or unknown account id', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('gen-bad'));
      expect((await call({ method: 'POST', url: '/api/user/generate-totp-code', cookie, payload: {} })).statusCode).toBe(400);
      expect((await codeFor(cookie, 'tac_nope')).statusCode).toBe(404);
    });
  });

  describe('scan-qr', () => {
    const first = { accountName: 'alice@example.com', issuer: 'ACME', secret: SECRET, algorithm: 'SHA1', digits: 6, period: 30, type: 'totp', counter: null };

    it('reads a PNG QR code made in the test (SPEC.md §7: accountName, issuer, secret) and stores nothing', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('scan-png'));
      const res = await scan(cookie, [imagePart(await qrPng(link()))]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ...first, source: 'otpauth', accounts: [{ ...first }], skipped: [] });
      expect((await list(cookie)).json()).toEqual([]);
    });

    it('reads a JPEG and a WebP, whatever content type the browser claims', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('scan-jpeg'));
      const png = await qrPng(link({ issuer: 'Air Canada', accountName: 'bob+2fa@example.com', algorithm: 'SHA512', digits: 8, period: 60 }));
      for (const part of [imagePart(pngToJpeg(png, 80), 'photo.jpg', 'image/jpeg'), imagePart(await pngToWebp(png), 'shot.webp', 'application/octet-stream')]) {
        const res = await scan(cookie, [part]);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ issuer: 'Air Canada', accountName: 'bob+2fa@example.com', algorithm: 'SHA512', digits: 8, period: 60 });
      }
    });

    it('reads a Google Authenticator export QR code: every account in it', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('scan-migration'));
      const accounts: OtpAccount[] = Array.from({ length: 5 }, (_, i) => ({
        type: i === 4 ? 'hotp' : 'totp',
        issuer: `Issuer ${i}`,
        accountName: `user${i}@example.com`,
        secret: randomSecret(),
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
        counter: i === 4 ? 12 : null,
      }));
      const [uri] = toMigrationUris(accounts).uris;
      const res = await scan(cookie, [imagePart(await qrPng(uri!, 600))]);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.source).toBe('migration');
      expect(body.accounts).toEqual(accounts);
      expect(body).toMatchObject({ accountName: 'user0@example.com', issuer: 'Issuer 0', secret: accounts[0]!.secret });
    });

    it('answers 422 qr_not_found for an image with no QR code (SPEC.md §8 words)', async () => {
      const res = await scan(await signInFresh(t.app, uniqueEmail('scan-none')), [imagePart(blankPng())]);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toMatchObject({ code: 'qr_not_found', message: QR_NOT_FOUND_MESSAGE });
    });

    it.each([
      ['a web link', 'https://example.com/login'],
      ['plain text', 'hello'],
      ['an otpauth link with a bad secret', 'otpauth://totp/ACME:bob?secret=1234&issuer=ACME'],
      ['a Steam link', `otpauth://steam/Steam:bob?secret=${SECRET}`],
    ])('answers 422 with the Invalid QR Code message for %s', async (_name, text) => {
      const res = await scan(await signInFresh(t.app, uniqueEmail('scan-invalid')), [imagePart(await qrPng(text))]);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toMatchObject({ code: 'unprocessable', message: INVALID_QR_MESSAGE });
    });

    it('refuses another file type (415), a non-multipart body (415), a missing field (400), an empty file (400)', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('scan-bad'));
      const gif = await scan(cookie, [imagePart(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'a.gif', 'image/gif')]);
      expect(gif.statusCode).toBe(415);
      expect(gif.json().error).toMatchObject({ code: 'unsupported_media_type', message: 'Upload a PNG, JPEG or WebP image.' });

      const json = await call({ method: 'POST', url: '/api/user/scan-qr', cookie, payload: { image: 'x' } });
      expect(json.statusCode).toBe(415);
      expect(json.json().error.message).toBe('Send the image as multipart/form-data in the field "qr-image".');

      const raw = await call({ method: 'POST', url: '/api/user/scan-qr', cookie, payload: await qrPng(link()), headers: { 'content-type': 'image/png' } });
      expect(raw.statusCode).toBe(415);

      const wrongField = await scan(cookie, [{ name: 'file', data: await qrPng(link()), filename: 'qr.png', contentType: 'image/png' }, { name: 'note', data: 'hi' }]);
      expect(wrongField.statusCode).toBe(400);
      expect(wrongField.json().error.message).toBe('Attach the image as the form field "qr-image".');

      const onlyText = await scan(cookie, [{ name: 'qr-image', data: 'not a file' }]);
      expect(onlyText.statusCode).toBe(400);

      const empty = await scan(cookie, [imagePart(Buffer.alloc(0))]);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error.message).toBe('The uploaded image is empty.');
    });

    it('refuses an upload over 5 MB (413) and an image of too many pixels (413), before decoding', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('scan-big'));
      const png = await qrPng(link());
      const oversized = Buffer.concat([png, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - png.length)]);
      const res = await scan(cookie, [imagePart(oversized)]);
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toMatchObject({ code: 'payload_too_large', message: 'The image is larger than 5 MB.' });

      const bomb = await scan(cookie, [imagePart(pngHeaderClaiming(50_000, 50_000))]);
      expect(bomb.statusCode).toBe(413);
      expect(bomb.json().error.message).toMatch(/^The image is too large \(50000×50000 pixels\)/);

      // An image just under the limit still works.
      const ok = await scan(cookie, [imagePart(Buffer.concat([png, Buffer.alloc(1024)]))]);
      expect(ok.statusCode).toBe(200);
    });

    it('answers 400 for a cut-short or boundary-less multipart body, never 500', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('scan-broken'));
      const body = multipart([imagePart(await qrPng(link()))]);
      for (const [payload, contentType] of [
        [body.payload.subarray(0, body.payload.length - 300), body.headers['content-type']!],
        [body.payload, 'multipart/form-data'],
        [Buffer.from('hello'), body.headers['content-type']!],
      ] as const) {
        const res = await call({ method: 'POST', url: '/api/user/scan-qr', cookie, payload, headers: { 'content-type': contentType } });
        expect(res.statusCode).toBe(400);
      }
    });

    it('refuses two images in one upload (400)', async () => {
      const cookie = await signInFresh(t.app, uniqueEmail('scan-two'));
      const png = await qrPng(link());
      const res = await scan(cookie, [imagePart(png), imagePart(png)]);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('Send one image, in the field "qr-image".');
    });
  });

  it('hides every secret from an administrator impersonating the user (403)', async () => {
    const email = uniqueEmail('imp');
    const cookie = await signInFresh(t.app, email);
    const account = (await add(cookie, { accountName: 'bob', secret: SECRET })).json();
    await t.ctx.db.updateTable('session').set({ impersonatedBy: 'admin-user-id' }).where('userId', '=', await userIdOf(email)).execute();
    for (const res of [
      await list(cookie),
      await add(cookie, { accountName: 'eve', secret: SECRET }),
      await importMany(cookie, [{ accountName: 'eve', secret: SECRET }]),
      await remove(cookie, account.id),
      await codeFor(cookie, account.id),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('impersonation_forbidden');
      expect(res.body).not.toContain(SECRET);
    }
  });
});
