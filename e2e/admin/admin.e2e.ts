import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { issueEnrolmentCode } from '../../server/src/features/admin/mfa-enrolment';
import { ADMIN_EMAIL, signInLocally, useE2E, visit } from '../support/harness';
import { expectNoSeriousA11yViolations } from '../support/axe';

const h = useE2E('admin/admin');

/** A code from oathtool for the secret the page showed, `offsetSteps` time steps from now. */
function oathtoolCode(secret: string, offsetSteps = 0): string {
  const at = Math.floor(Date.now() / 1000) + offsetSteps * 30;
  return execFileSync('oathtool', ['--totp', '-b', '-N', `@${at}`, secret.replace(/\s+/g, '')]).toString().trim();
}

describe('the administrator', () => {
  it('sets up MFA, sees real counts, impersonates an owner (banner, refusals), exits, and makes a financial manager', async () => {
    // A business owner and a future financial manager exist first.
    const owner = await h.newPage({ width: 1280 });
    await visit(owner, '/api/login?returnTo=%2Fbusiness');
    await signInLocally(owner, 'owner@admin-journey.example', 'Olu Owner');
    await owner.getByLabel('Company Name').fill('Journey Foods');
    await owner.getByRole('button', { name: 'Create Business Account' }).click();
    await owner.getByTestId('api-key-reveal').waitFor();

    const fm = await h.newPage({ width: 390 });
    await visit(fm, '/api/login?returnTo=%2Fhome');
    await signInLocally(fm, 'fiona@admin-journey.example', 'Fiona Finance');
    await fm.getByRole('heading', { name: /Fiona/ }).first().waitFor();
    await fm.getByRole('button', { name: 'Open navigation menu' }).click();
    await fm.getByRole('menuitem', { name: 'Authenticator' }).or(fm.getByRole('link', { name: 'Authenticator' })).first().waitFor();
    expect(await fm.getByRole('menuitem', { name: 'Finance' }).count()).toBe(0);
    await fm.keyboard.press('Escape');

    // The administrator: /admin asks for the operator's enrolment code first (the cookie alone
    // enrols nothing), then MFA setup; scan (here: read the key), confirm with a code.
    const admin = await h.newPage({ width: 1280 });
    await visit(admin, '/api/login?returnTo=%2Fadmin');
    await signInLocally(admin, ADMIN_EMAIL, 'Ada Admin');
    await admin.getByText('Setup Required').waitFor();
    await admin.getByText('npm run cli -- admin:mfa-enrol-code').waitFor();
    expect(await admin.getByRole('button', { name: 'Set up MFA' }).isDisabled()).toBe(true);
    await admin.getByLabel('Enrolment code').fill('AAAA-BBBB-CCCC-DDDD');
    await admin.getByRole('button', { name: 'Set up MFA' }).click();
    await admin.getByRole('alert').filter({ hasText: 'wrong, expired or already used' }).waitFor();
    await h.screenshot(admin, '0-enrolment-code-refused');
    const narrowSetup = await h.newPage({ width: 390 });
    await narrowSetup.context().addCookies(await admin.context().cookies());
    await visit(narrowSetup, '/admin');
    await narrowSetup.getByLabel('Enrolment code').waitFor();
    await h.screenshot(narrowSetup, '0b-enrolment-code-390');
    await expectNoSeriousA11yViolations(narrowSetup, { label: '0b-enrolment-code-390' });
    await narrowSetup.context().close();
    // The operator's code, as `npm run cli -- admin:mfa-enrol-code` prints it; typed in lower case with spaces.
    const { code } = await issueEnrolmentCode(h.ctx, 'cli:e2e');
    await admin.getByLabel('Enrolment code').fill(code.toLowerCase().replace(/-/g, ' '));
    await admin.getByRole('button', { name: 'Set up MFA' }).click();
    await admin.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await h.screenshot(admin, '1-mfa-setup');
    await expectNoSeriousA11yViolations(admin, { label: '1-mfa-setup' });
    const secret = (await admin.getByTestId('mfa-secret').textContent())!.trim();
    const confirm = admin.getByRole('button', { name: 'Confirm & Enable MFA' });
    await admin.getByLabel('6-digit code').fill('12345');
    expect(await confirm.isDisabled()).toBe(true);
    await admin.getByLabel('6-digit code').fill(oathtoolCode(secret));
    await confirm.click();
    await admin.getByTestId('recovery-codes').waitFor();
    expect(await admin.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    await h.screenshot(admin, '2-recovery-codes');
    await admin.getByRole('button', { name: 'I saved them' }).click();
    await admin.getByText('Active', { exact: true }).waitFor();

    // The dashboard counts what exists: three people, one active key.
    await admin.getByRole('link', { name: /Admin dashboard/ }).click();
    await admin.getByRole('heading', { name: 'Admin dashboard' }).waitFor();
    const usersCard = admin.getByText('Total Users').locator('..');
    await expect.poll(async () => (await usersCard.textContent()) ?? '').toContain('3');
    await expect.poll(async () => (await admin.getByText('Active API Keys').locator('..').textContent()) ?? '').toContain('1');
    await admin.getByText('Database').first().waitFor();
    await h.screenshot(admin, '3-dashboard');
    await expectNoSeriousA11yViolations(admin, { label: '3-dashboard' });
    const narrow = await h.newPage({ width: 390 });
    await narrow.context().addCookies(await admin.context().cookies());
    await visit(narrow, '/admin/dashboard');
    await narrow.getByRole('heading', { name: 'Admin dashboard' }).waitFor();
    await h.screenshot(narrow, '3b-dashboard-390');
    await expectNoSeriousA11yViolations(narrow, { label: '3b-dashboard-390' });

    // Another window of the same admin sign-in, kept on the admin's own session.
    const watcher = await h.newPage({ width: 1280 });
    await watcher.context().addCookies(await admin.context().cookies());

    // Impersonate the owner with a reason: every page shows the banner; key regeneration is refused.
    await visit(admin, '/admin/impersonation');
    await admin.getByLabel('Search by e-mail, business name or user ID').fill('journey foods');
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByRole('button', { name: 'Impersonate owner@admin-journey.example' }).click();
    await admin.getByLabel('Reason').fill('Ticket 42: dashboard question');
    await admin.getByRole('button', { name: 'Start impersonation' }).click();
    await admin.getByText(/Active impersonation/).waitFor();
    await admin.getByText('Journey Foods').first().waitFor();
    await h.screenshot(admin, '4-impersonating');
    await expectNoSeriousA11yViolations(admin, { label: '4-impersonating' });
    // Only one at a time: the other windows see the live one (who, since, until, why) and cannot start another.
    for (const [page, label] of [[watcher, '4b-live-impersonation'], [narrow, '4c-live-impersonation-390']] as const) {
      await visit(page, '/admin/impersonation');
      const live = page.getByRole('region', { name: /Impersonation in progress/ });
      await live.getByText('owner@admin-journey.example').waitFor();
      await live.getByText('Ticket 42: dashboard question').waitFor();
      await page.getByLabel('Search by e-mail, business name or user ID').fill('journey foods');
      await page.getByRole('button', { name: 'Search' }).click();
      expect(await page.getByRole('button', { name: 'Impersonate owner@admin-journey.example' }).isDisabled()).toBe(true);
      await h.screenshot(page, label);
      await expectNoSeriousA11yViolations(page, { label });
    }
    await admin.getByRole('button', { name: /Regenerate/ }).first().click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Regenerate key' }).click();
    await admin.getByText(/not shown while impersonating a user/).first().waitFor();
    await admin.keyboard.press('Escape');
    await visit(admin, '/totp');
    await admin.getByText(/Active impersonation/).waitFor();
    await admin.getByRole('button', { name: 'Exit impersonation' }).click();
    await admin.getByRole('heading', { name: 'User impersonation' }).waitFor();
    expect(await admin.getByText(/Active impersonation/).count()).toBe(0);
    await admin.getByText('No impersonation is running.').waitFor();

    // The owner is told who, when and why.
    await visit(owner, '/business');
    const notice = owner.getByRole('region', { name: 'Account notices' });
    await notice.getByText(/admin@example.com acted as you/).waitFor();
    await notice.getByText(/Ticket 42: dashboard question/).waitFor();
    await h.screenshot(owner, '5-owner-notice');
    await notice.getByRole('button', { name: 'Dismiss notice' }).click();
    await notice.waitFor({ state: 'detached' });

    // Roles: make Fiona a financial manager; she finds Finance in the header.
    await visit(admin, '/admin/roles');
    await admin.getByRole('button', { name: 'Assign', exact: true }).click();
    await admin.getByText('Email Required').first().waitFor();
    await admin.getByLabel('E-mail').first().fill('fiona@admin-journey.example');
    await admin.getByRole('button', { name: 'Assign', exact: true }).click();
    await admin.getByText('Financial Manager Assigned').first().waitFor();
    await admin.getByRole('list', { name: 'Financial Managers' }).getByText('fiona@admin-journey.example').waitFor();
    await h.screenshot(admin, '6-roles');
    await expectNoSeriousA11yViolations(admin, { label: '6-roles' });
    await fm.reload();
    // At 390 px the navigation sits behind the menu button.
    await fm.getByRole('button', { name: 'Open navigation menu' }).click();
    await fm.getByRole('menuitem', { name: 'Finance' }).or(fm.getByRole('link', { name: 'Finance' })).first().click();
    await fm.getByRole('heading', { name: 'Financial manager desk' }).waitFor();
    await h.screenshot(fm, '6b-finance-desk-390');
    await expectNoSeriousA11yViolations(fm, { label: '6b-finance-desk-390' });

    // The audit log has all of it.
    await visit(admin, '/admin/audit');
    await admin.getByRole('table').getByText('impersonation.started').first().waitFor();
    await admin.getByRole('table').getByText('user.role_changed').first().waitFor();
    await h.screenshot(admin, '7-audit');
    await expectNoSeriousA11yViolations(admin, { label: '7-audit' });
    expect(h.pageErrors(admin)).toEqual([]);
  });
});
