import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setUserRole } from '../../server/src/features/users/service';
import { signInLocally, useE2E, visit } from '../support/harness';

const h = useE2E('contact/desk-markdown');

/** Issue 18, item 3: a company name that is Markdown for a phishing link and a tracking pixel. */
const HOSTILE_NAME = '[Click here to approve](https://evil.example/phish) ![x](https://evil.example/pixel.png)';

/**
 * Every request the page makes to evil.example, recorded; and each one aborted, so nothing
 * leaves the machine even if the page asks.
 */
async function watchEvilHost(page: Page): Promise<string[]> {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/evil\.example/i.test(request.url())) asked.push(request.url());
  });
  await page.route(/evil\.example/i, (route) => route.abort());
  return asked;
}

async function expectNothingFromEvilHost(page: Page, asked: string[]) {
  expect(await page.locator('a[href^="https://evil.example"], a[href*="evil.example"]').count()).toBe(0);
  expect(await page.locator('img[src*="evil.example"]').count()).toBe(0);
  expect(asked).toEqual([]);
}

describe('the financial desk with a hostile company name', () => {
  it('shows the name as text: no link to, no image from, no request to another host', async () => {
    // A business names itself with Markdown, then asks Luna its balance and reports a payment.
    const owner = await h.newPage({ width: 1280 });
    const ownerAsked = await watchEvilHost(owner);
    await visit(owner, '/api/login?returnTo=%2Fbusiness');
    await signInLocally(owner, 'mallory@desk-markdown.example', 'Mallory Owner');
    await owner.getByLabel('Company Name').fill(HOSTILE_NAME);
    await owner.getByRole('button', { name: 'Create Business Account' }).click();
    await owner.getByTestId('api-key-reveal').waitFor();

    await visit(owner, '/contact');
    await owner.getByLabel('Category').selectOption('technical');
    await owner.getByLabel('Subject', { exact: true }).fill('Balance question');
    await owner.getByLabel('Message', { exact: true }).fill("What's my balance?");
    await owner.getByRole('button', { name: 'Send message' }).click();
    const sent = owner.getByRole('status', { name: 'Message sent' });
    await sent.getByText('Luna answered').waitFor();
    await sent.getByText(/Click here to approve/).waitFor();

    await owner.getByLabel('Category').selectOption('payment');
    await owner.getByLabel('Subject', { exact: true }).fill('Payment not credited');
    await owner.getByLabel('Message', { exact: true }).fill('Paid ₹5,000 yesterday, UTR 412345678901.');
    await owner.getByRole('button', { name: 'Send message' }).click();
    await owner.getByRole('list', { name: 'My requests' }).getByText('Payment not credited').waitFor();
    await expectNothingFromEvilHost(owner, ownerAsked);

    // What Luna stored is escaped text (the server's half of the fix)…
    const stored = await h.ctx.db.selectFrom('contact_message').select(['subject', 'luna_response']).where('subject', '=', 'Balance question').executeTakeFirstOrThrow();
    expect(stored.luna_response).toContain('\\[Click here to approve\\]');
    // …and the page is safe on its own too: a model's answer may echo the name unescaped.
    await h.ctx.db
      .updateTable('contact_message')
      .set({ luna_response: `**${HOSTILE_NAME}** has a balance of **₹0.00**. See [the docs](/api/v1/openapi.json).` })
      .where('subject', '=', 'Payment not credited')
      .execute();

    // The financial manager opens the desk and reads both answers.
    const desk = await h.newPage({ width: 1280 });
    const deskAsked = await watchEvilHost(desk);
    await visit(desk, '/api/login?returnTo=%2Ffinancial-manager');
    await signInLocally(desk, 'fm@desk-markdown.example', 'Farah Manager');
    await setUserRole(h.ctx.db, h.config.adminEmail, { email: 'fm@desk-markdown.example', role: 'financial_manager' }, { userId: null, label: 'e2e' });
    await desk.reload();
    const messages = desk.getByRole('list', { name: 'Contact messages' });
    await messages.getByText('Payment not credited').waitFor();
    await messages.getByText('Balance question').waitFor();
    const answers = messages.locator('details');
    expect(await answers.count()).toBe(2);
    for (const answer of await answers.all()) await answer.locator('summary').click();
    // The company name is on the desk as text: in the sender line and in both answers.
    await expect.poll(() => messages.getByText(/Click here to approve/).count()).toBeGreaterThanOrEqual(4);
    // Our own link (the docs) still works.
    expect(await messages.locator('a[href="/api/v1/openapi.json"]').count()).toBe(1);
    await expectNothingFromEvilHost(desk, deskAsked);
    await desk.evaluate(() => window.scrollTo(0, 0));
    await h.screenshot(desk, '1-desk-1280');

    await desk.setViewportSize({ width: 390, height: 844 });
    await expectNothingFromEvilHost(desk, deskAsked);
    await h.screenshot(desk, '2-desk-390');
    expect(h.pageErrors(desk)).toEqual([]);
    expect(h.pageErrors(owner)).toEqual([]);
  });
});
