import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page, Request } from 'playwright-core';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { toMigrationUris, type OtpAccount } from '../../common/otpauth';
import { findNeedles, totpSecretNeedle } from '../../test/support/at-rest';
import { storeLegacyAccount } from '../../server/src/features/authenticator/service';
import { signInLocally, useE2E, visit } from '../support/harness';
import { VAULT_PASSPHRASE, createVault, unlockWithPassphrase, unlockWithRecoveryKey } from '../support/vault';

/**
 * The end-to-end encrypted vault (issue 20), in Chromium: nothing the page sends carries a
 * secret or an image; reload locks; passphrase and recovery key unlock; a second browser syncs;
 * the old server-side accounts move in once, and a tab closed half-way loses nothing.
 */
const h = useE2E('authenticator/vault');
const work = mkdtempSync(join(tmpdir(), 'sixdigit-vault-e2e-'));

const hasOathtool = spawnSync('oathtool', ['--version']).status === 0;
function oathtool(secret: string, algorithm: 'sha1' | 'sha256' = 'sha1'): string {
  if (!hasOathtool) return new TOTP({ secret: Secret.fromBase32(secret), algorithm: algorithm.toUpperCase() }).generate();
  return execFileSync('oathtool', ['--totp=' + algorithm, '--base32', secret], { encoding: 'utf8' }).trim();
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const codeButton = (page: Page, label: string) => page.getByRole('button', { name: new RegExp(`^Copy code .* for ${escape(label)}$`) });
async function shownCode(page: Page, label: string): Promise<string> {
  const name = (await codeButton(page, label).getAttribute('aria-label')) ?? '';
  return name.replace(/^Copy code /, '').replace(/ for .*$/, '').replace(/\s+/g, '');
}
async function awayFromStepBoundary(): Promise<void> {
  const intoStep = (Date.now() / 1000) % 30;
  if (intoStep > 26) await new Promise((r) => setTimeout(r, (30.5 - intoStep) * 1000));
}

async function addManually(page: Page, fields: { name: string; issuer: string; secret: string }) {
  await page.getByRole('button', { name: 'Add Account' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Account' });
  await dialog.getByLabel('Account name').fill(fields.name);
  await dialog.getByLabel('Issuer').fill(fields.issuer);
  await dialog.getByLabel('Secret key').fill(fields.secret);
  await dialog.getByRole('button', { name: 'Add Account' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Every request the page sends, with its body. */
function capture(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (r) => sent.push(r));
  return sent;
}

function leaks(sent: Request[], secrets: string[]): string[] {
  const found: string[] = [];
  for (const r of sent) {
    const body = r.postDataBuffer() ?? Buffer.alloc(0);
    const type = r.headers()['content-type'] ?? '';
    if (/multipart|image\//i.test(type)) found.push(`${r.method()} ${r.url()} sends ${type}`);
    if (body.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) found.push(`${r.method()} ${r.url()} sends a PNG`);
    for (const secret of secrets) {
      for (const form of [secret, secret.toLowerCase(), encodeURIComponent(secret)]) {
        if (r.url().includes(form) || body.includes(Buffer.from(form))) found.push(`${r.method()} ${r.url()} carries ${secret}`);
      }
    }
  }
  return found;
}

const userIdOf = async (email: string) => (await h.ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

describe('the authenticator vault', () => {
  it('creates a vault, adds by hand, by QR image and by a Google export image; no request carries a secret or an image; reload locks; both unlocks work; a second browser syncs', async () => {
    const page = await h.newPage({ width: 1280 });
    const sent = capture(page);
    await visit(page, '/api/login?returnTo=%2Fmulti-totp');
    await signInLocally(page, 'vera@example.com', 'Vera Vault');
    await page.getByText('Create your encrypted vault').waitFor();
    await h.screenshot(page, '1-create-1280');
    const recoveryKey = await createVault(page, VAULT_PASSPHRASE, async () => {
      await h.screenshot(page, '2-recovery-key-1280');
    });
    expect(recoveryKey).toMatch(/^([A-Z2-7]{4}-){7}[A-Z2-7]{4}$/);

    const secrets = { hand: 'JBSWY3DPEHPK3PXP', upload: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', google1: 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU', google2: 'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U' };
    await addManually(page, { name: 'vera@hand', issuer: 'Hand', secret: secrets.hand });

    // A QR image, read on the page.
    const png = join(work, 'upload.png');
    await QRCode.toFile(png, `otpauth://totp/Upload%20Inc:vera@upload?secret=${secrets.upload}&issuer=Upload%20Inc`);
    await page.getByRole('button', { name: 'Add Account' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add Account' });
    await add.getByRole('tab', { name: /Upload/ }).click();
    await add.locator('input[type=file]').setInputFiles(png);
    await expect.poll(() => add.getByLabel('Account name').inputValue(), { timeout: 20_000 }).toBe('vera@upload');
    await add.getByRole('button', { name: 'Add Account' }).click();
    await add.waitFor({ state: 'detached' });

    // A Google Authenticator export image (two accounts, one SHA256), read on the page.
    const google: OtpAccount[] = [
      { type: 'totp', issuer: 'Google1', accountName: 'vera@g1', secret: secrets.google1, algorithm: 'SHA1', digits: 6, period: 30, counter: null },
      { type: 'totp', issuer: 'Google2', accountName: 'vera@g2', secret: secrets.google2, algorithm: 'SHA256', digits: 6, period: 30, counter: null },
    ];
    const exportPng = join(work, 'google-export.png');
    await QRCode.toFile(exportPng, toMigrationUris(google).uris[0]!, { width: 600 });
    await page.getByRole('button', { name: /Import \/ Export/ }).click();
    await page.getByRole('menuitem', { name: /Import accounts/ }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import accounts' });
    await importDialog.getByRole('tab', { name: /QR images/ }).click();
    await importDialog.locator('input[type=file]').setInputFiles(exportPng);
    await importDialog.getByRole('button', { name: 'Import 2 accounts' }).click({ timeout: 20_000 });
    await importDialog.getByText('2 accounts added.').waitFor({ timeout: 20_000 });
    await importDialog.getByRole('button', { name: 'Done' }).click();

    await awayFromStepBoundary();
    expect(await shownCode(page, 'Hand: vera@hand')).toBe(oathtool(secrets.hand));
    expect(await shownCode(page, 'Upload Inc: vera@upload')).toBe(oathtool(secrets.upload));
    expect(await shownCode(page, 'Google1: vera@g1')).toBe(oathtool(secrets.google1));
    expect(await shownCode(page, 'Google2: vera@g2')).toBe(oathtool(secrets.google2, 'sha256'));
    await h.screenshot(page, '3-list-1280');

    // Nothing the page sent holds a secret, an image, the passphrase or the recovery key.
    expect(leaks(sent, [...Object.values(secrets), VAULT_PASSPHRASE, recoveryKey, recoveryKey.replace(/-/g, '')])).toEqual([]);
    expect(sent.filter((r) => /scan-qr|totp-accounts|generate-totp-code/.test(r.url())).map((r) => r.url())).toEqual([]);
    // …nor does the database, nor its files.
    expect(await findNeedles(h.ctx, [...Object.values(secrets).map((s) => totpSecretNeedle(s, s)), { what: 'recovery key', text: [recoveryKey], bytes: [] }])).toEqual([]);

    // Reload: locked. The passphrase opens it; lock; the recovery key opens it.
    await page.reload();
    await page.getByText('Your vault is locked').waitFor();
    await h.screenshot(page, '4-unlock-1280');
    await unlockWithPassphrase(page);
    await codeButton(page, 'Hand: vera@hand').waitFor();
    await page.getByRole('button', { name: 'Lock', exact: true }).click();
    await unlockWithRecoveryKey(page, recoveryKey.toLowerCase());
    await codeButton(page, 'Google2: vera@g2').waitFor();

    // A second browser, same person: unlocks with the passphrase and sees the same accounts.
    const phone = await h.newPage({ width: 390 });
    await visit(phone, '/api/login?returnTo=%2Fmulti-totp');
    await signInLocally(phone, 'vera@example.com', 'Vera Vault');
    await phone.getByText('Your vault is locked').waitFor();
    await h.screenshot(phone, '5-unlock-390');
    await unlockWithPassphrase(phone);
    await codeButton(phone, 'Upload Inc: vera@upload').waitFor();
    await h.screenshot(phone, '6-list-390');
    // The phone adds one and deletes one; the laptop sees both on its next sync (here: on focus).
    await addManually(phone, { name: 'vera@phone', issuer: 'Phone', secret: 'ONSWG4TFORRW63TUMVXHI2LTNBSWY3DP' });
    await phone.getByRole('button', { name: 'Delete Hand: vera@hand' }).click();
    await phone.getByRole('alertdialog').getByRole('button', { name: /Delete/ }).click();
    await codeButton(phone, 'Hand: vera@hand').waitFor({ state: 'detached' });
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await codeButton(page, 'Phone: vera@phone').waitFor();
    await codeButton(page, 'Hand: vera@hand').waitFor({ state: 'detached' });
    // The laptop moves an account while the phone has not synced; the phone's later move still lands (409 → merge → retry).
    await page.getByRole('button', { name: 'Move Google2: vera@g2 up' }).click();
    await phone.getByRole('button', { name: 'Move Phone: vera@phone up' }).click();
    await expect.poll(async () => (await h.ctx.db.selectFrom('vault_entry').select('version').execute()).some((e) => e.version > 1)).toBe(true);
    expect(h.pageErrors(page)).toEqual([]);
    expect(h.pageErrors(phone)).toEqual([]);
  });

  it('create and unlock at 390 px', async () => {
    const page = await h.newPage({ width: 390 });
    await visit(page, '/api/login?returnTo=%2Fmulti-totp');
    await signInLocally(page, 'small@example.com', 'Small Screen');
    await page.getByText('Create your encrypted vault').waitFor();
    await page.getByLabel('Vault passphrase').fill('violet harbor');
    await h.screenshot(page, '7-create-390');
    await createVault(page, VAULT_PASSPHRASE, async () => {
      await h.screenshot(page, '8-recovery-key-390');
    });
    await page.getByText('No TOTP Accounts').waitFor();
    await h.screenshot(page, '9-empty-390');
  });

  it('moves the old server-side accounts in once; a tab closed half-way loses nothing', async () => {
    const email = 'legacy@example.com';
    // Service workers blocked: the installed app's worker would carry the request past page.route.
    const context = await h.browser.newContext({ baseURL: h.baseUrl, serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
    const first = await context.newPage();
    await visit(first, '/api/login?returnTo=%2Fmulti-totp');
    await signInLocally(first, email, 'Lee Gacy');
    const secret = 'NBSWY3DPEB3W64TMMQQHEZLUNBSWY3DP';
    await storeLegacyAccount(h.ctx, await userIdOf(email), { type: 'totp', issuer: 'Old Bank', accountName: 'lee', secret, algorithm: 'SHA1', digits: 6, period: 30, counter: null });
    await first.reload();
    await first.getByText(/You have 1 account stored the old way/).waitFor();
    // The tab closes after it read the old accounts, while the request that creates the vault is on its way.
    let read = false;
    let cut = false;
    await first.route('**/api/user/**', async (route) => {
      const { pathname } = new URL(route.request().url());
      if (pathname === '/api/user/totp-accounts') read = true;
      if (pathname === '/api/user/vault' && route.request().method() === 'POST') {
        // The connection drops with the tab (a request paused here and left would be let through
        // by Chromium when the tab goes, so it is failed explicitly first).
        cut = true;
        await route.abort('connectionclosed');
        await first.close();
      } else await route.continue();
    });
    await createVault(first).catch(() => undefined);
    expect([read, cut, first.isClosed()]).toEqual([true, true, true]);
    await context.close();
    expect(await h.ctx.db.selectFrom('authenticator_account').select('id').where('user_id', '=', await userIdOf(email)).execute()).toHaveLength(1);
    expect(await h.ctx.db.selectFrom('vault').select('user_id').where('user_id', '=', await userIdOf(email)).execute()).toEqual([]);

    // Again, to the end: the vault holds the account and the server's copy is gone.
    const again = await h.newPage({ width: 1280 });
    const sent = capture(again);
    await visit(again, '/api/login?returnTo=%2Fmulti-totp');
    await signInLocally(again, email, 'Lee Gacy');
    await again.getByText(/You have 1 account stored the old way/).waitFor();
    await createVault(again);
    await awayFromStepBoundary();
    expect(await shownCode(again, 'Old Bank: lee')).toBe(oathtool(secret));
    expect(await h.ctx.db.selectFrom('authenticator_account').select('id').where('user_id', '=', await userIdOf(email)).execute()).toEqual([]);
    // The one read of the old accounts is the only answer that held the secret; nothing sent it back.
    expect(leaks(sent, [secret])).toEqual([]);
    expect(await findNeedles(h.ctx, [totpSecretNeedle('moved account', secret)])).toEqual([]);
  });

  it('unlocks with a passkey (PRF) on a virtual authenticator', async () => {
    const page = await h.newPage({ width: 1280 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, hasPrf: true, automaticPresenceSimulation: true },
    });
    await visit(page, '/api/login?returnTo=%2Fmulti-totp');
    await signInLocally(page, 'pia@example.com', 'Pia Passkey');
    // The passkeys feature (another branch) registers passkeys with PRF on /totp; here the page
    // makes one the same way, a discoverable credential for this site with the PRF extension.
    const prfEnabled = await page.evaluate(async () => {
      const credential = (await navigator.credentials.create({
        publicKey: {
          rp: { name: 'Sixdigit', id: location.hostname },
          user: { id: crypto.getRandomValues(new Uint8Array(16)), name: 'pia@example.com', displayName: 'Pia' },
          challenge: crypto.getRandomValues(new Uint8Array(32)),
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
          authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
          extensions: { prf: {} } as AuthenticationExtensionsClientInputs,
        },
      })) as PublicKeyCredential;
      return (credential.getClientExtensionResults() as { prf?: { enabled?: boolean } }).prf?.enabled === true;
    });
    expect(prfEnabled).toBe(true);
    await createVault(page);
    await addManually(page, { name: 'pia@site', issuer: 'Site', secret: 'JBSWY3DPEHPK3PXP' });
    await page.getByRole('button', { name: /Vault passphrase, recovery key and passkeys/ }).click();
    const form = page.getByRole('form', { name: 'Unlock with a passkey' });
    await form.getByLabel('Current passphrase').fill(VAULT_PASSPHRASE);
    await form.getByRole('button', { name: 'Add a passkey' }).click();
    await form.getByText('1 passkey unlocks this vault.').waitFor({ timeout: 30_000 });
    const header = await h.ctx.db.selectFrom('vault').select('slots').where('user_id', '=', await userIdOf('pia@example.com')).executeTakeFirstOrThrow();
    expect(JSON.parse(header.slots).map((s: { kind: string }) => s.kind).sort()).toEqual(['passkey', 'passphrase', 'recovery']);

    await page.reload();
    await page.getByRole('button', { name: 'Unlock with a passkey' }).click();
    await codeButton(page, 'Site: pia@site').waitFor({ timeout: 20_000 });
    await awayFromStepBoundary();
    expect(await shownCode(page, 'Site: pia@site')).toBe(oathtool('JBSWY3DPEHPK3PXP'));
    await h.screenshot(page, '10-passkey-unlocked-1280');
  });

  it('measures the Argon2id unlock on a CPU throttled 4×', async () => {
    const page = await h.newPage({ width: 390 });
    await visit(page, '/api/login?returnTo=%2Fmulti-totp');
    await signInLocally(page, 'slow@example.com', 'Slow Phone');
    await createVault(page);
    await page.reload();
    await page.getByText('Your vault is locked').waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.getByLabel('Vault passphrase').fill(VAULT_PASSPHRASE);
    const started = Date.now();
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('button', { name: 'Lock', exact: true }).waitFor({ timeout: 60_000 });
    const ms = Date.now() - started;
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    writeFileSync(join(work, 'argon2-unlock-ms.txt'), String(ms));
    console.log(`[vault e2e] Argon2id (64 MiB, 3 passes) unlock with the CPU throttled 4×: ${ms} ms`);
  });
});
