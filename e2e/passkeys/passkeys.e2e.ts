import { execFileSync } from 'node:child_process';
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { issueEnrolmentCode } from '../../server/src/features/admin/mfa-enrolment';
import { ADMIN_EMAIL, fetchStatus, signInLocally, useE2E, visit } from '../support/harness';

const h = useE2E('passkeys/passkeys');

/**
 * A platform authenticator inside Chromium (DevTools protocol): it holds discoverable credentials,
 * verifies the user (as a fingerprint would) and answers the PRF extension. Presence is simulated,
 * so ceremonies complete without a click.
 */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

function oathtoolCode(secret: string): string {
  return execFileSync('oathtool', ['--totp', '-b', '-N', `@${Math.floor(Date.now() / 1000)}`, secret.replace(/\s+/g, '')]).toString().trim();
}

async function addPasskeyOnSecurityPage(page: Page, name: string): Promise<void> {
  await visit(page, '/totp');
  const card = page.getByTestId('passkeys-card');
  await card.getByText('No passkeys yet.').waitFor();
  await card.getByLabel('Name for a new passkey').fill(name);
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await card
    .getByTestId('passkey-row')
    .filter({ hasText: name })
    // The ceremony includes key generation in the virtual authenticator: slow on a busy machine.
    .waitFor({ timeout: 30_000 })
    .catch(async (err: Error) => {
      throw new Error(`${err.message}\ncard: ${await card.textContent()}`);
    });
}

async function signOut(page: Page): Promise<void> {
  await visit(page, '/api/logout');
  expect(await fetchStatus(page, '/api/auth/user')).toBe(401);
}

async function signInWithPasskey(page: Page): Promise<void> {
  await visit(page, '/api/login');
  await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
  await page.waitForURL((url) => url.pathname === '/sign-in/passkey' || url.pathname === '/');
  // The autofill request may already have completed with the simulated presence; else press the button.
  if (new URL(page.url()).pathname === '/sign-in/passkey') {
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    await button.click().catch(() => undefined);
    await page.waitForURL((url) => url.pathname !== '/sign-in/passkey');
  }
}

describe('passkeys in Chromium (virtual authenticator)', () => {
  it('adds a passkey on the security page, signs out, and signs in with it', async () => {
    const page = await h.newPage({ width: 1280 });
    await addVirtualAuthenticator(page);
    await visit(page, '/api/login?returnTo=%2Ftotp');
    await signInLocally(page, 'pat@passkeys.example', 'Pat Passkey');
    await addPasskeyOnSecurityPage(page, 'Test laptop');
    const row = page.getByTestId('passkey-row').filter({ hasText: 'Test laptop' });
    await row.getByText('PRF yes').waitFor();
    await row.getByText('Last used never', { exact: false }).waitFor();
    // The toast ("Passkey added") would cover the card in the pictures.
    await page.getByRole('button', { name: 'Close' }).click().catch(() => undefined);
    await page.getByRole('button', { name: 'Close' }).waitFor({ state: 'detached' });
    await h.screenshot(page, '1-passkeys-card-1280');
    await expectNoSeriousA11yViolations(page, { label: '1-passkeys-card-1280' });
    await page.setViewportSize({ width: 390, height: 844 });
    await h.screenshot(page, '2-passkeys-card-390');
    await expectNoSeriousA11yViolations(page, { label: '2-passkeys-card-390' });

    // Stored as the server saw it: PRF reported by the authenticator.
    const stored = await h.ctx.db.selectFrom('passkey').select(['name', 'prf_supported']).execute();
    expect(stored.map((p) => [p.name, Boolean(p.prf_supported)])).toEqual([['Test laptop', true]]);

    await signOut(page);
    await signInWithPasskey(page);
    expect(await fetchStatus(page, '/api/auth/user')).toBe(200);
    const me = await page.evaluate(async () => (await fetch('/api/auth/user')).json());
    expect(me.email).toBe('pat@passkeys.example');
    await visit(page, '/totp');
    await page.getByTestId('passkey-row').filter({ hasText: 'Test laptop' }).getByText('Last used just now').waitFor();

    // Rename, then delete with the confirmation.
    await page.getByRole('button', { name: 'Rename Test laptop' }).click();
    await page.getByLabel('New name for Test laptop').fill('Work laptop');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('passkey-row').filter({ hasText: 'Work laptop' }).waitFor();
    await page.getByRole('button', { name: 'Delete Work laptop' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete passkey' }).click();
    await page.getByText('No passkeys yet.').waitFor();
    expect(h.pageErrors(page)).toEqual([]);
  });

  it('shows the passkey sign-in page at 390 and 1280 px', async () => {
    for (const width of [390, 1280]) {
      const page = await h.newPage({ width });
      const unauthorized: string[] = [];
      page.on('response', (r) => void (r.status() === 401 && unauthorized.push(r.url())));
      await visit(page, '/sign-in/passkey');
      await page.getByRole('heading', { name: 'Sign in with a passkey' }).waitFor();
      await page.getByLabel('E-mail').waitFor();
      expect(await page.getByLabel('E-mail').getAttribute('autocomplete')).toBe('username webauthn');
      await h.screenshot(page, `3-passkey-sign-in-${width}`);
      // Signed out, the page asks nothing that answers 401 (no console error on a sign-in page).
      expect(unauthorized).toEqual([]);
      await expectNoSeriousA11yViolations(page, { label: `3-passkey-sign-in-${width}` });
    }
  });

  it('lets the administrator verify the admin MFA with a passkey', async () => {
    const page = await h.newPage({ width: 1280 });
    await addVirtualAuthenticator(page);
    await visit(page, '/api/login?returnTo=%2Fadmin');
    await signInLocally(page, ADMIN_EMAIL, 'Ada Admin');
    // The first setup needs the operator's one-time enrolment code (npm run cli -- admin:mfa-enrol-code).
    const { code } = await issueEnrolmentCode(h.ctx, 'cli:e2e');
    await page.getByLabel('Enrolment code').fill(code);
    await page.getByRole('button', { name: 'Set up MFA' }).click();
    const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
    await page.getByLabel('6-digit code').fill(oathtoolCode(secret));
    await page.getByRole('button', { name: 'Confirm & Enable MFA' }).click();
    await page.getByRole('button', { name: 'I saved them' }).click();
    await addPasskeyOnSecurityPage(page, 'Admin laptop');

    // A new sign-in (with the passkey itself) needs the MFA again: the passkey answers it.
    await signOut(page);
    await signInWithPasskey(page);
    await visit(page, '/admin');
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await h.screenshot(page, '4-admin-mfa-passkey-1280');
    await expectNoSeriousA11yViolations(page, { label: '4-admin-mfa-passkey-1280' });
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByText('Active', { exact: true }).waitFor();
    expect(await fetchStatus(page, '/api/admin/dashboard')).toBe(200);
    const audit = await h.ctx.db.selectFrom('audit_log').select('details').where('action', '=', 'admin.mfa_verified').execute();
    expect(audit.map((a) => JSON.parse(String(a.details)).via)).toContain('passkey');
  });
});
