import { randomBytes } from 'node:crypto';
import { base32Encode } from '@common/otpauth';
import { decryptEntry, encryptEntry, importVaultKey, newEntryId, openWithPassphrase, openWithRecoveryKey } from '@common/vault/crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findNeedles, everyStoredValue, totpSecretNeedle } from '../../../../test/support/at-rest';
import { ORIGIN, signInFresh, uniqueEmail } from '../../../../test/support/authenticator';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { PASSPHRASE, newTestVault, vaultAccount } from '../../../../test/support/vault';
import { storeLegacyAccount } from '../authenticator/service';

const randomSecret = () => base32Encode(randomBytes(20));
const legacy = (secret: string) => ({ type: 'totp', issuer: 'Legacy', accountName: 'old', secret, algorithm: 'SHA1', digits: 6, period: 30, counter: null }) as const;

/**
 * The end-to-end encrypted vault (issue 20). Attackers: another signed-in person, an
 * administrator impersonating the owner, and whoever holds the database and APP_ENCRYPTION_KEY.
 */
describeEachDialect('vault routes', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const call = (opts: InjectOptions & { cookie: string }) => {
    const { cookie, headers, ...rest } = opts;
    return t.app.inject({ ...rest, headers: { cookie, ...(rest.method !== 'GET' ? ORIGIN : {}), ...headers } } as InjectOptions);
  };
  const state = (cookie: string, since?: number) => call({ method: 'GET', url: `/api/user/vault${since === undefined ? '' : `?since=${since}`}`, cookie });
  const create = (cookie: string, body: object) => call({ method: 'POST', url: '/api/user/vault', cookie, payload: body });
  const put = (cookie: string, id: string, baseVersion: number, ciphertext: string) =>
    call({ method: 'PUT', url: `/api/user/vault/entries/${id}`, cookie, payload: { baseVersion, ciphertext } });
  const remove = (cookie: string, id: string, baseVersion: number) => call({ method: 'DELETE', url: `/api/user/vault/entries/${id}?baseVersion=${baseVersion}`, cookie });
  const userIdOf = async (email: string) => (await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  it('creates a vault, writes versioned entries, refuses a stale write with 409, and syncs by revision', async () => {
    const cookie = await signInFresh(t.app, uniqueEmail('vault'));
    expect((await state(cookie)).json()).toMatchObject({ header: null, entries: [] });
    const v = await newTestVault([vaultAccount(randomSecret())]);
    const created = await create(cookie, v.body);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().header).toMatchObject({ vaultId: v.vaultId, version: 1 });
    expect(created.json().entries).toHaveLength(1);
    expect((await create(cookie, v.body)).statusCode).toBe(409);

    // A second device unlocks from what the server answers and reads the entry.
    const fetched = (await state(cookie)).json();
    const key = await importVaultKey(await openWithPassphrase(fetched.header, PASSPHRASE));
    const [first] = fetched.entries;
    expect(await decryptEntry(key, v.vaultId, first.id, 1, first.ciphertext)).toMatchObject({ issuer: 'ACME' });

    // New entry (base 0), then an edit from base 1; the same edit again is stale.
    const id = newEntryId();
    const added = await put(cookie, id, 0, await encryptEntry(key, v.vaultId, id, 1, vaultAccount(randomSecret())));
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ id, version: 1 });
    const edit = await encryptEntry(key, v.vaultId, id, 2, vaultAccount(randomSecret(), { issuer: 'Edited' }));
    expect((await put(cookie, id, 1, edit)).json()).toMatchObject({ version: 2 });
    const stale = await put(cookie, id, 1, edit);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_conflict');
    expect(stale.headers['x-current-version']).toBe('2');
    expect((await put(cookie, newEntryId(), 3, edit)).json().error.code).toBe('version_conflict');

    // Only what changed after a revision comes back; a delete is a tombstone with the next version.
    const since = (await state(cookie)).json().revision;
    expect((await state(cookie, since)).json().entries).toEqual([]);
    expect((await remove(cookie, id, 1)).statusCode).toBe(409);
    const deleted = await remove(cookie, id, 2);
    expect(deleted.json()).toMatchObject({ id, version: 3, ciphertext: null });
    const changes = (await state(cookie, since)).json();
    expect(changes.entries).toEqual([expect.objectContaining({ id, version: 3, ciphertext: null })]);
    expect(changes.revision).toBeGreaterThan(since);
  });

  it('refuses ciphertext that is not base64 or too large', async () => {
    const cookie = await signInFresh(t.app, uniqueEmail('vault-limits'));
    expect((await create(cookie, (await newTestVault()).body)).statusCode).toBe(201);
    expect((await put(cookie, newEntryId(), 0, 'not base64!')).statusCode).toBe(400);
    expect((await put(cookie, newEntryId(), 0, 'A'.repeat(40_000))).statusCode).toBe(400);
    expect((await put(cookie, 'x', 0, 'AAAA')).statusCode).toBe(400);
  });

  it('changes the wrapped keys without touching entries, refusing a stale header', async () => {
    const cookie = await signInFresh(t.app, uniqueEmail('vault-keys'));
    const v = await newTestVault([vaultAccount(randomSecret())]);
    await create(cookie, v.body);
    const replacement = await newTestVault();
    // Same vault id, new slots (here simply another key set: the server cannot tell, nor needs to).
    const keys = (baseVersion: number) => call({ method: 'PUT', url: '/api/user/vault/keys', cookie, payload: { baseVersion, slots: replacement.body.slots } });
    expect((await keys(1)).json()).toMatchObject({ version: 2 });
    expect((await keys(1)).statusCode).toBe(409);
    const after = (await state(cookie)).json();
    expect(after.header.version).toBe(2);
    expect(after.entries.map((e: { ciphertext: string }) => e.ciphertext)).toEqual(v.body.entries.map((e) => e.ciphertext));
  });

  it("never lets one person read or write another's vault", async () => {
    const owner = await signInFresh(t.app, uniqueEmail('vault-owner'));
    const v = await newTestVault([vaultAccount(randomSecret())]);
    await create(owner, v.body);
    const [entryId] = v.entryIds;
    const other = await signInFresh(t.app, uniqueEmail('vault-other'));
    expect((await state(other)).json()).toMatchObject({ header: null, entries: [] });
    expect((await put(other, entryId!, 1, 'AAAA')).statusCode).toBe(404); // no vault of their own
    expect((await remove(other, entryId!, 1)).statusCode).toBe(404);
    await create(other, (await newTestVault()).body);
    // The same entry id in their own vault is a different (absent) entry: version 0, not the owner's 1.
    expect((await put(other, entryId!, 1, 'AAAA')).statusCode).toBe(409);
    expect((await remove(other, entryId!, 1)).statusCode).toBe(409);
    expect((await state(other)).json().entries).toEqual([]);
    const ownerState = (await state(owner)).json();
    expect(ownerState.entries).toEqual([expect.objectContaining({ id: entryId, version: 1, ciphertext: v.body.entries[0]!.ciphertext })]);
  });

  it('refuses every vault route to an administrator impersonating the owner (403)', async () => {
    const email = uniqueEmail('vault-imp');
    const cookie = await signInFresh(t.app, email);
    const v = await newTestVault([vaultAccount(randomSecret())]);
    await create(cookie, v.body);
    await t.ctx.db.updateTable('session').set({ impersonatedBy: 'admin-user-id' }).where('userId', '=', await userIdOf(email)).execute();
    for (const res of [
      await state(cookie),
      await create(cookie, v.body),
      await put(cookie, v.entryIds[0]!, 1, 'AAAA'),
      await remove(cookie, v.entryIds[0]!, 1),
      await call({ method: 'PUT', url: '/api/user/vault/keys', cookie, payload: { baseVersion: 1, slots: v.body.slots } }),
      await call({ method: 'DELETE', url: '/api/user/vault', cookie }),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.body).not.toContain(v.body.entries[0]!.ciphertext);
    }
  });

  it('moves the old server-side accounts in: one request stores the vault and deletes them; a failed one deletes nothing', async () => {
    const email = uniqueEmail('vault-move');
    const cookie = await signInFresh(t.app, email);
    const secret = randomSecret();
    await storeLegacyAccount(t.ctx, await userIdOf(email), legacy(secret));
    expect((await state(cookie)).json().legacyAccounts).toBe(1);
    const old = (await call({ method: 'GET', url: '/api/user/totp-accounts', cookie })).json();
    const v = await newTestVault(old.map((a: { secret: string }) => vaultAccount(a.secret)), true);
    // The tab dies mid-way (here: the request is refused half-written): the old copies stay.
    const broken = await create(cookie, { ...v.body, entries: [...v.body.entries, v.body.entries[0]] });
    expect(broken.statusCode).toBe(400);
    expect((await state(cookie)).json()).toMatchObject({ header: null, legacyAccounts: 1 });
    const moved = await create(cookie, v.body);
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json()).toMatchObject({ legacyAccounts: 0 });
    expect((await call({ method: 'GET', url: '/api/user/totp-accounts', cookie })).json()).toEqual([]);
    const key = await importVaultKey(await openWithRecoveryKey(moved.json().header, v.recoveryKey));
    const entry = moved.json().entries[0];
    expect(await decryptEntry(key, v.vaultId, entry.id, 1, entry.ciphertext)).toMatchObject({ secret });
  });

  it('forgotten passphrase and no recovery key: the vault can be deleted and started again empty', async () => {
    const cookie = await signInFresh(t.app, uniqueEmail('vault-reset'));
    await create(cookie, (await newTestVault([vaultAccount(randomSecret())])).body);
    expect((await call({ method: 'DELETE', url: '/api/user/vault', cookie })).statusCode).toBe(204);
    expect((await state(cookie)).json()).toMatchObject({ header: null, entries: [] });
    expect((await create(cookie, (await newTestVault()).body)).statusCode).toBe(201);
  });

  it('holds no vault secret anywhere at rest, and the database plus APP_ENCRYPTION_KEY opens nothing of it', async () => {
    const email = uniqueEmail('vault-rest');
    const cookie = await signInFresh(t.app, email);
    const secrets = [randomSecret(), randomSecret(), randomSecret()];
    // One account moved in from the server-side authenticator, one created with the vault, one added later, one deleted.
    await storeLegacyAccount(t.ctx, await userIdOf(email), legacy(secrets[0]!));
    const v = await newTestVault([vaultAccount(secrets[0]!), vaultAccount(secrets[1]!)], true);
    expect((await create(cookie, v.body)).statusCode).toBe(201);
    const id = newEntryId();
    await put(cookie, id, 0, await encryptEntry(v.key, v.vaultId, id, 1, vaultAccount(secrets[2]!)));
    await remove(cookie, v.entryIds[1]!, 1);
    const needles = [
      ...secrets.map((s, i) => totpSecretNeedle(`vault account secret ${i}`, s)),
      { what: 'passphrase', text: [PASSPHRASE], bytes: [] },
      { what: 'recovery key', text: [v.recoveryKey, v.recoveryKey.replace(/-/g, '')], bytes: [] },
    ];
    expect(await findNeedles(t.ctx, needles)).toEqual([]);

    // The thief also has APP_ENCRYPTION_KEY: decrypt everything the server can decrypt (the old
    // authenticator's rows; any vault value under any context) and search it.
    const opened: string[] = [];
    for (const row of await t.ctx.db.selectFrom('authenticator_account').selectAll().execute()) {
      opened.push(t.ctx.secrets.decrypt(row.secret_enc, `authenticator_account:${row.user_id}:${row.id}`));
    }
    const userId = await userIdOf(email);
    for (const value of (await everyStoredValue(t.ctx)).filter((v) => v.where.startsWith('vault'))) {
      for (const candidate of [value.text, ...value.text.match(/[A-Za-z0-9+/]{40,}={0,2}/g) ?? []]) {
        for (const context of ['', `vault:${userId}`, `vault_entry:${userId}`]) {
          try {
            opened.push(t.ctx.secrets.decrypt(candidate, context));
          } catch {
            // not the server's ciphertext: expected for every vault value
          }
        }
      }
    }
    expect(opened.filter((plain) => secrets.some((s) => plain.includes(s)))).toEqual([]);
    // The server's key is not the vault key either, under any name it derives keys for.
    const entry = (await state(cookie)).json().entries.find((e: { ciphertext: string | null }) => e.ciphertext);
    for (const candidate of [t.ctx.secrets.deriveKey('vault'), t.ctx.secrets.deriveKey('authenticator-fingerprint')]) {
      const key = await importVaultKey(new Uint8Array(candidate));
      await expect(decryptEntry(key, v.vaultId, entry.id, entry.version, entry.ciphertext)).rejects.toThrow();
    }
  });
});
