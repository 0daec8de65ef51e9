/**
 * Issue 11, item 5: the public site does not wait for the session. A visitor without the
 * session hint cookie makes no session call at all; while GET /api/auth/user is held back for
 * a signed-in person (a slow network or a busy server), `/` already shows the landing page, protected
 * pages wait on a spinner (never a flash of the page or of the landing), and a signed-in person
 * gets the authenticator at `/` once the session answers. Also: the landing page does not
 * download the signed-in app.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { signInLocally, useE2E, visit } from '../support/harness';

const h = useE2E('foundation/session-loading');

const LANDING_HEADING = /Replace SMS OTPs with TOTP/;

/** Holds every GET /api/auth/user until `release()`; later ones pass straight through. */
async function holdSession(page: Page): Promise<{ release: () => Promise<void> }> {
  const held: Route[] = [];
  let released = false;
  await page.route('**/api/auth/user', async (route) => {
    if (released) await route.continue();
    else held.push(route);
  });
  return {
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

describe.each([390, 1280])('at %i px', (width) => {
  it('shows a visitor the landing page at once, with no session call and no console error', async () => {
    const page = await h.newPage({ width });
    const scripts: string[] = [];
    const sessionCalls: string[] = [];
    const consoleErrors: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      if (new URL(r.url()).pathname === '/api/auth/user') sessionCalls.push(r.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await visit(page, '/');
    await page.getByRole('heading', { level: 1, name: LANDING_HEADING }).waitFor();
    expect(await page.getByRole('status', { name: 'Loading' }).count()).toBe(0);
    await page.waitForLoadState('networkidle');
    await h.screenshot(page, `${width}-1-landing-signed-out`);
    await expectNoSeriousA11yViolations(page, { label: `landing at ${width} px` });

    // Without the session hint cookie nobody is signed in: no GET /api/auth/user, so no 401.
    expect(sessionCalls).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // The signed-in app (authenticator, its QR scanner, charts, Markdown) stays on the server.
    expect(scripts.filter((s) => /Authenticator|SignedInLayout|qr-scanner|charts|markdown|Admin|Business/.test(s))).toEqual([]);
    expect(h.pageErrors(page)).toEqual([]);
  });

  it('swaps in the authenticator at / once a signed-in session answers; a protected page waits on a spinner', async () => {
    const page = await h.newPage({ width });
    await signInLocally(page, `reader${width}@example.com`, 'Rhea Reader');

    const session = await holdSession(page);
    await visit(page, '/home');
    await page.getByRole('status', { name: 'Loading' }).first().waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(0);
    await session.release();
    await page.getByRole('heading', { level: 1, name: /Welcome back, Rhea/ }).waitFor();

    const again = await holdSession(page);
    await visit(page, '/');
    await page.getByRole('heading', { level: 1, name: LANDING_HEADING }).waitFor();
    await again.release();
    await page.getByRole('heading', { level: 1, name: 'Authenticator' }).waitFor();
    expect(await page.getByRole('heading', { name: LANDING_HEADING }).count()).toBe(0);
    await h.screenshot(page, `${width}-3-authenticator-after-session`);
    expect(h.pageErrors(page)).toEqual([]);
  });
});
