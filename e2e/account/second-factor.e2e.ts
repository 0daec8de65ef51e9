import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { signInLocally, useE2E, visit } from '../support/harness';

const h = useE2E('account/second-factor');

/** A code from oathtool (an independent RFC 6238 implementation), `offsetSteps` periods from now. */
function oathtoolCode(secret: string, offsetSteps = 0): string {
  const at = Math.floor(Date.now() / 1000) + offsetSteps * 30;
  return execFileSync('oathtool', ['--totp', '-b', '-N', `@${at}`, secret.replace(/\s+/g, '')]).toString().trim();
}

describe('the account TOTP as a second factor (issue 19)', () => {
  it('turns it on with a code from the phone, signs out, and is asked for the code at the next sign-in', async () => {
    const email = 'grace@second-factor.example';
    const page = await h.newPage({ width: 1280 });
    await visit(page, '/api/login?returnTo=%2Ftotp');
    await signInLocally(page, email, 'Grace Hopper');

    // Not configured → setup pending: scan (here: read the key) and confirm with the first code.
    await page.getByRole('button', { name: 'Setup TOTP' }).click();
    await page.getByTestId('totp-pending').waitFor();
    const secret = (await page.getByTestId('totp-setup-reveal').locator('code').textContent())!.trim();
    await h.screenshot(page, '1-setup-pending');
    await page.getByLabel('Code from your authenticator app').fill(oathtoolCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();

    // Step 3: the backup codes, shown once.
    await page.getByTestId('totp-save-codes').waitFor();
    expect(await page.getByTestId('totp-save-codes').locator('li').count()).toBe(10);
    const backupCode = (await page.getByTestId('totp-save-codes').locator('li').first().textContent())!.trim();
    await h.screenshot(page, '2-save-backup-codes');
    await page.getByRole('button', { name: /I've saved my backup codes/ }).click();

    // Configured: no live code; the devices list marks this one.
    await page.getByTestId('totp-configured').waitFor();
    expect(await page.getByTestId('code-card').count()).toBe(0);
    await page.getByTestId('device').getByText('This device').waitFor();
    await h.screenshot(page, '3-protected');
    await expectNoSeriousA11yViolations(page, { label: '3-protected' });

    // Sign out, sign in again: the first step alone is not enough.
    await visit(page, '/api/logout');
    await visit(page, '/api/login?returnTo=%2Ftotp');
    await signInLocally(page, email, 'Grace Hopper');
    await page.waitForURL((url) => url.pathname === '/sign-in/second-factor');
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe('/totp');
    await page.getByRole('heading', { level: 1, name: 'Finish signing in' }).waitFor();
    expect(await page.evaluate(async () => (await fetch('/api/user/totp-status')).status)).toBe(401);
    await h.screenshot(page, '4-second-factor-1280');
    await expectNoSeriousA11yViolations(page, { label: '4-second-factor-1280' });

    const narrow = await h.newPage({ width: 390 });
    await narrow.context().addCookies(await page.context().cookies());
    await visit(narrow, '/business');
    await narrow.waitForURL((url) => url.pathname === '/sign-in/second-factor');
    await narrow.getByRole('heading', { level: 1, name: 'Finish signing in' }).waitFor();
    await h.screenshot(narrow, '5-second-factor-390');
    await expectNoSeriousA11yViolations(narrow, { label: '5-second-factor-390' });
    await narrow.getByRole('button', { name: 'Use a backup code instead' }).click();
    await narrow.getByLabel('Backup code').waitFor();
    await h.screenshot(narrow, '6-backup-code-390');

    // A wrong code is explained; the next step's code (the confirm spent this one) signs in.
    await page.getByLabel('Authenticator code').fill('000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Authenticator code').fill(oathtoolCode(secret, 1));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/totp');
    await page.getByTestId('totp-configured').waitFor();
    await expect.poll(async () => (await page.getByTestId('totp-configured').textContent()) ?? '').toMatch(/Last used to sign in\s*\d/);

    // The narrow page holds the same session, now complete: the security page at 390 px.
    await visit(narrow, '/totp');
    await narrow.getByTestId('totp-configured').waitFor();
    await narrow.getByTestId('device').getByText('This device').waitFor();
    await h.screenshot(narrow, '7-security-390');
    await expectNoSeriousA11yViolations(narrow, { label: '7-security-390' });
    await narrow.getByRole('button', { name: 'Turn off' }).click();
    await narrow.getByRole('dialog', { name: 'Turn off the second step?' }).waitFor();
    await narrow.getByRole('button', { name: 'Use a backup code instead' }).click();
    await narrow.getByLabel('Backup code').fill(backupCode);
    await h.screenshot(narrow, '8-turn-off-390');
    await narrow.getByRole('dialog').getByRole('button', { name: 'Turn off' }).click();
    await narrow.getByText('TOTP is not set up yet').waitFor();
    expect(h.pageErrors(page)).toEqual([]);
    expect(h.pageErrors(narrow)).toEqual([]);
  });
});
