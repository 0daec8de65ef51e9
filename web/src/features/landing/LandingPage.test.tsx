import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteFiguresProvider, resetSiteFiguresForTests } from '@/lib/site-figures';
import {
  CHANNEL_PRICES,
  COMPARISON_VOLUMES,
  LANDING_PLANS,
  PAISE_PER_VERIFICATION,
  TOP_UP_PACKS,
  channelSavings,
  formatCountIndian,
  formatRupees,
  monthlyComparison,
} from '@common/pricing';
import { API_KEY_PLACEHOLDER, apiBaseUrl, renderSample } from '@common/samples';
import { LandingPage } from './LandingPage';
import { percentRange, rupeeRange } from './components/Comparison';
import { FEATURES } from './components/Features';

/**
 * The landing asks GET /api/payments/methods which auto-refill runs here; `mode` is the server's
 * answer (none: no answer yet). `figures` answers GET /api/site/figures (none: no answer yet);
 * `serverFigures` are the figures a server render would have put into the page.
 */
function renderPage(
  mode?: 'razorpay' | 'bank' | 'unavailable',
  options: { figures?: { verifications: number | null; businesses: number | null }; serverFigures?: { verifications: number | null; businesses: number | null } } = {},
) {
  const json = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
  const fetchMock = vi.fn((url: string) => {
    if (mode && String(url).startsWith('/api/payments/methods')) return json({ autoRefill: { mode } });
    if (options.figures && String(url).startsWith('/api/site/figures')) return json(options.figures);
    return new Promise<Response>(() => {});
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const page = (
    <MemoryRouter initialEntries={['/']}>
      <LandingPage />
    </MemoryRouter>
  );
  const view = render(
    <QueryClientProvider client={client}>
      {options.serverFigures ? <SiteFiguresProvider figures={options.serverFigures}>{page}</SiteFiguresProvider> : page}
    </QueryClientProvider>,
  );
  return { ...view, fetchMock };
}

/** Whether the page asked the server for its figures. */
const askedForFigures = (fetchMock: ReturnType<typeof vi.fn>) => fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/site/figures'));

function section(name: RegExp | string) {
  return screen.getByRole('region', { name });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LandingPage', () => {
  it.each([
    ['razorpay', 'your saved card or UPI mandate is charged once for your chosen pack', 'Auto-refill: your saved card or UPI mandate is charged when the balance runs low'],
    ['bank', 'you get a bank/UPI top-up request for your chosen pack (reference and UPI QR) to pay. Nothing is charged automatically.', 'Auto-refill: a bank/UPI top-up request with its UPI QR when the balance runs low'],
  ] as const)('says exactly what auto-refill does on this installation (%s)', async (mode, featureText, planText) => {
    renderPage(mode);
    const features = section('Everything you need to retire SMS one-time codes');
    expect(await within(features).findByText(new RegExp(featureText.replace(/[()/.]/g, '\\$&')))).toBeInTheDocument();
    expect(within(section(/Prepaid, per verification/)).getByText(planText)).toBeInTheDocument();
  });

  it('before the server has said which, promises only what both auto-refills do', () => {
    renderPage();
    expect(screen.getByText(/a charge to your saved card or UPI mandate where card payments are enabled, otherwise a bank\/UPI request to pay/)).toBeInTheDocument();
    expect(screen.queryByText(/Auto-refill before your balance runs low/)).not.toBeInTheDocument();
  });

  it('leaves the promise out where neither auto-refill is available', async () => {
    renderPage('unavailable');
    expect(await screen.findByText(/A low-balance alert comes before your balance can run out/)).toBeInTheDocument();
    expect(screen.queryByText(/^Auto-refill/)).not.toBeInTheDocument();
  });

  it('has the page landmarks and one h1 about TOTP at ₹0.10', () => {
    renderPage();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Primary' })).toBeInTheDocument();
    const h1 = screen.getByRole('heading', { level: 1 });
    expect(h1).toHaveTextContent(/SMS/);
    expect(h1).toHaveTextContent(`${formatRupees(PAISE_PER_VERIFICATION)} per verification`);
  });

  it('labels every section by its heading and anchors features, pricing and docs', () => {
    const { container } = renderPage();
    for (const id of ['features', 'pricing', 'compare', 'docs']) {
      const el = container.querySelector(`section#${id}`);
      expect(el, id).not.toBeNull();
      const labelId = el!.getAttribute('aria-labelledby');
      expect(labelId && document.getElementById(labelId)?.tagName).toBe('H2');
    }
    for (const el of container.querySelectorAll('section')) {
      expect(el.getAttribute('aria-labelledby')).toBeTruthy();
    }
  });

  it('links the top bar to the sections, the blog and the docs', () => {
    renderPage();
    const nav = screen.getByRole('navigation', { name: 'Primary' });
    const hrefs = within(nav)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(expect.arrayContaining(['/#features', '/#pricing', '/#docs', '/blog']));
  });

  it('sends every sign-in button to /api/login with a plain link', () => {
    renderPage();
    const signIns = screen.getAllByRole('link', { name: /log ?in|get started|start building|api key/i });
    // header Login + Get Started, hero, Developer + Business plans, docs, final CTA, footer
    expect(signIns.length).toBeGreaterThanOrEqual(8);
    for (const link of signIns) expect(link).toHaveAttribute('href', '/api/login');

    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/api/login');
    expect(within(header).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/api/login');

    // No other link tries to sign in some other way (e.g. with a returnTo or a client route).
    for (const link of screen.getAllByRole('link')) {
      const href = link.getAttribute('href') ?? '';
      if (/login|sign-?in|auth/i.test(href)) expect(href).toBe('/api/login');
    }
  });

  it('renders the six feature cards', () => {
    renderPage();
    const features = section(/retire SMS/i);
    const cards = within(features).getAllByRole('listitem');
    expect(cards).toHaveLength(6);
    const titles = within(features)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(titles).toEqual(FEATURES.map((f) => f.title));
    expect(titles).toEqual(
      expect.arrayContaining(['RFC 6238 TOTP API', 'Signed webhooks', 'Prepaid credits with auto-refill']),
    );
  });

  it('shows the plans and top-up packs from the pricing catalogue', () => {
    renderPage();
    const pricing = section(/prepaid, per verification/i);
    expect(pricing).toHaveTextContent(`1 credit = ${formatRupees(PAISE_PER_VERIFICATION)}`);
    expect(pricing).toHaveTextContent('1 credit = ₹0.10');

    for (const plan of LANDING_PLANS) {
      const card = within(pricing).getByRole('group', { name: plan.name });
      if (plan.amountPaise !== null && plan.verifications !== null) {
        expect(card).toHaveTextContent(formatRupees(plan.amountPaise));
        expect(card).toHaveTextContent(`${formatCountIndian(plan.verifications)} verifications`);
      } else {
        expect(card).toHaveTextContent('Custom');
      }
      const cta = within(card).getByRole('link', { name: plan.cta.label });
      expect(cta).toHaveAttribute('href', plan.cta.href);
    }
    // The decision recorded in pricing.ts: no bonus, exact ₹0.10 per verification.
    expect(within(pricing).getByRole('group', { name: 'Developer' })).toHaveTextContent('₹1,00010,000 verifications');
    expect(within(pricing).getByRole('group', { name: 'Business' })).toHaveTextContent('50,000 verifications');
    expect(pricing).not.toHaveTextContent('55,000');
    expect(pricing).not.toHaveTextContent('₹999');

    const packs = within(pricing).getByRole('list', { name: 'Top-up packs' });
    const items = within(packs).getAllByRole('listitem');
    expect(items).toHaveLength(TOP_UP_PACKS.length);
    TOP_UP_PACKS.forEach((pack, i) => {
      expect(items[i]).toHaveTextContent(pack.name);
      expect(items[i]).toHaveTextContent(formatRupees(pack.amountPaise));
      expect(items[i]).toHaveTextContent(`${formatCountIndian(pack.verifications)} verifications`);
      if (pack.popular) expect(items[i]).toHaveTextContent('Popular');
    });
    expect(items[1]).toHaveTextContent('₹10,0001,00,000 verifications');
  });

  it('computes the SMS / WhatsApp comparison from the catalogue', () => {
    renderPage();
    const compare = section(/stop paying for every code/i);

    for (const channel of CHANNEL_PRICES) {
      expect(compare).toHaveTextContent(rupeeRange(channel.lowPaise, channel.highPaise));
    }
    const [sms, whatsapp] = channelSavings();
    expect(screen.getByTestId('per-code-savings')).toHaveTextContent(
      `${percentRange(sms!.percentLow, sms!.percentHigh)} less than SMS · ${percentRange(whatsapp!.percentLow, whatsapp!.percentHigh)} less than WhatsApp`,
    );
    // With the typical figures (₹0.20–₹0.25 SMS, ₹0.12–₹0.14 WhatsApp) that is:
    expect(screen.getByTestId('per-code-savings')).toHaveTextContent('50–60% less than SMS · 16–28% less than WhatsApp');
    expect(compare).not.toHaveTextContent('60-70%');

    for (const volume of COMPARISON_VOLUMES) {
      const card = screen.getByTestId(`volume-${volume}`);
      const m = monthlyComparison(volume);
      expect(card).toHaveTextContent(`${formatCountIndian(volume)} verifications a month`);
      expect(card).toHaveTextContent(formatRupees(m.sixdigitPaise));
      for (const c of m.channels) expect(card).toHaveTextContent(rupeeRange(c.lowPaise, c.highPaise));
      const smsCost = m.channels.find((c) => c.channel.id === 'sms')!;
      expect(card).toHaveTextContent(
        `You save ${rupeeRange(smsCost.savingLowPaise, smsCost.savingHighPaise)} a month compared with SMS (${percentRange(smsCost.percentLow, smsCost.percentHigh)})`,
      );
    }
    expect(screen.getByTestId('volume-1000000')).toHaveTextContent('You save ₹1,00,000–₹1,50,000 a month');

    // The qualities table says yes/no in words, not only with colour or icons.
    const table = within(compare).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Quality',
      'SMS OTP',
      'WhatsApp OTP',
      'Sixdigit TOTP',
    ]);
    expect(within(table).getAllByText('Yes').length).toBeGreaterThan(0);
  });

  it('shows the POST /api/v1/verify sample (common/samples) in four languages and copies the one shown', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderPage();
    const docs = section(/verify a code with one request/i);
    const curl = renderSample('verify', 'curl', { baseUrl: apiBaseUrl(window.location.origin), apiKey: API_KEY_PLACEHOLDER });
    expect(within(docs).getByRole('tabpanel')).toHaveTextContent(curl.replace(/\s+/g, ' '), { normalizeWhitespace: true });
    expect(docs).toHaveTextContent('Authorization: Bearer');
    expect(docs).toHaveTextContent('"cost": "0.10"');

    await user.click(within(docs).getByRole('tab', { name: 'Python' }));
    await user.click(within(docs).getByRole('button', { name: 'Copy Python code for POST /api/v1/verify' }));
    expect(writeText).toHaveBeenCalledWith(renderSample('verify', 'python', { baseUrl: apiBaseUrl(window.location.origin), apiKey: API_KEY_PLACEHOLDER }));
    expect(writeText.mock.calls[0]![0]).toContain('/api/v1/verify');
    expect(await within(docs).findByRole('button', { name: 'Copied Python code for POST /api/v1/verify' })).toBeInTheDocument();
  });

  it('opens and closes the phone menu from the keyboard', async () => {
    const user = userEvent.setup();
    renderPage();
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Site menu' })).toBeNull();

    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('navigation', { name: 'Site menu' });
    expect(within(menu).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/#pricing');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Site menu' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(within(screen.getByRole('navigation', { name: 'Site menu' })).getByRole('link', { name: 'Features' }));
    expect(screen.queryByRole('navigation', { name: 'Site menu' })).toBeNull();
  });

  it('has a footer with product, resources and company links', () => {
    renderPage();
    const footer = screen.getByRole('contentinfo');
    const resources = within(footer).getByRole('navigation', { name: 'Resources' });
    const hrefs = within(resources)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(expect.arrayContaining(['/blog', '/contact', '/payment-methods']));
    expect(within(footer).getByRole('navigation', { name: 'Product' })).toBeInTheDocument();
    expect(within(footer).getByRole('navigation', { name: 'Company' })).toBeInTheDocument();
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} Sixdigit`);
  });

  it('offers a skip link to the main content', () => {
    renderPage();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main-content');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
  });
});

describe('the live figures in the stats strip', () => {
  const strip = () => screen.getByRole('region', { name: 'Sixdigit in numbers' });

  afterEach(() => {
    vi.unstubAllGlobals();
    resetSiteFiguresForTests();
    document.getElementById('site-figures')?.remove();
  });

  it('shows the figures the server rendered the page with, rounded down with a "+"', () => {
    const { fetchMock } = renderPage(undefined, { serverFigures: { verifications: 2_500_000, businesses: 520 } });
    expect(askedForFigures(fetchMock)).toBe(false);
    expect(within(strip()).getByText('2.5M+')).toBeInTheDocument();
    expect(within(strip()).getByText('Verifications served')).toBeInTheDocument();
    expect(within(strip()).getByText('520+')).toBeInTheDocument();
    expect(within(strip()).getByText('Business clients')).toBeInTheDocument();
  });

  it('hydrates with the figures written into the page, without asking the server', () => {
    const data = Object.assign(document.createElement('script'), { type: 'application/json', id: 'site-figures', textContent: '{"verifications":12000,"businesses":null}' });
    document.body.append(data);
    const { fetchMock } = renderPage();
    expect(within(strip()).getByText('12,000+')).toBeInTheDocument();
    // a figure too small to be worth showing is left out, not shown as zero
    expect(within(strip()).queryByText('Business clients')).toBeNull();
    expect(askedForFigures(fetchMock)).toBe(false);
  });

  it('asks the server when the browser renders the page alone, and shows no made-up figure meanwhile', async () => {
    const { fetchMock } = renderPage(undefined, { figures: { verifications: null, businesses: 60 } });
    expect(within(strip()).queryByText('Business clients')).toBeNull();
    expect(await within(strip()).findByText('60+')).toBeInTheDocument();
    expect(within(strip()).queryByText('Verifications served')).toBeNull();
    expect(within(strip()).getByText('Uptime')).toBeInTheDocument();
    expect(askedForFigures(fetchMock)).toBe(true);
  });
});
