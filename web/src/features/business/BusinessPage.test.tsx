import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOP_UP_PACKS, formatCountIndian, formatRupees } from '@common/pricing';
import { resetToasts } from '@/components/ui/use-toast';
import { ada, jsonResponse, renderApp, stubServer } from '@/test/render-app';
import type { BusinessDashboard, LedgerEntry } from './api';
import { makeProfile } from '@/test/fixtures';
import { rangeProblem } from './components/ExportUsageDialog';
import { thresholdProblem } from './components/AutoRefillDialog';
import { last30Days } from './format';
import { COPIED_FEEDBACK_MS, useCopy } from '@/lib/use-copy';

// Whole-app renders with several user-event steps; a loaded machine needs more than 5 s.
vi.setConfig({ testTimeout: 20_000 });

vi.mock('qrcode', () => ({ default: { toDataURL: vi.fn(async () => 'data:image/png;base64,AAAA') } }));

const FULL_KEY = 'sk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const NEW_KEY = 'sk_live_ZyXwVuTsRqPoNmLkJiHgFeDcBa987654';
const TEST_KEY = 'sk_test_WxYzAbCdEfGhIjKlMnOpQrStUv012345';
const NEW_TEST_KEY = 'sk_test_QqQqAbCdEfGhIjKlMnOpQrStUv999999';


function makeDashboard(mode: 'live' | 'test' = 'live'): BusinessDashboard {
  const daily = Array.from({ length: 30 }, (_, i) => {
    const date = new Date(Date.UTC(2025, 2, 1 + i)).toISOString().slice(0, 10);
    const verified = i === 29 ? 21 : i % 3;
    const failed = i === 29 ? 1 : 0;
    return { date, total: verified + failed, verified, failed };
  });
  return {
    stats: {
      today: { totalRequests: 22, successRate: 95.5, avgResponseTime: 12.3, failedVerifications: 1 },
      month: { totalRequests: 345, successfulVerifications: 330, totalCost: '34.50', avgResponseTime: 14.7 },
      daily,
    },
    recentVerifications: [
      {
        id: 'ver_1',
        isVerified: true,
        status: 'verified',
        userId: 'user_42',
        purpose: 'login',
        createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
        responseTime: 14,
        cost: '0.10',
      },
      {
        id: 'ver_2',
        isVerified: false,
        status: 'invalid_code',
        userId: 'user_77',
        purpose: 'payout',
        createdAt: new Date(Date.now() - 60 * 60_000).toISOString(),
        responseTime: 9,
        cost: '0.10',
      },
    ],
    mode,
  };
}

const LEDGER: LedgerEntry[] = [
  { id: 'led_1', amount: '150.00', kind: 'grant', reference: null, reason: 'demo', createdAt: '2025-03-02T10:00:00.000Z' },
];

type Handler = (init: RequestInit | undefined, url: URL) => Response;

/** A fake server: `routes` maps "METHOD /path" to an answer; the rest is a 404 envelope. */
function serve(routes: Record<string, Handler>) {
  return stubServer(ada, (raw, init) => {
    const url = new URL(raw, 'http://localhost');
    const handler = routes[`${init?.method ?? 'GET'} ${url.pathname}`];
    return handler?.(init, url);
  });
}

function notFound() {
  return jsonResponse(404, { error: { code: 'not_found', message: 'You have no business account yet.', request_id: 'req_1' } });
}

function withBusiness(profile = makeProfile(), extra: Record<string, Handler> = {}) {
  return serve({
    'GET /api/business/profile': () => jsonResponse(200, profile),
    'GET /api/business/dashboard': () => jsonResponse(200, makeDashboard()),
    'GET /api/business/ledger': () => jsonResponse(200, LEDGER),
    ...extra,
  });
}

function calls(fetchMock: ReturnType<typeof serve>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method);
}

function toastRegion() {
  return screen.getByRole('region', { name: /Notifications/ });
}

beforeAll(() => {
  // jsdom has no ResizeObserver; the chart only needs it to exist.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

beforeEach(() => resetToasts());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
});

describe('set-up (no business yet)', () => {
  it('shows the set-up form, never fetches the dashboard, and insists on a company name', async () => {
    const user = userEvent.setup();
    const fetchMock = serve({ 'GET /api/business/profile': notFound });
    renderApp('/business');
    expect(await screen.findByRole('heading', { level: 1, name: 'Set Up Business Account' })).toBeInTheDocument();
    // A 404 is an answer, not an error to retry.
    expect(calls(fetchMock, 'GET', '/api/business/profile')).toHaveLength(1);

    await user.type(screen.getByLabelText('Company Name'), '   ');
    await user.click(screen.getByRole('button', { name: 'Create Business Account' }));
    const toast = within(toastRegion());
    expect(await toast.findByText('Company Name Required')).toBeInTheDocument();
    expect(toast.getByText('Please enter your company name.')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST', '/api/business/create')).toHaveLength(0);
    expect(calls(fetchMock, 'GET', '/api/business/dashboard')).toHaveLength(0);
  });

  it('creates the business and shows the full live and test keys once, outside the query cache', async () => {
    const user = userEvent.setup({ writeToClipboard: true });
    let created = false;
    const fetchMock = serve({
      'GET /api/business/profile': () => (created ? jsonResponse(200, makeProfile()) : notFound()),
      'POST /api/business/create': () => {
        created = true;
        return jsonResponse(201, { ...makeProfile(), apiKey: FULL_KEY, testApiKey: TEST_KEY });
      },
      'GET /api/business/dashboard': () => jsonResponse(200, makeDashboard()),
      'GET /api/business/ledger': () => jsonResponse(200, []),
    });
    const { client } = renderApp('/business');
    await user.type(await screen.findByLabelText('Company Name'), '  Acme Payments  ');
    await user.click(screen.getByRole('button', { name: 'Create Business Account' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Payments' })).toBeInTheDocument();
    expect(JSON.parse(String(calls(fetchMock, 'POST', '/api/business/create')[0]![1]!.body))).toEqual({ companyName: 'Acme Payments' });
    expect(within(toastRegion()).getByText('Business Account Created')).toBeInTheDocument();

    const panel = screen.getByRole('region', { name: 'Your API keys' });
    expect(within(panel).getByText(FULL_KEY)).toBeInTheDocument();
    expect(within(panel).getByText(TEST_KEY)).toBeInTheDocument();
    expect(within(panel).getByText(/won.t be shown again/)).toBeInTheDocument();
    expect(JSON.stringify(client.getQueryData(['/api/business/profile']))).not.toContain(FULL_KEY);
    expect(JSON.stringify(client.getQueryData(['/api/business/profile']))).not.toContain(TEST_KEY);
    await user.click(within(panel).getByRole('button', { name: 'Copy test API key' }));
    expect(await navigator.clipboard.readText()).toBe(TEST_KEY);

    await user.click(within(panel).getByRole('button', { name: 'Copy API key' }));
    expect(await navigator.clipboard.readText()).toBe(FULL_KEY);
    expect(await within(toastRegion()).findByText('API Key Copied')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Copy API key: copied' })).toHaveTextContent('Copied');

    await user.click(within(panel).getByRole('button', { name: /I.ve saved them/ }));
    expect(screen.queryByText(FULL_KEY)).not.toBeInTheDocument();
    expect(screen.getByTestId('api-key-prefix')).toHaveTextContent('sk_live_AbCd••••');
    expect(document.body.textContent).not.toContain(FULL_KEY);
    expect(document.body.textContent).not.toContain(TEST_KEY);
  });

  it('says "Creation Failed" when the server refuses', async () => {
    const user = userEvent.setup();
    serve({
      'GET /api/business/profile': notFound,
      'POST /api/business/create': () => jsonResponse(500, { error: { code: 'internal', message: 'boom', request_id: 'r' } }),
    });
    renderApp('/business');
    await user.type(await screen.findByLabelText('Company Name'), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Create Business Account' }));
    const toast = within(toastRegion());
    expect(await toast.findByText('Creation Failed')).toBeInTheDocument();
    expect(toast.getByText('Failed to create business account. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Set Up Business Account' })).toBeInTheDocument();
  });
});

describe('dashboard', () => {
  it('shows the figures from the profile and the dashboard', async () => {
    const fetchMock = withBusiness();
    renderApp('/business');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Payments' })).toBeInTheDocument();
    expect(screen.getByTestId('balance')).toHaveTextContent('₹123.40');
    expect(screen.getByTestId('verifications-left')).toHaveTextContent('1,234');
    expect(screen.getByTestId('api-key-prefix')).toHaveTextContent('sk_live_AbCd••••');
    expect(screen.getByTestId('api-base-url')).toHaveTextContent(`${window.location.origin}/api/v1`);
    expect(screen.getByText('1,000 requests/minute')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /API reference/ })).toHaveAttribute('href', '/api/v1/openapi.json');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    const today = await screen.findByRole('region', { name: 'Today' });
    expect(within(today).getByText('22')).toBeInTheDocument();
    expect(within(today).getByText('95.5%')).toBeInTheDocument();
    expect(within(today).getByText('12.3 ms')).toBeInTheDocument();
    expect(within(today).getByText('1')).toBeInTheDocument();
    const month = screen.getByRole('region', { name: 'This month' });
    expect(within(month).getByText('345')).toBeInTheDocument();
    expect(within(month).getByText('330')).toBeInTheDocument();
    expect(within(month).getByText('₹34.50')).toBeInTheDocument();
    expect(within(month).getByText('14.7 ms')).toBeInTheDocument();

    expect(await screen.findByRole('heading', { name: 'Daily verifications' })).toBeInTheDocument();
    expect(screen.getByTestId('daily-chart')).toBeInTheDocument();

    const recent = screen.getByRole('list', { name: 'Recent verifications' });
    const rows = within(recent).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Verified');
    expect(rows[0]).toHaveTextContent('user_42');
    expect(rows[0]).toHaveTextContent('login');
    expect(rows[0]).toHaveTextContent('5 minutes ago');
    expect(rows[0]).toHaveTextContent('14 ms');
    expect(rows[0]).toHaveTextContent('₹0.10');
    expect(rows[1]).toHaveTextContent('Invalid code');
    expect(rows[1]).toHaveTextContent('payout');

    expect(await screen.findByText('Credit grant')).toBeInTheDocument();
    expect(screen.getByText('+₹150.00')).toBeInTheDocument();
    expect(calls(fetchMock, 'GET', '/api/business/dashboard')).toHaveLength(1);
  });

  it('shows empty states when nothing has happened yet', async () => {
    const empty = makeDashboard();
    empty.recentVerifications = [];
    empty.stats.daily = empty.stats.daily.map((d) => ({ ...d, total: 0, verified: 0, failed: 0 }));
    withBusiness(makeProfile(), {
      'GET /api/business/dashboard': () => jsonResponse(200, empty),
      'GET /api/business/ledger': () => jsonResponse(200, []),
    });
    renderApp('/business');
    expect(await screen.findByText('No verifications yet')).toBeInTheDocument();
    expect(await screen.findByText('No verifications in the last 30 days')).toBeInTheDocument();
    expect(await screen.findByText('No credits added yet')).toBeInTheDocument();
  });

  it('shows skeletons while the profile loads', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => (url === '/api/auth/user' ? jsonResponse(200, ada) : new Promise<Response>(() => {}))),
    );
    renderApp('/business');
    expect(await screen.findByRole('status', { name: 'Loading business dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
  });

  it.each([
    [9_999, true],
    [10, true],
    [0, true],
    [10_000, false],
    [12_340, false],
  ])('low-balance alert at %i paise: %s', async (balancePaise, shown) => {
    const verificationsLeft = Math.floor(balancePaise / 10);
    withBusiness(makeProfile({ balancePaise, balance: (balancePaise / 100).toFixed(2), verificationsLeft, credits: verificationsLeft }));
    renderApp('/business');
    await screen.findByRole('heading', { level: 1, name: 'Acme Payments' });
    if (shown) {
      const alert = screen.getByRole('alert');
      expect(alert).toHaveTextContent(balancePaise < 10 ? 'Out of credits' : 'Low balance');
      expect(within(alert).getByRole('button', { name: 'Add Credits' })).toBeInTheDocument();
    } else {
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    }
  });

  it('reminds to top up below the auto-refill threshold, naming the chosen pack', async () => {
    withBusiness(makeProfile({ autoRefill: { ...makeProfile().autoRefill, enabled: true, thresholdPaise: 50_000, packId: 'standard' } }));
    renderApp('/business');
    const reminder = await screen.findByText('Time to top up');
    expect(reminder.closest('[role="status"]')).toHaveTextContent('below your auto-refill threshold of ₹500');
    expect(reminder.closest('[role="status"]')).toHaveTextContent('Standard pack');
  });

  it('copies the key prefix and the base URL, with "Copied" for 2 s', async () => {
    const user = userEvent.setup({ writeToClipboard: true });
    withBusiness();
    renderApp('/business');
    await user.click(await screen.findByRole('button', { name: 'Copy base URL' }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/api/v1`);
    expect(within(toastRegion()).getByText('Copied!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy base URL: copied' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy API key prefix' }));
    expect(await navigator.clipboard.readText()).toBe('sk_live_AbCd');
  });
});

describe('quick actions', () => {
  it('regenerates the key only after confirming, then shows the new key once', async () => {
    const user = userEvent.setup();
    let profile = makeProfile();
    const fetchMock = withBusiness(profile, {
      'GET /api/business/profile': () => jsonResponse(200, profile),
      'POST /api/business/api-key/regenerate': () => {
        profile = { ...profile, apiKeyPrefix: 'sk_live_ZyXw' };
        return jsonResponse(200, { apiKey: NEW_KEY, prefix: 'sk_live_ZyXw', mode: 'live' });
      },
    });
    renderApp('/business');
    await user.click(await screen.findByRole('button', { name: 'Regenerate API Key' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Regenerate API key?' });
    expect(dialog).toHaveTextContent('sk_live_AbCd••••');
    expect(dialog).toHaveTextContent(/stops working immediately/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls(fetchMock, 'POST', '/api/business/api-key/regenerate')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Regenerate API Key' }));
    dialog = screen.getByRole('alertdialog', { name: 'Regenerate API key?' });
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate key' }));

    const panel = await screen.findByRole('region', { name: 'Your new API key' });
    expect(within(panel).getByText(NEW_KEY)).toBeInTheDocument();
    expect(panel).toHaveTextContent('Your previous key has stopped working.');
    // Focus moves to the new key and stays there (the closing dialog does not take it back).
    await waitFor(() => expect(panel).toHaveFocus());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(panel).toHaveFocus();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls(fetchMock, 'POST', '/api/business/api-key/regenerate')).toHaveLength(1);
    expect(within(toastRegion()).getByText('API Key Regenerated')).toBeInTheDocument();
    expect(screen.getByTestId('api-key-prefix')).toHaveTextContent('sk_live_ZyXw••••');
    expect(String(calls(fetchMock, 'POST', '/api/business/api-key/regenerate')[0]![0])).toContain('mode=live');
  });

  it('the Live/Test switch shows the test key, test figures, test webhooks and a Test mode banner; regenerates the test key alone', async () => {
    const user = userEvent.setup();
    let profile = makeProfile();
    const fetchMock = withBusiness(profile, {
      'GET /api/business/profile': () => jsonResponse(200, profile),
      'GET /api/business/dashboard': (_init, url) => jsonResponse(200, makeDashboard(url.searchParams.get('mode') === 'test' ? 'test' : 'live')),
      'GET /api/webhooks': () => jsonResponse(200, []),
      'GET /api/webhooks/logs': () => jsonResponse(200, []),
      'POST /api/business/api-key/regenerate': (_init, url) => {
        expect(url.searchParams.get('mode')).toBe('test');
        profile = { ...profile, testApiKeyPrefix: 'sk_test_QqQq' };
        return jsonResponse(200, { apiKey: NEW_TEST_KEY, prefix: 'sk_test_QqQq', mode: 'test' });
      },
    });
    renderApp('/business');
    expect(await screen.findByTestId('api-key-prefix')).toHaveTextContent('sk_live_AbCd••••');
    expect(screen.queryByTestId('test-mode-banner')).not.toBeInTheDocument();
    const dashboardUrls = () => calls(fetchMock, 'GET', '/api/business/dashboard').map(([u]) => String(u));
    await waitFor(() => expect(dashboardUrls().some((u) => u.includes('mode=live'))).toBe(true));

    const switches = screen.getAllByRole('radiogroup');
    await user.click(within(switches[0]!).getByRole('radio', { name: 'Test' }));
    expect(await screen.findByTestId('test-mode-banner')).toHaveTextContent('Test mode.');
    // Both switches show the same choice.
    for (const group of screen.getAllByRole('radiogroup')) expect(within(group).getByRole('radio', { name: 'Test' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('test-api-key-prefix')).toHaveTextContent('sk_test_WxYz••••');
    expect(screen.queryByTestId('api-key-prefix')).not.toBeInTheDocument();
    expect(screen.getByText('100 requests/minute')).toBeInTheDocument();
    await waitFor(() => expect(dashboardUrls().some((u) => u.includes('mode=test'))).toBe(true));
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/webhooks').some(([u]) => String(u).includes('mode=test'))).toBe(true));
    expect(screen.getByRole('heading', { name: 'Test webhooks' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Regenerate test key' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Regenerate test key?' });
    expect(dialog).toHaveTextContent('sk_test_WxYz••••');
    expect(dialog).toHaveTextContent('Your live key is not affected.');
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate test key' }));
    const panel = await screen.findByRole('region', { name: 'Your new test API key' });
    expect(within(panel).getByText(NEW_TEST_KEY)).toBeInTheDocument();
    expect(panel).toHaveTextContent('Your previous test key has stopped working.');
    expect(await screen.findByTestId('test-api-key-prefix')).toHaveTextContent('sk_test_QqQq••••');

    // Back to live: the banner goes, the live key is unchanged.
    await user.click(within(screen.getByTestId('test-mode-banner')).getByRole('button', { name: 'View live data' }));
    expect(screen.queryByTestId('test-mode-banner')).not.toBeInTheDocument();
    expect(screen.getByTestId('api-key-prefix')).toHaveTextContent('sk_live_AbCd••••');
  });

  it('offers to create a test key when the business has none yet', async () => {
    withBusiness(makeProfile({ testApiKeyPrefix: null, testApiKeyCreatedAt: null }), {
      'GET /api/webhooks': () => jsonResponse(200, []),
      'GET /api/webhooks/logs': () => jsonResponse(200, []),
    });
    renderApp('/business?mode=test');
    expect(await screen.findByText('No test key yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create a test key' })).toBeInTheDocument();
  });

  it('says so when regeneration fails, keeping the old key', async () => {
    const user = userEvent.setup();
    withBusiness(makeProfile(), {
      'POST /api/business/api-key/regenerate': () =>
        jsonResponse(403, { error: { code: 'impersonation_forbidden', message: 'API keys cannot be regenerated while impersonating a user.', request_id: 'r' } }),
    });
    renderApp('/business');
    await user.click(await screen.findByRole('button', { name: 'Regenerate API Key' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Regenerate key' }));
    // The dialog stays open (and hides the rest of the page from assistive tech).
    expect(await screen.findByText('Regeneration Failed')).toBeInTheDocument();
    expect(screen.getByText('API keys cannot be regenerated while impersonating a user.')).toBeInTheDocument();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your new API key' })).not.toBeInTheDocument();
  });

  it('exports usage as a CSV link for the last 30 days by default, then for the chosen dates', async () => {
    const user = userEvent.setup();
    withBusiness();
    renderApp('/business');
    await user.click(await screen.findByRole('button', { name: 'Export Usage' }));
    const dialog = screen.getByRole('dialog', { name: 'Export Usage' });
    const { from, to } = last30Days();
    expect(within(dialog).getByLabelText('From')).toHaveValue(from);
    expect(within(dialog).getByLabelText('To')).toHaveValue(to);
    expect(within(dialog).getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      `/api/business/usage.csv?from=${from}&to=${to}`,
    );

    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '2025-01-05' } });
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2025-02-10' } });
    const link = within(dialog).getByRole('link', { name: 'Download CSV' });
    expect(link).toHaveAttribute('href', '/api/business/usage.csv?from=2025-01-05&to=2025-02-10');
    expect(link).toHaveAttribute('download');

    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '2025-03-01' } });
    expect(within(dialog).queryByRole('link', { name: 'Download CSV' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('“From” must be on or before “To”.');
    expect(within(dialog).getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  });

  it('saves auto-refill settings to the server', async () => {
    const user = userEvent.setup();
    const saved = makeProfile({ autoRefill: { ...makeProfile().autoRefill, enabled: true, thresholdPaise: 50_000, packId: 'premium' } });
    const fetchMock = withBusiness(makeProfile(), {
      'PUT /api/business/auto-refill': () => jsonResponse(200, saved),
    });
    renderApp('/business');
    await user.click(await screen.findByRole('button', { name: 'Auto-refill', description: 'Off' }));
    const dialog = screen.getByRole('dialog', { name: 'Auto-refill settings' });
    expect(dialog).toHaveTextContent(/we issue a bank\/UPI top-up request for the chosen pack/);
    await user.click(within(dialog).getByLabelText(/Enable auto-refill/));
    const threshold = within(dialog).getByLabelText('Threshold (₹)');
    await user.clear(threshold);
    await user.type(threshold, '50');
    await user.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    expect(within(dialog).getByText('The threshold must be at least ₹100.')).toBeInTheDocument();
    expect(calls(fetchMock, 'PUT', '/api/business/auto-refill')).toHaveLength(0);

    await user.type(threshold, '0');
    await user.selectOptions(within(dialog).getByLabelText('Pack'), 'premium');
    await user.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(calls(fetchMock, 'PUT', '/api/business/auto-refill')).toHaveLength(1));
    expect(JSON.parse(String(calls(fetchMock, 'PUT', '/api/business/auto-refill')[0]![1]!.body))).toEqual({
      enabled: true,
      thresholdRupees: 500,
      packId: 'premium',
    });
    expect(await within(toastRegion()).findByText('Auto-refill Saved')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Auto-refill' })).toHaveAccessibleDescription('On · bank/UPI request below ₹500 → Premium pack');
  });

  it('lists the catalogue packs in Add Credits and goes to the top-up page with the chosen pack', async () => {
    const user = userEvent.setup();
    withBusiness();
    renderApp('/business');
    await user.click(await screen.findByRole('button', { name: 'Add Credits', description: /Top-up packs from ₹5,000/ }));
    const dialog = screen.getByRole('dialog', { name: 'Add Credits' });
    for (const pack of TOP_UP_PACKS) {
      const option = within(dialog).getByRole('radio', { name: new RegExp(pack.name) });
      const card = option.closest('label')!;
      expect(card).toHaveTextContent(formatRupees(pack.amountPaise));
      expect(card).toHaveTextContent(`${formatCountIndian(pack.verifications)} verifications`);
    }
    expect(within(dialog).getByRole('radio', { name: /Basic/ })).toBeChecked();
    expect(dialog).toHaveTextContent('a financial manager checks it within');
    await user.click(within(dialog).getByRole('radio', { name: /Standard/ }));
    await user.click(within(dialog).getByRole('button', { name: /Continue with Standard/ }));
    // The top-up page (web/src/features/payments) opens with the chosen pack.
    expect(await screen.findByRole('heading', { level: 1, name: 'Add Credits' })).toBeInTheDocument();
  });

  it('shows the QR integration test in its own tab', async () => {
    const user = userEvent.setup();
    withBusiness();
    renderApp('/business');
    await user.click(await screen.findByRole('tab', { name: 'Integration test' }));
    expect(await screen.findByRole('heading', { name: 'Test accounts' })).toBeInTheDocument();
    expect(screen.getByText(/Codes refresh in \d+s/)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Show Secret Key' }).length).toBeGreaterThan(0);
  });
});

describe('helpers', () => {
  it('validates export ranges', () => {
    expect(rangeProblem('2025-01-01', '2025-01-01')).toBeNull();
    expect(rangeProblem('2025-01-02', '2025-01-01')).toMatch(/on or before/);
    expect(rangeProblem('2024-01-01', '2025-01-02')).toMatch(/one year/);
    expect(rangeProblem('', '2025-01-01')).toMatch(/both dates/);
  });

  it('validates the auto-refill threshold', () => {
    expect(thresholdProblem('100')).toBeNull();
    expect(thresholdProblem('99')).toMatch(/at least ₹100/);
    expect(thresholdProblem('150.5')).toMatch(/whole number/);
    expect(thresholdProblem('')).toMatch(/whole number/);
  });

  it('keeps "Copied" for 2 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('navigator', { clipboard: { writeText: vi.fn(async () => {}) } });
    try {
      const { result } = renderHook(() => useCopy());
      await act(() => result.current.copy('x', 'text', { title: 'Copied!' }));
      expect(result.current.copied).toBe('x');
      act(() => vi.advanceTimersByTime(COPIED_FEEDBACK_MS - 1));
      expect(result.current.copied).toBe('x');
      act(() => vi.advanceTimersByTime(1));
      expect(result.current.copied).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the auto-refill card', () => {
  const QR = 'data:image/png;base64,iVBORw0KGgo=';
  const openRequest = {
    id: 'arf_1',
    status: 'open',
    packId: 'standard',
    amount: '10000.00',
    failureReason: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    request: {
      paymentReference: 'SXD-ABC123-XYZ98765',
      verificationCode: 'K7P2QX',
      amount: '10000.00',
      upiUri: 'upi://pay?pa=pay@bank&tn=SXD-ABC123-XYZ98765',
      qrCodeImageUrl: QR,
      upiId: 'pay@bank',
      merchantName: 'Sixdigit',
      expiresAt: '2026-12-02T10:00:00.000Z',
    },
  };

  it('without Razorpay: says it sends a bank/UPI request, shows the open one with its QR, and takes the UTR for it', async () => {
    const user = userEvent.setup();
    const profile = makeProfile({ autoRefill: { ...makeProfile().autoRefill, enabled: true, thresholdPaise: 50_000, packId: 'standard', lastRefill: openRequest } });
    const fetchMock = withBusiness(profile, {
      'POST /api/business/payment-requests': () => jsonResponse(201, { id: 'pmt_1' }),
    });
    renderApp('/business');
    const card = await screen.findByRole('region', { name: 'Auto-refill' });
    expect(card).toHaveTextContent('Sends you a bank/UPI top-up request');
    expect(card).toHaveTextContent('Nothing is charged automatically');
    const request = within(card).getByRole('region', { name: 'Top-up request to pay' });
    expect(request).toHaveTextContent('Pay ₹10,000 quoting SXD-ABC123-XYZ98765');
    expect(within(request).getByRole('img', { name: /UPI QR code: pay ₹10,000 to Sixdigit/ })).toHaveAttribute('src', QR);
    await user.type(within(request).getByLabelText('Bank transaction ID (UTR)'), '412345678901');
    await user.click(within(request).getByRole('button', { name: 'Submit payment for verification' }));
    await waitFor(() => expect(calls(fetchMock, 'POST', '/api/business/payment-requests')).toHaveLength(1));
    expect(JSON.parse(String(calls(fetchMock, 'POST', '/api/business/payment-requests')[0]![1]!.body))).toMatchObject({ paymentReference: 'SXD-ABC123-XYZ98765', utr: '412345678901', amount: '10000.00' });
    expect(screen.getByRole('button', { name: 'Auto-refill' })).toHaveAccessibleDescription('On · bank/UPI request below ₹500 → Standard pack');
  });

  it('with Razorpay: says why the server switched it off after a failed charge', async () => {
    const reason = 'Auto-refill could not charge ₹5,000 to your saved card: The token is not active.';
    withBusiness(
      makeProfile({
        autoRefill: {
          ...makeProfile().autoRefill,
          mode: 'razorpay',
          enabled: false,
          thresholdPaise: 50_000,
          packId: 'basic',
          offReason: reason,
          offAt: '2026-11-25T10:00:00.000Z',
          mandate: { method: 'card', status: 'active', label: 'Visa •••• 1111', maxAmount: '20000.00' },
          lastRefill: { ...openRequest, status: 'failed', packId: 'basic', amount: '5000.00', failureReason: reason, request: null },
        },
      }),
    );
    renderApp('/business');
    const card = await screen.findByRole('region', { name: 'Auto-refill' });
    expect(card).toHaveTextContent('Charges your saved card or UPI mandate');
    expect(within(card).getByRole('alert')).toHaveTextContent(`Auto-refill was switched off. ${reason}`);
    expect(card).toHaveTextContent('Visa •••• 1111');
    expect(card).toHaveTextContent(/Last refill₹5,000 · failed/);
    expect(screen.getByRole('button', { name: 'Auto-refill' })).toHaveAccessibleDescription('Off · the last charge failed');
  });

  it('with Razorpay: saves a card mandate through the recurring checkout (customer_id, recurring: 1), then confirms it', async () => {
    const user = userEvent.setup();
    const before = makeProfile({ autoRefill: { ...makeProfile().autoRefill, mode: 'razorpay' } });
    const after = makeProfile({
      autoRefill: { ...before.autoRefill, enabled: true, thresholdPaise: 100_000, packId: 'basic', mandate: { method: 'card', status: 'active', label: 'Visa •••• 1111', maxAmount: '20000.00' } },
    });
    const order = { orderId: 'order_Auth123', customerId: 'cust_Owner123', amount: 500_000, currency: 'INR', keyId: 'rzp_test_key', method: 'card', packId: 'basic', description: 'Basic pack' };
    const fetchMock = withBusiness(before, {
      'POST /api/business/auto-refill/mandate': () => jsonResponse(200, order),
      'POST /api/business/auto-refill/mandate/confirm': () => jsonResponse(200, after),
    });
    let options: { customer_id?: string; recurring?: string; order_id: string; handler: (r: unknown) => void } | undefined;
    vi.stubGlobal(
      'Razorpay',
      class {
        constructor(o: typeof options) {
          options = o;
        }
        on() {}
        open() {
          options!.handler({ razorpay_order_id: 'order_Auth123', razorpay_payment_id: 'pay_Auth123', razorpay_signature: 'a'.repeat(64) });
        }
      },
    );
    try {
      renderApp('/business');
      await user.click(await screen.findByRole('button', { name: 'Auto-refill', description: 'Off' }));
      const dialog = screen.getByRole('dialog', { name: 'Auto-refill settings' });
      expect(dialog).toHaveTextContent('we charge your saved card once for the chosen pack through Razorpay');
      const threshold = within(dialog).getByLabelText('Threshold (₹)');
      await user.clear(threshold);
      await user.type(threshold, '1000');
      await user.click(within(dialog).getByRole('button', { name: 'Save card and pay ₹5,000' }));
      await waitFor(() => expect(calls(fetchMock, 'POST', '/api/business/auto-refill/mandate/confirm')).toHaveLength(1));
      expect(JSON.parse(String(calls(fetchMock, 'POST', '/api/business/auto-refill/mandate')[0]![1]!.body))).toEqual({ method: 'card', packId: 'basic', thresholdRupees: 1000 });
      expect(options).toMatchObject({ order_id: 'order_Auth123', customer_id: 'cust_Owner123', recurring: '1' });
      expect(await within(toastRegion()).findByText('Auto-refill On')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Auto-refill' })).toHaveAccessibleDescription('On · charges your card below ₹1,000 → Basic pack');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
