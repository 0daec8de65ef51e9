/**
 * Issue 11, item 7: the public pages that are the same for every visitor arrive as HTML
 * (server/src/features/site/prerender.ts), so they show before any script runs, and the
 * browser then hydrates them: no hydration mismatch (React reports one as a console error and
 * throws the server's HTML away), and the page answers clicks as before.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2E, visit } from '../support/harness';

const h = useE2E('site/server-rendered');

interface RenderedPage {
  name: string;
  path: string;
  enterprise?: boolean;
  heading: RegExp;
  /** Something only a hydrated page can do. */
  interact(page: Page): Promise<void>;
}

const PAGES: RenderedPage[] = [
  {
    name: 'landing',
    path: '/',
    heading: /Replace SMS OTPs with TOTP/,
    async interact(page) {
      // The pricing section's first pack is a real link; the header's sign-in is a plain link —
      // the docs teaser's language tabs are React state.
      await page.getByRole('tab', { name: 'Python' }).first().click();
      await page.getByText('import json').first().waitFor();
    },
  },
  {
    name: 'blog',
    path: '/blog',
    heading: /Authentication without the SMS bill/,
    async interact(page) {
      await page.getByRole('link', { name: /TOTP vs SMS/ }).first().click();
      await page.getByRole('heading', { level: 1, name: /TOTP vs SMS/ }).waitFor();
    },
  },
  {
    name: 'post',
    path: '/blog/totp-vs-sms-security',
    heading: /TOTP vs SMS/,
    async interact(page) {
      await page.getByRole('link', { name: 'All articles' }).click();
      await page.waitForURL(/\/blog$/);
    },
  },
  {
    name: 'enterprise-landing',
    path: '/',
    enterprise: true,
    heading: /./,
    async interact(page) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
      await page.getByText('ROI calculator').waitFor();
    },
  },
  {
    name: 'enterprise-pricing',
    path: '/pricing',
    enterprise: true,
    heading: /per verification/,
    async interact(page) {
      const volume = page.getByTestId('roi-volume');
      expect(await volume.textContent()).toBe('1,000,000');
      await page.getByRole('slider', { name: /Monthly verifications/ }).fill('5000000');
      await expect.poll(() => volume.textContent()).toBe('5,000,000');
    },
  },
];

describe.each([390, 1280])('at %i px', (width) => {
  it.each(PAGES)('$name: the server\'s HTML alone shows the page, before and without any script', async (target) => {
    const page = await h.newPage({ width, javaScriptEnabled: false, ...(target.enterprise ? { baseURL: h.enterpriseUrl } : {}) });
    await visit(page, target.path);
    await page.getByRole('heading', { level: 1, name: target.heading }).waitFor();
    expect(await page.getByRole('status', { name: 'Loading' }).count()).toBe(0);
    await h.screenshot(page, `${width}-${target.name}-no-script`);
  });

  it.each(PAGES)('$name: hydrates with no mismatch and then works', async (target) => {
    const page = await h.newPage({ width, ...(target.enterprise ? { baseURL: h.enterpriseUrl } : {}) });
    const consoleProblems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') consoleProblems.push(message.text());
    });
    // The page this browser gets is the server-rendered one (not an empty root to render into)…
    const response = await page.goto(target.path);
    expect(response?.status()).toBe(200);
    expect(await response!.text()).toMatch(/<div id="root"><.+/);
    // …and React adopts it: a mismatch is reported as an error (and the HTML thrown away).
    await page.waitForFunction(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer')));
    await page.waitForLoadState('networkidle');
    await target.interact(page);
    expect(consoleProblems).toEqual([]);
    expect(h.pageErrors(page)).toEqual([]);
  });
});
