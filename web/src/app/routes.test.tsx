import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hardNavigate } from '@/lib/navigation';
import { ada, admin, jsonResponse, renderApp, setSessionHint, stubServer } from '@/test/render-app';

vi.mock('@/lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/navigation')>()),
  hardNavigate: vi.fn(),
}));

beforeEach(() => vi.mocked(hardNavigate).mockClear());
afterEach(() => vi.unstubAllGlobals());

describe('main variant, signed out', () => {
  it('shows the landing page, not a spinner, while the session is still loading', () => {
    // A session hint says someone may be signed in: the session call goes out and hangs.
    setSessionHint(true);
    const fetchMock = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetchMock);
    renderApp('/');
    expect(screen.getByRole('heading', { level: 1, name: /Replace SMS OTPs with TOTP/ })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/user', expect.anything());
  });

  it('with a session hint, keeps a page that is not server-rendered on a spinner until the session answers (so it is mounted once, in its final layout)', () => {
    // Mounted in the public frame first, /contact (or /business) was mounted again inside the
    // signed-in layout a moment later, losing what had been typed or the API key shown once.
    setSessionHint(true);
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => {})));
    renderApp('/contact');
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: 'Contact us' })).not.toBeInTheDocument();
  });

  it('makes no session call on a public page when there is no session hint (no 401 in the console)', async () => {
    const fetchMock = stubServer(null);
    renderApp('/blog');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: /Replace SMS OTPs with TOTP/ })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/api/auth/user');
  });

  it('still asks for the session on a protected page without a session hint', async () => {
    const fetchMock = stubServer(null);
    renderApp('/totp');
    await waitFor(() => expect(hardNavigate).toHaveBeenCalled());
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/user', expect.anything());
  });

  it('keeps a protected route on a spinner while the session loads, showing neither the page nor the landing', () => {
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => {})));
    renderApp('/totp');
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('shows the public landing page at /', async () => {
    stubServer(null);
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: /Replace SMS OTPs with TOTP/ })).toBeInTheDocument();
    // No signed-in header or footer.
    expect(screen.queryByRole('button', { name: /Account menu/ })).not.toBeInTheDocument();
  });

  it('sends a visitor on a protected route to sign in, returning to that path', async () => {
    stubServer(null);
    renderApp('/totp?tab=setup');
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/api/login?returnTo=%2Ftotp%3Ftab%3Dsetup'));
    expect(screen.getByRole('status', { name: 'Redirecting to sign in' })).toBeInTheDocument();
  });

  it('opens public routes such as /contact and /admin without signing in', async () => {
    stubServer(null);
    const contact = renderApp('/contact');
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact us' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeInTheDocument();
    contact.unmount();
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Authentication Required' })).toBeInTheDocument();
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('shows the 404 page for an unknown path', async () => {
    stubServer(null);
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /home page/i })).toHaveAttribute('href', '/');
  });
});

describe('main variant, signed in', () => {
  it('shows Home with the first name at /home, inside the shared header and footer', async () => {
    stubServer(ada);
    renderApp('/home');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Ada!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Generate TOTP Codes' })).toHaveAttribute('href', '/totp');
    for (const badge of ['Secure & Private', 'Works Offline', 'Free Forever']) {
      expect(screen.getByText(badge)).toBeInTheDocument();
    }
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('shows the authenticator at / and highlights Authenticator for / and /multi-totp', async () => {
    stubServer(ada);
    const first = renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(screen.getByRole('heading', { level: 1, name: 'Authenticator' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Authenticator' })).toHaveAttribute('aria-current', 'page');
    first.unmount();

    renderApp('/multi-totp');
    const nav2 = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav2).getByRole('link', { name: 'Authenticator' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav2).getByRole('link', { name: 'Account TOTP' })).not.toHaveAttribute('aria-current');
  });

  it('shows the Admin nav item only to the administrator', async () => {
    stubServer(ada);
    const regular = renderApp('/home');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Authenticator',
      'Account TOTP',
      'Business',
    ]);
    regular.unmount();

    stubServer(admin);
    renderApp('/home');
    const adminNav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(adminNav).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });

  it('shows the Admin Dashboard card on Home only to the administrator', async () => {
    const user = userEvent.setup();
    stubServer(ada);
    const regular = renderApp('/home');
    await user.click(await screen.findByRole('button', { name: /Show services/ }));
    expect(screen.getByRole('heading', { name: 'Business API Service' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
    regular.unmount();

    stubServer(admin);
    renderApp('/home');
    await user.click(await screen.findByRole('button', { name: /Show services/ }));
    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('MFA required')).toBeInTheDocument();
  });

  it('has an avatar menu with name, e-mail and a Log out link to /api/logout', async () => {
    const user = userEvent.setup();
    stubServer(ada);
    renderApp('/home');
    const trigger = await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(trigger).toHaveTextContent('AL');
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Log out' })).toHaveAttribute('href', '/api/logout');
  });

  it('shows the 404 page for an unknown path', async () => {
    stubServer(ada);
    renderApp('/does-not-exist');
    // The public 404 may show while the session loads; the signed-in one has the header.
    expect(await screen.findByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
  });

  it('swaps the landing page for the authenticator at / once the session says signed in', async () => {
    let answer: (response: Response) => void = () => {};
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    renderApp('/');
    expect(screen.getByRole('heading', { level: 1, name: /Replace SMS OTPs with TOTP/ })).toBeInTheDocument();

    stubServer(ada); // the authenticator's own requests
    answer(jsonResponse(200, ada));
    expect(await screen.findByRole('heading', { level: 1, name: 'Authenticator' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Replace SMS OTPs with TOTP/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Account menu for Ada Lovelace' })).toBeInTheDocument();
  });
});

describe('enterprise variant', () => {
  it('shows the enterprise landing page, with header and footer, without asking who is signed in', async () => {
    const fetchMock = stubServer(ada);
    renderApp('/', { variant: 'enterprise' });
    expect(
      screen.getByRole('heading', { level: 1, name: 'TOTP verification at $0.0038 per verification' }),
    ).toBeInTheDocument();
    expect(screen.getByText('At 1,000,000 verifications a month')).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    // It may read the public OpenAPI document (for the main site's address), never the session.
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/api/auth/user');
  });

  it('serves /pricing, /docs and /documentation', () => {
    stubServer(null);
    const pricing = renderApp('/pricing', { variant: 'enterprise' });
    expect(screen.getByRole('heading', { level: 1, name: /per verification\. Nothing else\./ })).toBeInTheDocument();
    pricing.unmount();
    for (const path of ['/docs', '/documentation']) {
      const docs = renderApp(path, { variant: 'enterprise' });
      expect(screen.getByRole('heading', { level: 1, name: 'Verify a code with one request' })).toBeInTheDocument();
      docs.unmount();
    }
  });

  it('shows not-found for main-variant paths', () => {
    stubServer(null);
    renderApp('/home', { variant: 'enterprise' });
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
  });
});
