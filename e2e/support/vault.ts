import type { Page } from 'playwright-core';

export const VAULT_PASSPHRASE = 'violet harbor ladder mint kettle';

/** Creates the vault on the authenticator page and answers the recovery key it showed once. */
export async function createVault(page: Page, passphrase = VAULT_PASSPHRASE, beforeCommit?: () => Promise<void>): Promise<string> {
  await page.getByLabel('Vault passphrase').fill(passphrase);
  await page.getByLabel('Passphrase again').fill(passphrase);
  await page.getByRole('button', { name: 'Continue' }).click();
  const shown = page.getByTestId('recovery-key');
  await shown.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
    // Say what the page shows instead (an error message, a different screen).
    throw new Error(`no recovery key shown; the page says: ${(await page.locator('main').innerText().catch(() => '?')).slice(0, 400)}`, { cause: error });
  });
  const recoveryKey = (await shown.textContent())!.trim();
  await beforeCommit?.();
  await page.getByLabel(/I have saved my recovery key/).check();
  await page.getByRole('button', { name: /^Create vault/ }).click();
  await shown.waitFor({ state: 'detached', timeout: 30_000 });
  return recoveryKey;
}

export async function unlockWithPassphrase(page: Page, passphrase = VAULT_PASSPHRASE): Promise<void> {
  await page.getByText('Your vault is locked').waitFor({ timeout: 30_000 });
  await page.getByLabel('Vault passphrase').fill(passphrase);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByRole('button', { name: 'Lock', exact: true }).waitFor({ timeout: 30_000 });
}

export async function unlockWithRecoveryKey(page: Page, recoveryKey: string): Promise<void> {
  await page.getByText('Your vault is locked').waitFor({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Recovery key' }).click();
  await page.getByRole('textbox', { name: 'Recovery key' }).fill(recoveryKey);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByRole('button', { name: 'Lock', exact: true }).waitFor({ timeout: 30_000 });
}
