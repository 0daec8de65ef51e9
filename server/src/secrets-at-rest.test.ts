import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminWithFreshMfa, ORIGIN } from '../../test/support/admin';
import { everyStoredValue, findNeedles, totpSecretNeedle, type Needle } from '../../test/support/at-rest';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../test/support/db';
import { PASSPHRASE, newTestVault, vaultAccount } from '../../test/support/vault';
import { encryptEntry, newEntryId } from '@common/vault/crypto';
import { storeLegacyAccount } from './features/authenticator/service';
import { bearer, createBusiness, fund, totpCode, unique } from '../../test/support/verify-api';

/**
 * Attacker: whoever reads the database or its files (a leaked backup, a stolen disk, a read-only
 * SQL hole) without APP_ENCRYPTION_KEY. Every route that hands out a secret is called here, and
 * then every column of every table, and on SQLite the raw db/-wal/-shm bytes, are searched for
 * each secret, backup/recovery code and full API key, in the forms someone could store them in.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function codeNeedle(what: string, code: string): Needle {
  const bare = code.replace(/[^0-9A-Za-z]/g, '');
  return { what, text: [...new Set([code, bare, bare.toLowerCase(), bare.toUpperCase()])], bytes: [] };
}

function apiKeyNeedle(what: string, key: string): Needle {
  // The prefix shown afterwards (sk_live_/sk_test_ + 4) is not secret; the 32 random characters are.
  return { what, text: [key, key.slice('sk_live_'.length)], bytes: [] };
}

function webhookSecretNeedle(what: string, secret: string): Needle {
  const raw = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return { what, text: [secret, secret.replace(/^whsec_/, ''), raw.toString('hex')], bytes: [raw] };
}

describeEachDialect('no secret a route hands out is readable at rest', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { WEBHOOK_WORKER: 'off' });
  });
  afterAll(async () => t?.close());

  const call = (opts: InjectOptions & { cookie?: string }) =>
    t.app.inject({ ...opts, headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...(opts.cookie ? { cookie: opts.cookie } : {}), ...opts.headers } });
  const ok = (res: LightMyRequestResponse, status: number) => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  };

  it('enrols through every secret-giving route, then finds none of the secrets in any table or database file', async () => {
    const needles: Needle[] = [];

    // Business creation and key regeneration: the full sk_live_ and sk_test_ keys.
    const biz = await createBusiness(t.app, 'Rest Secrets Ltd');
    needles.push(apiKeyNeedle('API key from business creation', biz.apiKey));
    needles.push(apiKeyNeedle('test API key from business creation', biz.testApiKey));
    await fund(t.ctx, biz.businessId, 100_000);
    const regenerated = ok(await call({ method: 'POST', url: '/api/business/api-key/regenerate', cookie: biz.cookie }), 200);
    needles.push(apiKeyNeedle('API key from regeneration', regenerated.apiKey));
    const apiKey: string = regenerated.apiKey;
    const regeneratedTest = ok(await call({ method: 'POST', url: '/api/business/api-key/regenerate?mode=test', cookie: biz.cookie }), 200);
    expect(regeneratedTest.apiKey).toMatch(/^sk_test_/);
    needles.push(apiKeyNeedle('test API key from regeneration', regeneratedTest.apiKey));
    // A test enrolment (its secret and the stored idempotent answer) is held like a live one.
    const testEnrol = await t.app.inject({
      method: 'POST',
      url: '/api/v1/generate',
      headers: { ...bearer(regeneratedTest.apiKey), 'idempotency-key': unique('idem') },
      payload: { user_id: unique('test-user') },
    });
    const testBody = ok(testEnrol, 201);
    expect(testBody.livemode).toBe(false);
    needles.push(totpSecretNeedle('test-mode enrolment secret', testBody.secret));
    for (const code of testBody.backup_codes) needles.push(codeNeedle('test-mode backup code', code));

    // Public API enrolments: without a key, with an Idempotency-Key (on /api/v1 and the /v1 alias).
    const enrol = async (url: string, idempotencyKey?: string) => {
      const payload = { user_id: unique('user') };
      const headers = { ...bearer(apiKey), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) };
      const first = await t.app.inject({ method: 'POST', url, headers, payload });
      const body = ok(first, 201);
      if (idempotencyKey) {
        // The retry answers what the first call answered, byte for byte, from the stored record.
        const retry = await t.app.inject({ method: 'POST', url, headers, payload });
        expect(retry.statusCode).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.body).toBe(first.body);
      }
      needles.push(totpSecretNeedle(`${url} secret (${idempotencyKey ? 'with' : 'without'} Idempotency-Key)`, body.secret));
      needles.push({ what: `${url} otpauth URI`, text: [body.otpauth_uri], bytes: [] });
      needles.push({ what: `${url} QR code`, text: [body.qr_code.slice(-200)], bytes: [] });
      for (const code of body.backup_codes) needles.push(codeNeedle(`${url} backup code`, code));
      return body;
    };
    await enrol('/api/v1/generate');
    const keyed = await enrol('/api/v1/generate', unique('idem'));
    await enrol('/v1/generate', unique('idem'));
    // A keyed verify is stored too (its answer holds no secret, but it must replay as well).
    const verifyHeaders = { ...bearer(apiKey), 'idempotency-key': unique('idem') };
    const verifyPayload = { user_id: keyed.user_id, totp_code: totpCode(keyed.secret) };
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: verifyHeaders, payload: verifyPayload });
    expect(verified.json().status).toBe('verified');
    const verifyRetry = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: verifyHeaders, payload: verifyPayload });
    expect(verifyRetry.body).toBe(verified.body);

    // Webhook signing secrets: one generated by the server, one chosen by the owner.
    const generatedHook = ok(await call({ method: 'POST', url: '/api/webhooks', cookie: biz.cookie, payload: { url: 'https://9.9.9.9/hooks', events: ['credit.low'] } }), 201);
    needles.push(webhookSecretNeedle('generated webhook secret', generatedHook.secret));
    const chosen = `whsec_${randomBytes(32).toString('base64')}`;
    ok(await call({ method: 'POST', url: '/api/webhooks', cookie: biz.cookie, payload: { url: 'https://9.9.9.9/other', events: ['credit.low'], secret: chosen } }), 201);
    needles.push(webhookSecretNeedle('chosen webhook secret', chosen));
    // Over the public API, with and without an Idempotency-Key (the stored answer holds the secret).
    for (const headers of [{}, { 'idempotency-key': unique('idem') }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/webhook_endpoints',
        headers: { authorization: `Bearer ${apiKey}`, ...headers },
        payload: { url: 'https://9.9.9.9/api-hooks', events: ['credit.low'] },
      });
      needles.push(webhookSecretNeedle('webhook secret from POST /api/v1/webhook_endpoints', ok(res, 201).secret));
    }

    // Account TOTP of a signed-in person (and its reset, which hands out a new set).
    const personEmail = `${unique('person')}@example.com`;
    const person = await signIn(t.app, personEmail, 'Pat Person');
    for (const payload of [undefined, { reset: true }]) {
      const setup = ok(await call({ method: 'POST', url: '/api/user/setup-totp', cookie: person, ...(payload ? { payload } : {}) }), 201);
      needles.push(totpSecretNeedle('account TOTP secret', setup.secret));
      needles.push({ what: 'account TOTP otpauth URI', text: [setup.otpauthUri], bytes: [] });
      for (const code of setup.backupCodes) needles.push(codeNeedle('account TOTP backup code', code));
    }

    // The personal authenticator: an account from before the vault, moved in by the browser,
    // and one added to the vault afterwards. The server only ever sees their ciphertext.
    const personId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', personEmail).executeTakeFirstOrThrow()).id;
    const legacySecret = Array.from(randomBytes(32), (b) => BASE32[b % 32]).join('');
    await storeLegacyAccount(t.ctx, personId, { type: 'totp', issuer: 'Bank', accountName: 'bank', secret: legacySecret, algorithm: 'SHA1', digits: 6, period: 30, counter: null });
    const legacy = ok(await call({ method: 'GET', url: '/api/user/totp-accounts', cookie: person }), 200);
    const vault = await newTestVault(legacy.map((a: { secret: string }) => vaultAccount(a.secret)), true);
    ok(await call({ method: 'POST', url: '/api/user/vault', cookie: person, payload: vault.body }), 201);
    const laterSecret = Array.from(randomBytes(32), (b) => BASE32[b % 32]).join('');
    const entryId = newEntryId();
    const ciphertext = await encryptEntry(vault.key, vault.vaultId, entryId, 1, vaultAccount(laterSecret));
    ok(await call({ method: 'PUT', url: `/api/user/vault/entries/${entryId}`, cookie: person, payload: { baseVersion: 0, ciphertext } }), 200);
    needles.push(totpSecretNeedle('authenticator account moved into the vault', legacySecret));
    needles.push(totpSecretNeedle('authenticator account added to the vault', laterSecret));
    needles.push({ what: 'vault recovery key', text: [vault.recoveryKey, vault.recoveryKey.replace(/-/g, '')], bytes: [] });
    needles.push({ what: 'vault passphrase', text: [PASSPHRASE], bytes: [] });

    // Admin MFA, through the shared helper (it follows whatever enrolment the route requires).
    const admin = await adminWithFreshMfa(t.app);
    needles.push(totpSecretNeedle('admin MFA secret', admin.secret));
    expect(admin.recoveryCodes.length).toBeGreaterThan(0);
    for (const code of admin.recoveryCodes) needles.push(codeNeedle('admin MFA recovery code', code));

    // The keyed calls above were stored (live: two generates, a verify, a webhook endpoint; test: a generate), so the scan below reads them.
    const stored = await t.ctx.db.selectFrom('idempotency_record').select('idempotency_key').where('business_id', '=', biz.businessId).execute();
    expect(stored).toHaveLength(5);

    // The scan. Rows first, then (SQLite) the bytes on disk, write-ahead log included.
    expect(await everyStoredValue(t.ctx).then((values) => values.some((v) => v.where.startsWith('idempotency_record.')))).toBe(true);
    const found = await findNeedles(t.ctx, needles);
    expect(found).toEqual([]);
  });
});
