import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublicFooter } from './PublicFooter';
import { PublicHeader } from './PublicHeader';
import type { SiteLink } from './links';

const LINKS: readonly SiteLink[] = [
  { label: 'Features', href: '#features' },
  { label: 'Blog', href: '/blog' },
  { label: 'Feed', href: '/blog/feed.xml' },
  { label: 'Elsewhere', href: 'https://example.test/page' },
  { label: 'Other site', href: '/contact', reload: true },
];

function Where() {
  const { pathname, hash } = useLocation();
  return <output aria-label="location">{`${pathname}${hash}`}</output>;
}

function renderAt(path: string, ui: React.ReactNode) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              {ui}
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

/** Stops jsdom's own (unimplemented) navigation after React has seen the click. */
function stopDocumentNavigation() {
  const stop = (event: Event) => event.preventDefault();
  document.addEventListener('click', stop);
  return () => document.removeEventListener('click', stop);
}

afterEach(() => vi.unstubAllGlobals());

describe('PublicHeader', () => {
  it('gives each kind of link its href, and both sign-in buttons /api/login', () => {
    renderAt('/blog', <PublicHeader links={LINKS} />);
    const nav = screen.getByRole('navigation', { name: 'Primary' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Features', '/#features'],
      ['Blog', '/blog'],
      ['Feed', '/blog/feed.xml'],
      ['Elsewhere', 'https://example.test/page'],
      ['Other site', '/contact'],
    ]);
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/api/login');
    expect(within(header).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/api/login');
    expect(within(header).getByRole('link', { name: 'Sixdigit' })).toHaveAttribute('href', '/');
  });

  it('routes app links and landing sections in the app, and leaves server pages and reload links to the browser', async () => {
    const user = userEvent.setup();
    const restore = stopDocumentNavigation();
    renderAt('/blog', <PublicHeader links={LINKS} />);
    const nav = screen.getByRole('navigation', { name: 'Primary' });
    const where = screen.getByRole('status', { name: 'location' });

    await user.click(within(nav).getByRole('link', { name: 'Other site' }));
    await user.click(within(nav).getByRole('link', { name: 'Feed' }));
    expect(where).toHaveTextContent('/blog');

    await user.click(within(nav).getByRole('link', { name: 'Features' }));
    expect(where).toHaveTextContent('/#features');
    restore();
  });

  it('opens the phone menu, closes it with Escape (focus back on the button), on a wider window and after a link is followed', async () => {
    const user = userEvent.setup();
    renderAt('/', <PublicHeader links={LINKS.slice(0, 2)} />);
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Site menu' })).toBeNull();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Close menu');
    const menu = screen.getByRole('navigation', { name: 'Site menu' });
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).toContainElement(menu);
    expect(within(menu).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/#features', '/blog']);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Site menu' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();

    // Still a phone: a resize leaves the menu open; past the md breakpoint it closes.
    let wide = false;
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: wide && query === '(min-width: 768px)' }));
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(screen.getByRole('navigation', { name: 'Site menu' })).toBeInTheDocument();
    wide = true;
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(screen.queryByRole('navigation', { name: 'Site menu' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(within(screen.getByRole('navigation', { name: 'Site menu' })).getByRole('link', { name: 'Blog' }));
    expect(screen.queryByRole('navigation', { name: 'Site menu' })).toBeNull();
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent('/blog');
  });
});

describe('PublicFooter', () => {
  it('makes each column a navigation landmark named by its title, with its note, the fine print and the year', () => {
    renderAt(
      '/',
      <PublicFooter
        description="What Sixdigit is."
        extra={<a href="/blog/feed.xml">Subscribe by RSS</a>}
        columns={[
          { title: 'Product', links: [{ label: 'Pricing', href: '#pricing' }] },
          { title: 'Company', links: [{ label: 'Log in', href: '/api/login' }], note: 'Replies within 4 hours.' },
        ]}
        fineprint="Prices in Indian rupees."
      />,
    );
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent('What Sixdigit is.');
    expect(within(footer).getByRole('link', { name: 'Subscribe by RSS' })).toHaveAttribute('href', '/blog/feed.xml');
    expect(within(within(footer).getByRole('navigation', { name: 'Product' })).getByRole('link')).toHaveAttribute('href', '/#pricing');
    const company = within(footer).getByRole('navigation', { name: 'Company' });
    expect(within(company).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/api/login');
    expect(company).toHaveTextContent('Replies within 4 hours.');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} Sixdigit. All rights reserved.`);
    expect(footer).toHaveTextContent('Prices in Indian rupees.');
  });
});
