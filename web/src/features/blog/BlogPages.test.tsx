import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_TAG_LIMIT, formatPublishDate, headingId, relatedArticles } from '@common/blog';
import { resetToasts } from '@/components/ui/use-toast';
import { ada, renderApp, stubServer } from '@/test/render-app';
import { ARTICLES, findArticle } from './articles';

vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  resetToasts();
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});
afterEach(() => vi.unstubAllGlobals());

const featured = ARTICLES.find((a) => a.featured)!;

describe('/blog', () => {
  it('shows the SPEC header links, the featured article and every other article in the All Articles grid', async () => {
    stubServer(null);
    renderApp('/blog');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Primary' });
    expect(within(nav).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/', '/#features', '/#pricing', '/blog', '/#docs']);
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/api/login');
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/api/login');

    const featuredSection = screen.getByRole('region', { name: 'Featured article' });
    expect(within(featuredSection).getByRole('link', { name: featured.title })).toHaveAttribute('href', `/blog/${featured.slug}`);

    const grid = screen.getByRole('region', { name: 'All Articles' });
    const cards = within(grid).getAllByRole('listitem', { name: '' }).filter((li) => li.parentElement?.tagName === 'UL' && li.querySelector('h3'));
    expect(cards.map((c) => c.querySelector('h3')!.textContent)).toEqual(ARTICLES.filter((a) => !a.featured).map((a) => a.title));
    expect(within(grid).queryByText(featured.title)).not.toBeInTheDocument();
  });

  it.each(['/blog', `/blog/${featured.slug}`, '/payment-methods'])('%s: the site header and footer are the page\'s own landmarks, beside its one main, with a skip link to it', async (path) => {
    stubServer(null);
    const { container } = renderApp(path);
    const main = await screen.findByRole('main');
    expect(container.querySelectorAll('main')).toHaveLength(1);
    const siteHeader = screen.getByRole('navigation', { name: 'Primary' }).closest('header')!;
    const siteFooter = container.querySelector('main ~ footer');
    // A <header>/<footer> is the banner/contentinfo landmark only outside <main> and sections.
    expect(main.contains(siteHeader)).toBe(false);
    expect(siteHeader.parentElement).toBe(main.parentElement);
    expect(siteFooter).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', `#${main.id}`);
  });

  it('gives each card its category, read time, title, excerpt, author, date and the first 3 tags plus "+N"', async () => {
    stubServer(null);
    renderApp('/blog');
    const grid = await screen.findByRole('region', { name: 'All Articles' });
    for (const article of ARTICLES.filter((a) => !a.featured)) {
      const card = within(grid).getByRole('heading', { name: article.title }).closest('li')!;
      const scope = within(card);
      expect(scope.getAllByText(article.category).length).toBeGreaterThan(0);
      expect(scope.getByText(article.readTime)).toBeInTheDocument();
      expect(scope.getByText(article.excerpt)).toBeInTheDocument();
      expect(scope.getByText(article.author)).toBeInTheDocument();
      expect(scope.getByText(formatPublishDate(article.publishDate))).toBeInTheDocument();
      const tags = within(scope.getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((li) => li.textContent);
      const hidden = article.tags.length - CARD_TAG_LIMIT;
      expect(hidden).toBeGreaterThan(0); // every article has more than three tags, so "+N" is exercised
      expect(tags).toEqual([...article.tags.slice(0, CARD_TAG_LIMIT), `+${hidden}and ${hidden} more`]);
    }
  });

  it('offers the same links in the phone menu', async () => {
    stubServer(null);
    const user = userEvent.setup();
    renderApp('/blog');
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('navigation', { name: 'Site menu' });
    expect(within(menu).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Home', '/'],
      ['Features', '/#features'],
      ['Pricing', '/#pricing'],
      ['Blog', '/blog'],
      ['API Docs', '/#docs'],
    ]);
  });

  it('ends with the call to action (Start Free Trial signs in, View API Docs goes to the docs) and the footer with Product and Support links', async () => {
    stubServer(null);
    renderApp('/blog');
    const cta = await screen.findByRole('region', { name: 'Ready to replace SMS codes?' });
    expect(within(cta).getByRole('link', { name: /Start Free Trial/ })).toHaveAttribute('href', '/api/login');
    expect(within(cta).getByRole('link', { name: /View API Docs/ })).toHaveAttribute('href', '/#docs');
    expect(screen.getByRole('navigation', { name: 'Product' })).toBeInTheDocument();
    const support = screen.getByRole('navigation', { name: 'Support' });
    expect(within(support).getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/contact');
    expect(document.title).toBe('Sixdigit Blog — TOTP security, costs and integration');
    expect(document.head.querySelector('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', '/blog/feed.xml');
  });

  it('leaves the header and footer to the app for a signed-in person, and sends View API Docs to the API reference', async () => {
    stubServer(ada);
    renderApp('/blog');
    // The public view shows first while the session and the signed-in app load; then the app swaps in.
    await waitFor(() =>
      expect(within(screen.getByRole('region', { name: 'Ready to replace SMS codes?' })).getByRole('link', { name: /View API Docs/ })).toHaveAttribute(
        'href',
        '/api/v1/openapi.json',
      ),
    );
    expect(screen.queryByRole('link', { name: 'Get Started' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Primary' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Support' })).not.toBeInTheDocument();
  });
});

describe('/blog/:id', () => {
  it('shows the article: category, title, author, date, read time, tags, share buttons, excerpt, content, author box, CTA', async () => {
    stubServer(null);
    const article = findArticle('implementing-totp-api')!;
    renderApp('/blog/implementing-totp-api');
    expect(await screen.findByRole('heading', { level: 1, name: article.title })).toBeInTheDocument();
    const main = screen.getByRole('article');
    const scope = within(main);
    expect(scope.getAllByText(article.category).length).toBeGreaterThan(0);
    expect(scope.getByText(article.readTime)).toBeInTheDocument();
    expect(scope.getAllByText(article.author)[0]).toBeInTheDocument();
    expect(scope.getByText(formatPublishDate(article.publishDate))).toBeInTheDocument();
    // All tags on the post itself.
    expect(within(scope.getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(article.tags);
    expect(scope.getByText(article.excerpt)).toBeInTheDocument();
    // Markdown rendered: headings with anchors, inline code, a table, code blocks.
    expect(scope.getByRole('heading', { level: 2, name: 'Step 3: verify a code' })).toHaveAttribute('id', headingId('Step 3: verify a code'));
    expect(scope.getAllByText('status', { selector: 'code' }).length).toBeGreaterThan(0);
    expect(scope.getAllByRole('table').length).toBeGreaterThan(0);
    expect([...main.querySelectorAll('pre code')].some((c) => c.textContent?.includes('curl -X POST'))).toBe(true);
    const share = scope.getByRole('group', { name: 'Share this article' });
    const x = within(share).getByRole('link', { name: 'Share on X (Twitter)' });
    expect(new URL(x.getAttribute('href')!).searchParams.get('url')).toBe(`${window.location.origin}/blog/implementing-totp-api`);
    expect(within(share).getByRole('link', { name: 'Share on LinkedIn' }).getAttribute('href')).toContain(encodeURIComponent(`${window.location.origin}/blog/implementing-totp-api`));
    const author = scope.getByRole('complementary', { name: 'About the author' });
    expect(within(author).getByText(article.authorBio)).toBeInTheDocument();
    expect(scope.getByRole('link', { name: /Start Free Trial/ })).toHaveAttribute('href', '/api/login');
    expect(document.title).toBe(`${article.title} · Sixdigit Blog`);
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute('content', article.excerpt);
  });

  it('opens an article linked from another one without reloading the page', async () => {
    stubServer(null);
    const user = userEvent.setup();
    const target = findArticle('cost-analysis-authentication')!;
    renderApp('/blog/totp-vs-sms-security');
    // The link inside the article's text (its HTML is made at build time), not a related-article card.
    const link = within(await screen.findByRole('article')).getByRole('link', { name: 'cost analysis' });
    expect(link).toHaveAttribute('href', `/blog/${target.slug}`);
    await user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: target.title })).toBeInTheDocument();
  });

  it('lists at most 2 related articles, never the article itself, and opens one', async () => {
    stubServer(null);
    const user = userEvent.setup();
    renderApp(`/blog/${featured.slug}`);
    const related = await screen.findByRole('region', { name: 'Related articles' });
    const titles = within(related).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(titles).toEqual(relatedArticles(featured, ARTICLES).map((a) => a.title));
    expect(titles).toHaveLength(2);
    expect(titles).not.toContain(featured.title);
    await user.click(within(related).getByRole('link', { name: titles[0]! }));
    expect(await screen.findByRole('heading', { level: 1, name: titles[0]! })).toBeInTheDocument();
  });

  it('copies the article link and confirms with a toast', async () => {
    stubServer(null);
    const user = userEvent.setup();
    renderApp('/blog/cost-analysis-authentication');
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/blog/cost-analysis-authentication`);
    expect(await screen.findByText('Link copied')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('answers an unknown id with Post Not Found and a Back to Blog button that works', async () => {
    stubServer(null);
    const user = userEvent.setup();
    renderApp('/blog/no-such-article');
    expect(await screen.findByRole('heading', { name: 'Post Not Found' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Blog' }));
    expect(await screen.findByRole('region', { name: 'All Articles' })).toBeInTheDocument();
  });

  it('gives every one of the four articles a detail page (DESIGN §8)', async () => {
    expect(ARTICLES).toHaveLength(4);
    for (const article of ARTICLES) {
      stubServer(null);
      const { unmount } = renderApp(`/blog/${article.slug}`);
      expect(await screen.findByRole('heading', { level: 1, name: article.title })).toBeInTheDocument();
      expect(screen.queryByText('Post Not Found')).not.toBeInTheDocument();
      unmount();
    }
  });
});
