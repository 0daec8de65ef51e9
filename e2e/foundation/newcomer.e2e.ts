/**
 * A newcomer's first visit, in a real browser against a real server, on a laptop (1280 px)
 * and a phone (390 px): the public landing page, the local development sign-in, the signed-in
 * shell (welcome, avatar menu, log out), host-dependent routing for the enterprise site,
 * the not-found page, returning to a protected page after sign-in, losing the session
 * mid-visit, keyboard focus, and an accessibility smoke check.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { findA11yProblems, focusIndicator, horizontalOverflow } from '../support/a11y';
import { formatViolations, seriousA11yViolations } from '../support/axe';
import { fetchStatus, signInLocally, useE2E, visit } from '../support/harness';

const h = useE2E('foundation/newcomer');

const WIDTHS = [1280, 390] as const;

const LANDING_HEADING = /Replace SMS OTPs with TOTP/;

function path(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

async function expectLandingPage(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: LANDING_HEADING }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Login', exact: true }).getAttribute('href')).resolves.toBe('/api/login');
  await expect(header.getByRole('link', { name: 'Get Started', exact: true }).getAttribute('href')).resolves.toBe('/api/login');
}

async function expectNotFound(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();
  await page.getByText('Did you forget to add the page to the router?').waitFor();
}

/** The avatar button of the signed-in header (its accessible name is "Account menu for …"). */
function avatarButton(page: Page) {
  return page.getByRole('button', { name: /^Account menu for / });
}

function expectNoPageErrors(page: Page): void {
  expect(h.pageErrors(page).map((e) => e.message)).toEqual([]);
}

describe.each(WIDTHS)('a newcomer at %i px', (width) => {
  const shot = (page: Page, name: string) => h.screenshot(page, `${width}-${name}`);

  it('opens the landing page, signs in, sees the welcome and the avatar menu, and logs out', async () => {
    const page = await h.newPage({ width });

    // 1. The public landing page.
    await visit(page, '/');
    await expectLandingPage(page);
    const signInLinks = await page.locator('a[href^="/api/login"]').evaluateAll((links) =>
      links.map((a) => a.getAttribute('href')),
    );
    expect(signInLinks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(signInLinks)).toEqual(new Set(['/api/login']));
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await fetchStatus(page, '/api/auth/user')).toBe(401);
    await shot(page, '01-landing');

    // 2. Login leads to the local development sign-in.
    await page.getByRole('banner').getByRole('link', { name: 'Login', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/api/login');
    await page.getByText('Development only').waitFor();
    await page.getByRole('heading', { name: 'Local sign-in' }).waitFor();
    await shot(page, '02-sign-in');

    // 3. Sign in; the server sends the browser back to / (the authenticator, signed in).
    await signInLocally(page, 'priya.raman@example.com', 'Priya Raman');
    expect(path(page)).toBe('/');
    await avatarButton(page).waitFor();
    await expect(avatarButton(page).textContent()).resolves.toBe('PR');
    expect(await fetchStatus(page, '/api/auth/user')).toBe(200);
    await shot(page, '03-signed-in');

    // 4. Home (/home; signed in, / is the authenticator, SPEC §2) greets them by first name.
    await visit(page, '/home');
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Priya!' }).waitFor();
    await page.getByRole('link', { name: 'Generate TOTP Codes' }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await shot(page, '04-home');

    // 5. The avatar menu shows the full name and e-mail, and logs out.
    await avatarButton(page).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await menu.getByText('Priya Raman', { exact: true }).waitFor();
    await menu.getByText('priya.raman@example.com', { exact: true }).waitFor();
    await shot(page, '05-avatar-menu');
    await menu.getByRole('menuitem', { name: 'Log out' }).click();

    // 6. Back on the public landing page, signed out.
    await page.waitForURL((url) => url.pathname === '/');
    await expectLandingPage(page);
    expect(await fetchStatus(page, '/api/auth/user')).toBe(401);
    await expect(avatarButton(page).count()).resolves.toBe(0);
    await shot(page, '06-logged-out');

    expectNoPageErrors(page);
  });

  it('is sent to sign in from a protected page and comes back to it', async () => {
    const page = await h.newPage({ width });
    await visit(page, '/totp');
    await page.waitForURL((url) => url.pathname === '/api/login');
    expect(path(page)).toBe('/api/login?returnTo=%2Ftotp');
    await shot(page, '10-protected-sign-in');

    await signInLocally(page, 'arjun.mehta@example.com', 'Arjun Mehta');
    expect(path(page)).toBe('/totp');
    await avatarButton(page).waitFor();
    await expect(avatarButton(page).textContent()).resolves.toBe('AM');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expect(page.getByRole('heading', { name: '404 Page Not Found' }).count()).resolves.toBe(0);
    await shot(page, '11-protected-returned');

    // An unknown page inside the signed-in shell is the not-found page too.
    await visit(page, '/no-such-page');
    await expectNotFound(page);
    await avatarButton(page).waitFor();
    await shot(page, '12-signed-in-404');

    expectNoPageErrors(page);
  });

  it('shows the not-found page for an unknown path on the main host', async () => {
    const page = await h.newPage({ width });
    await visit(page, '/definitely/not/a/page');
    await expectNotFound(page);
    expect(await horizontalOverflow(page)).toBe(0);
    await shot(page, '20-404');
    expectNoPageErrors(page);
  });

  it('shows the enterprise site on the enterprise host, where /blog is not found', async () => {
    const page = await h.newPage({ width, baseURL: h.enterpriseUrl });
    const nav = page.getByRole('banner').getByRole('navigation');

    await visit(page, '/');
    expect(new URL(page.url()).host).toBe(`enterprise.localhost:${h.port}`);
    await page.getByRole('heading', { level: 1, name: /\$0\.0038 per verification/ }).waitFor();
    await expect(nav.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).resolves.toBe('page');
    // The enterprise site has no sign-in: no Login links, no landing page of the main site.
    await expect(page.locator('a[href^="/api/login"]').count()).resolves.toBe(0);
    await expect(page.getByRole('heading', { name: LANDING_HEADING }).count()).resolves.toBe(0);
    expect(await horizontalOverflow(page)).toBe(0);
    await shot(page, '30-enterprise-landing');

    for (const [route, navLabel, name] of [
      ['/pricing', 'Pricing', '31-enterprise-pricing'],
      ['/docs', 'Docs', '32-enterprise-docs'],
      ['/documentation', 'Docs', '33-enterprise-documentation'],
    ] as const) {
      await visit(page, route);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await expect(page.getByRole('heading', { name: '404 Page Not Found' }).count()).resolves.toBe(0);
      await expect(nav.getByRole('link', { name: navLabel }).getAttribute('aria-current')).resolves.toBe('page');
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, name);
    }

    // Main-site routes do not exist on the enterprise host.
    for (const route of ['/blog', '/home']) {
      await visit(page, route);
      await expectNotFound(page);
    }
    await shot(page, '34-enterprise-blog-404');

    // The enterprise navigation works in-app too.
    await visit(page, '/');
    await nav.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL((url) => url.pathname === '/pricing');
    // The router marks the link after the URL changes; wait for it rather than race it.
    await nav.locator('a[aria-current="page"]', { hasText: 'Pricing' }).waitFor();

    expectNoPageErrors(page);
  });
});

describe('losing the session mid-visit', () => {
  it('sends the person to sign in again and back to the page they were on', async () => {
    const page = await h.newPage({ width: 1280 });
    await signInLocally(page, 'meera.iyer@example.com', 'Meera Iyer');
    await visit(page, '/home');
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Meera!' }).waitFor();

    // The session cookie disappears (expired, revoked, cleared) and the page is reloaded.
    await page.context().clearCookies();
    await page.reload();
    await page.waitForURL((url) => url.pathname === '/api/login');
    expect(path(page)).toBe('/api/login?returnTo=%2Fhome');
    await h.screenshot(page, '40-session-lost-sign-in');

    await signInLocally(page, 'meera.iyer@example.com', 'Meera Iyer');
    expect(path(page)).toBe('/home');
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Meera!' }).waitFor();
    expectNoPageErrors(page);
  });

  // SPEC §8: a 401 from any call while signed in shows the "Unauthorized — You are logged out.
  // Logging in again..." toast, then goes to sign-in after 500 ms, coming back to the page.
  it('shows the Unauthorized toast and goes to sign in when a call answers 401 mid-session', async () => {
    const page = await h.newPage({ width: 1280 });
    await visit(page, '/api/login?returnTo=%2Fbusiness');
    await signInLocally(page, 'kavya.rao@example.com', 'Kavya Rao');
    await page.getByLabel('Company Name').fill('Rao Traders');
    await page.getByRole('button', { name: 'Create Business Account' }).click();
    await page.getByTestId('api-key-reveal').waitFor();

    await page.context().clearCookies(); // the session ends (expired, or logged out elsewhere)
    await page.getByRole('button', { name: /Regenerate API Key/ }).click();
    await page.getByRole('button', { name: 'Regenerate key' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Unauthorized' });
    await toast.getByText('You are logged out. Logging in again...').waitFor();
    // No screenshot here: the page leaves for sign-in 500 ms later, and a full-page capture
    // racing that navigation timed out on a loaded machine.
    await page.waitForURL((url) => url.pathname === '/api/login' && url.searchParams.get('returnTo') === '/business');
  });
});

describe('keyboard', () => {
  it.each(WIDTHS)('at %i px, Tab from the top of the landing page reaches Login with a visible focus', async (width) => {
    const page = await h.newPage({ width });
    await visit(page, '/');
    await page.getByRole('heading', { level: 1, name: LANDING_HEADING }).waitFor();

    // The first Tab shows the skip link.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    expect(await skip.isVisible()).toBe(true);
    expect((await focusIndicator(page)).visible).toBe(true);

    const visited: string[] = ['Skip to content'];
    for (let presses = 1; presses < 15; presses++) {
      await page.keyboard.press('Tab');
      const focus = await focusIndicator(page);
      visited.push(`${focus.tag}:${focus.text}`);
      if (focus.tag === 'a' && focus.text === 'Login') {
        expect(focus.visible, `focus on Login is not visible (${focus.focused} vs ${focus.blurred})`).toBe(true);
        await h.screenshot(page, `${width}-50-keyboard-login-focus`);
        return;
      }
    }
    throw new Error(`Tab never reached the Login link; focus went: ${visited.join(' → ')}`);
  });
});

describe('accessibility smoke', () => {
  // axe (serious + critical) plus the hand-rolled accessible-name check, on every page a
  // newcomer sees, signed out and signed in; one report for all, so one run shows everything.
  it('has no serious axe violations and names every control on the public and signed-in pages', async () => {
    const report: string[] = [];
    const check = async (page: Page, label: string) => {
      for (const p of await findA11yProblems(page)) report.push(`${label}: ${p.problem}: ${p.element}`);
      const violations = await seriousA11yViolations(page);
      if (violations.length) report.push(formatViolations(label, violations));
    };
    const page = await h.newPage({ width: 1280 });

    await visit(page, '/');
    await page.getByRole('heading', { level: 1, name: LANDING_HEADING }).waitFor();
    await check(page, 'landing');

    await visit(page, '/contact');
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    await check(page, 'contact (signed out)');

    await visit(page, '/no-such-page');
    await expectNotFound(page);
    await check(page, '404 (signed out)');

    await visit(page, '/api/login');
    await page.getByLabel('E-mail').waitFor();
    await check(page, 'sign-in');
    await signInLocally(page, 'kavya.nair@example.com', 'Kavya Nair');

    await visit(page, '/home');
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Kavya!' }).waitFor();
    await page.getByRole('button', { name: /Show services/ }).click();
    await page.getByText('Business API Service').waitFor();
    await check(page, 'home');

    await avatarButton(page).click();
    await page.getByRole('menu').waitFor();
    await check(page, 'home (avatar menu open)');
    await page.keyboard.press('Escape');

    for (const [path, heading] of [
      ['/', 'Authenticator'],
      ['/totp', 'Account TOTP'],
      ['/business', null],
      ['/business/add-credits', null],
      ['/contact', 'Contact us'],
    ] as const) {
      await visit(page, path);
      await page.locator('main').waitFor();
      // Pages that load data show it (or their empty state) before they are judged.
      await page.getByRole('status', { name: 'Loading' }).first().waitFor({ state: 'detached' });
      if (heading) await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
      await check(page, `${path} (signed in)`);
    }

    await visit(page, '/no-such-page');
    await expectNotFound(page);
    await check(page, '404 (signed in)');

    const phone = await h.newPage({ width: 390 });
    await visit(phone, '/');
    await phone.getByRole('heading', { level: 1, name: LANDING_HEADING }).waitFor();
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await phone.getByRole('navigation', { name: 'Site menu' }).waitFor();
    await check(phone, 'landing (390 px, menu open)');

    const enterprise = await h.newPage({ width: 1280, baseURL: h.enterpriseUrl });
    for (const route of ['/', '/pricing', '/docs', '/no-such-page']) {
      await visit(enterprise, route);
      await enterprise.getByRole('heading', { level: 1 }).first().waitFor();
      await check(enterprise, `enterprise ${route}`);
    }

    expect(report.join('\n\n')).toBe('');
  });

  it('labels the sign-in inputs so they can be found by label', async () => {
    const page = await h.newPage({ width: 390 });
    await visit(page, '/api/login');
    await expect(page.getByLabel('E-mail').getAttribute('type')).resolves.toBe('email');
    await expect(page.getByLabel('Full name').getAttribute('autocomplete')).resolves.toBe('name');
    await expect(page.getByRole('button', { name: 'Sign in' }).count()).resolves.toBe(1);
  });

  it('fits the local sign-in page on a 390 px phone without sideways scrolling', async () => {
    const page = await h.newPage({ width: 390 });
    await visit(page, '/api/login');
    await page.getByLabel('E-mail').waitFor();
    expect(await horizontalOverflow(page), 'the sign-in card is wider than the screen').toBe(0);
  });
});
