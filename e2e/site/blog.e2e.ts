import { describe, expect, it } from 'vitest';
import { relatedArticles } from '../../common/blog';
import { blogArticles } from '../../server/src/features/site/content';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { signInLocally, useE2E, visit } from '../support/harness';

const h = useE2E('site/blog');
const articles = blogArticles();
const featured = articles.find((a) => a.featured)!;

describe('the public site: blog and payment methods', () => {
  it('a visitor reads the blog: list → post → copy link (toast + clipboard) → a related post; every post has its own head in the HTML', async () => {
    const page = await h.newPage({ width: 1280 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
    await visit(page, '/blog');
    await page.getByRole('heading', { name: 'All Articles' }).waitFor();
    expect(await page.title()).toBe('Sixdigit Blog — TOTP security, costs and integration');
    expect(await page.locator('link[rel="alternate"][type="application/rss+xml"]').getAttribute('href')).toBe(`${h.baseUrl}/blog/feed.xml`);
    await h.screenshot(page, '1-blog-1280');
    await expectNoSeriousA11yViolations(page, { label: '/blog' });

    // Open the featured article from its card.
    await page.getByRole('region', { name: 'Featured article' }).getByRole('link', { name: featured.title }).click();
    await page.getByRole('heading', { level: 1, name: featured.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/blog/${featured.slug}`);
    expect(await page.title()).toBe(`${featured.title} · Sixdigit Blog`);

    // Share: copy link → toast, and the address is on the clipboard.
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Link copied').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${h.baseUrl}/blog/${featured.slug}`);
    await h.screenshot(page, '2-post-1280');
    await expectNoSeriousA11yViolations(page, { label: `/blog/${featured.slug}` });

    // A related article (at most two are offered).
    const related = page.getByRole('region', { name: 'Related articles' });
    const expected = relatedArticles(featured, articles);
    expect(await related.getByRole('heading', { level: 3 }).allTextContents()).toEqual(expected.map((a) => a.title));
    await related.getByRole('link', { name: expected[0]!.title }).click();
    await page.getByRole('heading', { level: 1, name: expected[0]!.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/blog/${expected[0]!.slug}`);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // What a crawler or a link preview gets, without running the app.
    for (const article of articles) {
      const html = await (await page.request.get(`/blog/${article.slug}`)).text();
      expect(html).toContain('<meta property="og:type" content="article">');
      expect(html).toContain(`<link rel="canonical" href="${h.baseUrl}/blog/${article.slug}">`);
    }
    const feed = await page.request.get('/blog/feed.xml');
    expect(feed.status()).toBe(200);
    expect((await feed.text()).match(/<item>/g)).toHaveLength(4);
    expect(h.pageErrors(page)).toEqual([]);
  });

  it('an unknown post says Post Not Found; View API Docs opens the landing page at its docs section', async () => {
    const page = await h.newPage({ width: 390 });
    await visit(page, '/blog/no-such-post');
    await page.getByRole('heading', { name: 'Post Not Found' }).waitFor();
    await h.screenshot(page, '3-not-found-390');
    await page.getByRole('link', { name: 'Back to Blog' }).click();
    await page.getByRole('heading', { name: 'All Articles' }).waitFor();
    await h.screenshot(page, '4-blog-390');
    await page.getByRole('link', { name: 'View API Docs' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.hash === '#docs');
    const docs = page.locator('section#docs');
    await docs.waitFor();
    await expect.poll(async () => (await docs.boundingBox())?.y ?? -1, { timeout: 5000 }).toBeLessThan(200);

    // The phone menu's links work too (the public header's disclosure menu, as on the landing page).
    await visit(page, '/blog');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Site menu' }).getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.hash === '#pricing');
    await page.locator('section#pricing').waitFor();

    await visit(page, `/blog/${articles[1]!.slug}`);
    await page.getByRole('heading', { level: 1, name: articles[1]!.title }).waitFor();
    await h.screenshot(page, '5-post-390');
  });

  it('/payment-methods: the demo payee and packs; Add Credits asks a visitor to sign in and then opens the top-up page', async () => {
    const page = await h.newPage({ width: 390 });
    await visit(page, '/payment-methods');
    await page.getByRole('heading', { level: 1, name: 'Payment methods' }).waitFor();
    await page.getByText('Demo payee — do not pay.').waitFor();
    await page.getByText('sixdigit.demo@invalid').waitFor();
    await page.getByRole('region', { name: 'Top-up packs' }).getByText('₹5,000').waitFor();
    await h.screenshot(page, '6-payment-methods-390');
    await expectNoSeriousA11yViolations(page, { label: '/payment-methods' });

    // Signed out: Add Credits → sign-in → back on the top-up page.
    await page.getByRole('link', { name: 'Add Credits' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/api/login'));
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe('/business/add-credits');
    await signInLocally(page, 'owner@site.example', 'Priya Owner');
    expect(new URL(page.url()).pathname).toBe('/business/add-credits');
    await page.getByRole('heading', { name: 'Business Account Required' }).waitFor();

    // With a business, Add Credits from /payment-methods opens the top-up page itself.
    await page.getByRole('link', { name: 'Set up your business' }).click();
    await page.getByLabel('Company Name').fill('Site Co');
    await page.getByRole('button', { name: 'Create Business Account' }).click();
    await page.getByTestId('api-key-reveal').waitFor();
    await visit(page, '/payment-methods');
    await page.getByRole('link', { name: 'Add Credits' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add Credits' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/business/add-credits');

    const wide = await h.newPage({ width: 1280 });
    await visit(wide, '/payment-methods');
    await wide.getByText('sixdigit.demo@invalid').waitFor();
    await h.screenshot(wide, '7-payment-methods-1280');
    expect(h.pageErrors(page)).toEqual([]);
  });
});
