import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page, Request } from 'playwright-core';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { toMigrationUris, type OtpAccount } from '../../common/otpauth';
import { fakeCameraArgs, writeQrVideo } from '../support/fake-camera';
import { signInLocally, useE2E, visit } from '../support/harness';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { createVault, unlockWithPassphrase } from '../support/vault';

const work = mkdtempSync(join(tmpdir(), 'sixdigit-auth-e2e-'));
const CAMERA_URI = 'otpauth://totp/Camera%20Corp:cam@example.com?secret=KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU&issuer=Camera%20Corp';
const video = join(work, 'qr.y4m');
writeQrVideo(video, CAMERA_URI);

const h = useE2E('authenticator/authenticator', { chromiumArgs: fakeCameraArgs(video) });

const hasOathtool = spawnSync('oathtool', ['--version']).status === 0;
if (!hasOathtool) {
  // CI installs it (.ci/run); on a laptop without it, compare with otpauth and say so.
  if (process.env.CI === 'true') throw new Error('oathtool is missing: apt-get install oathtool');
  console.warn('[authenticator e2e] oathtool not installed: codes are compared with otpauth instead (apt-get install oathtool).');
}

/** What oathtool (Debian's package, independent of our code) says the code is right now. */
function oathtool(secret: string, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1', digits = 6): string {
  if (!hasOathtool) {
    return new TOTP({ secret: Secret.fromBase32(secret), algorithm: algorithm.toUpperCase(), digits }).generate();
  }
  return execFileSync('oathtool', ['--totp=' + algorithm, '--base32', `--digits=${digits}`, secret], { encoding: 'utf8' }).trim();
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The code a card shows, read from its copy button's accessible name ("Copy code 123 456 for …"). */
const codeButton = (page: Page, label: string) => page.getByRole('button', { name: new RegExp(`^Copy code .* for ${escape(label)}$`) });

async function shownCode(page: Page, label: string): Promise<string> {
  const button = codeButton(page, label);
  const name = (await button.getAttribute('aria-label')) ?? '';
  return name.replace(/^Copy code /, '').replace(/ for .*$/, '').replace(/\s+/g, '');
}

/** Codes change every 30 s: compare only away from a step boundary. */
async function awayFromStepBoundary(): Promise<void> {
  const intoStep = (Date.now() / 1000) % 30;
  if (intoStep > 27) await new Promise((r) => setTimeout(r, (30.5 - intoStep) * 1000));
}

async function addManually(page: Page, fields: { name: string; issuer?: string; secret: string }) {
  await page.getByRole('button', { name: 'Add Account' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Account' });
  await dialog.getByLabel('Account name').fill(fields.name);
  if (fields.issuer) await dialog.getByLabel('Issuer').fill(fields.issuer);
  await dialog.getByLabel('Secret key').fill(fields.secret);
  await dialog.getByRole('button', { name: 'Add Account' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the personal authenticator', () => {
  it('adds accounts by hand, upload, import and camera; codes match oathtool; copy, delete; no per-second server calls', async () => {
    const page = await h.newPage({ width: 1280 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write', 'camera'], { origin: h.baseUrl });
    const apiCalls: Request[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r);
    });

    await visit(page, '/api/login?returnTo=%2F');
    await signInLocally(page, 'nila@example.com', 'Nila Das');
    await createVault(page);
    await page.getByText('No TOTP Accounts').waitFor();
    await h.screenshot(page, '1-empty');
    await expectNoSeriousA11yViolations(page, { label: '1-empty' });

    // Manual entry: lower case with spaces is accepted.
    await addManually(page, { name: 'nila@github', issuer: 'GitHub', secret: 'jbsw y3dp ehpk 3pxp' });
    await codeButton(page, 'GitHub: nila@github').waitFor();

    // Upload a QR PNG made here.
    const png = join(work, 'upload.png');
    await QRCode.toFile(png, 'otpauth://totp/Upload%20Inc:nila@upload?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Upload%20Inc');
    await page.getByRole('button', { name: 'Add Account' }).first().click();
    const addDialog = page.getByRole('dialog', { name: 'Add Account' });
    await addDialog.getByRole('tab', { name: /Upload/ }).click();
    await addDialog.locator('input[type=file]').setInputFiles(png);
    await expect.poll(() => addDialog.getByLabel('Account name').inputValue(), { timeout: 15_000 }).toBe('nila@upload');
    await addDialog.getByRole('button', { name: 'Add Account' }).click();
    await addDialog.waitFor({ state: 'detached' });
    await codeButton(page, 'Upload Inc: nila@upload').waitFor();

    // Import a Google Authenticator migration link holding SHA256 and SHA512 accounts.
    const migrated: OtpAccount[] = [
      { type: 'totp', issuer: 'Bank256', accountName: 'nila@bank', secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA', algorithm: 'SHA256', digits: 6, period: 30, counter: null },
      { type: 'totp', issuer: 'Mail512', accountName: 'nila@mail', secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA', algorithm: 'SHA512', digits: 8, period: 30, counter: null },
    ];
    const { uris } = toMigrationUris(migrated);
    await page.getByRole('button', { name: /Import \/ Export/ }).click();
    await page.getByRole('menuitem', { name: /Import accounts/ }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import accounts' });
    await importDialog.getByRole('tab', { name: /Paste/ }).click();
    await importDialog.getByLabel(/one per line/).fill(uris.join('\n'));
    await importDialog.getByRole('button', { name: /Preview|Continue|Check/ }).first().click();
    await importDialog.getByRole('list', { name: 'Will be added' }).getByText('nila@bank').waitFor();
    await h.screenshot(page, '2-import-preview');
    await importDialog.getByRole('button', { name: 'Import 2 accounts' }).click();
    await importDialog.getByText('2 accounts added.').waitFor({ timeout: 15_000 });
    await importDialog.getByRole('button', { name: 'Done' }).click();
    await codeButton(page, 'Mail512: nila@mail').waitFor();

    // The codes on the page are oathtool's, for SHA1, SHA256 and SHA512.
    await awayFromStepBoundary();
    expect(await shownCode(page, 'GitHub: nila@github')).toBe(oathtool('JBSWY3DPEHPK3PXP'));
    expect(await shownCode(page, 'Bank256: nila@bank')).toBe(oathtool(migrated[0]!.secret, 'sha256'));
    expect(await shownCode(page, 'Mail512: nila@mail')).toBe(oathtool(migrated[1]!.secret, 'sha512', 8));
    await h.screenshot(page, '3-accounts');
    await expectNoSeriousA11yViolations(page, { label: '3-accounts' });

    // Click-to-copy.
    const code = await shownCode(page, 'GitHub: nila@github');
    await page.getByRole('button', { name: new RegExp(`^Copy code .* for GitHub: nila@github$`) }).click();
    expect((await page.evaluate(() => navigator.clipboard.readText())).replace(/\s+/g, '')).toBe(code);

    // Camera: Chromium's fake device plays a video of a QR code; the form fills itself.
    await page.getByRole('button', { name: 'Add Account' }).first().click();
    const cameraDialog = page.getByRole('dialog', { name: 'Add Account' });
    await cameraDialog.getByRole('tab', { name: /Camera/ }).click();
    await expect.poll(() => cameraDialog.getByLabel('Account name').inputValue().catch(() => ''), { timeout: 20_000 }).toBe('cam@example.com');
    await h.screenshot(page, '4-camera-filled');
    await cameraDialog.getByRole('button', { name: 'Close' }).click();
    await cameraDialog.waitFor({ state: 'detached' });

    // Delete with confirmation.
    await page.getByRole('button', { name: 'Delete Upload Inc: nila@upload' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: /Delete/ }).click();
    await codeButton(page, 'Upload Inc: nila@upload').waitFor({ state: 'detached' });

    // Over 6 s of just showing codes, nothing asks the server for a code.
    const before = apiCalls.length;
    await page.waitForTimeout(6_000);
    const during = apiCalls.slice(before).map((r) => new URL(r.url()).pathname);
    expect(during.filter((p) => p.includes('generate-totp-code'))).toEqual([]);
    expect(during.length).toBeLessThanOrEqual(2);
    expect(apiCalls.some((r) => r.url().includes('generate-totp-code'))).toBe(false);
    expect(h.pageErrors(page)).toEqual([]);
  });

  it('keeps showing correct codes with the network cut, after a reload', async () => {
    const page = await h.newPage({ width: 390 });
    await visit(page, '/api/login?returnTo=%2F');
    await signInLocally(page, 'offline@example.com', 'Off Line');
    await createVault(page);
    await addManually(page, { name: 'offline@site', issuer: 'Site', secret: 'JBSWY3DPEHPK3PXP' });
    await codeButton(page, 'Site: offline@site').waitFor();
    // The service worker takes control after it is installed; a reload puts the page under it.
    await page.evaluate(async () => navigator.serviceWorker.ready);
    await page.reload();
    await unlockWithPassphrase(page);
    await codeButton(page, 'Site: offline@site').waitFor();

    // Offline, the encrypted vault saved on this device opens with the passphrase.
    await page.context().setOffline(true);
    await page.reload();
    await unlockWithPassphrase(page);
    await codeButton(page, 'Site: offline@site').waitFor({ timeout: 15_000 });
    await awayFromStepBoundary();
    expect(await shownCode(page, 'Site: offline@site')).toBe(oathtool('JBSWY3DPEHPK3PXP'));
    await h.screenshot(page, '5-offline-390');
    await expectNoSeriousA11yViolations(page, { label: '5-offline-390' });
    await page.context().setOffline(false);
  });
});
