import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { ORIGIN, signInFresh, uniqueEmail } from '../../../../test/support/authenticator';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { storeLegacyAccount } from './service';

const SECRET = 'JBSWY3DPEHPK3PXP';
const ACCOUNT = { type: 'totp', issuer: 'ACME', accountName: 'alice@example.com', secret: SECRET, algorithm: 'SHA1', digits: 6, period: 30, counter: null } as const;

/**
 * What is left of the server-side authenticator (issue 20): one read of the old accounts, for
 * moving them into the vault. The server takes no secret and no image of the authenticator.
 */
describeEachDialect('the server-side authenticator, read-only', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const call = (opts: InjectOptions & { cookie?: string }) => {
    const { cookie, headers, ...rest } = opts;
    return t.app.inject({ ...rest, headers: { ...(cookie ? { cookie } : {}), ...(rest.method !== 'GET' ? ORIGIN : {}), ...headers } } as InjectOptions);
  };
  const userIdOf = async (email: string) => (await t.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  it("lists the person's own old accounts (for the move into the vault), nobody else's", async () => {
    const email = uniqueEmail('legacy');
    const cookie = await signInFresh(t.app, email);
    await storeLegacyAccount(t.ctx, await userIdOf(email), ACCOUNT);
    const other = await signInFresh(t.app, uniqueEmail('legacy-other'));
    expect((await call({ method: 'GET', url: '/api/user/totp-accounts', cookie })).json()).toEqual([expect.objectContaining({ ...ACCOUNT, id: expect.any(String) })]);
    expect((await call({ method: 'GET', url: '/api/user/totp-accounts', cookie: other })).json()).toEqual([]);
    expect((await call({ method: 'GET', url: '/api/user/totp-accounts' })).statusCode).toBe(401);
  });

  it('no longer takes a secret or an image: adding, importing, code generation and QR reading are gone', async () => {
    const cookie = await signInFresh(t.app, uniqueEmail('gone'));
    for (const [method, url, payload] of [
      ['POST', '/api/user/totp-accounts', { accountName: 'x', secret: SECRET }],
      ['POST', '/api/user/totp-accounts/import', { accounts: [{ accountName: 'x', secret: SECRET }] }],
      ['POST', '/api/user/generate-totp-code', { accountId: 'tac_x' }],
      ['POST', '/api/user/scan-qr', {}],
      ['DELETE', '/api/user/totp-accounts/tac_x', undefined],
    ] as const) {
      const res = await call({ method, url, cookie, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await t.ctx.db.selectFrom('authenticator_account').select('id').where('account_name', '=', 'x').execute()).toEqual([]);
  });

  it('refuses the old accounts to an administrator impersonating the person (403)', async () => {
    const email = uniqueEmail('legacy-imp');
    const cookie = await signInFresh(t.app, email);
    await storeLegacyAccount(t.ctx, await userIdOf(email), ACCOUNT);
    await t.ctx.db.updateTable('session').set({ impersonatedBy: 'admin-user-id' }).where('userId', '=', await userIdOf(email)).execute();
    const res = await call({ method: 'GET', url: '/api/user/totp-accounts', cookie });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain(SECRET);
  });
});
