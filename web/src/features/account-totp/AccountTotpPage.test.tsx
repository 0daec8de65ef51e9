import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateCode } from '@common/otpauth';
import { AppProviders, createAppQueryClient } from '@/app/providers';
import { AppRoutes } from '@/app/routes';
import { resetToasts } from '@/components/ui/use-toast';
import { recordServerDate, resetServerClock } from '@/lib/server-clock';
import { ada, jsonResponse, stubServer } from '@/test/render-app';
import { totpQueryKeys, type GeneratedCode, type TotpSetupResult, type TotpStatus } from './api';
import { backupCodesText } from './components/SetupReveal';

// Whole-app renders with several user-event steps; a loaded machine needs more than 5 s.
vi.setConfig({ testTimeout: 20_000 });

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const BACKUP_CODES = Array.from({ length: 10 }, (_, i) => `${1000 + i}-${2000 + i}`);

const notConfigured: TotpStatus = { configured: false, email: ada.email, configuredAt: null, backupCodesLeft: 0 };
const configured: TotpStatus = {
  configured: true,
  email: ada.email,
  configuredAt: '2026-01-01T00:00:00.000Z',
  backupCodesLeft: 7,
};

const setupResult: TotpSetupResult = {
  qrCode: 'data:image/png;base64,iVBORw0KGgo=',
  secret: SECRET,
  otpauthUri: `otpauth://totp/Sixdigit:${ada.email}?secret=${SECRET}&issuer=Sixdigit`,
  manualEntry: SECRET.replace(/(.{4})/g, '$1 ').trim(),
  backupCodes: BACKUP_CODES,
  algorithm: 'SHA1',
  digits: 6,
  period: 30,
};

function generated(code: string, timeRemaining: number): GeneratedCode {
  return {
    code,
    expiresAt: new Date(Date.now() + timeRemaining * 1000).toISOString(),
    timeRemaining,
    period: 30,
  };
}

type Route = (init?: RequestInit) => Response;

/** A fake server for /totp: status, setup and the current code. */
function serve(routes: Record<string, Route>) {
  return stubServer(ada, (url, init) => routes[`${init?.method ?? 'GET'} ${url}`]?.(init));
}

function calls(fetchMock: ReturnType<typeof serve>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([url, init]) => String(url) === path && (init?.method ?? 'GET') === method);
}

function renderTotp({ retryCode = true } = {}) {
  const client = createAppQueryClient();
  if (!retryCode) client.setQueryDefaults(totpQueryKeys.code, { retry: false });
  return render(
    <AppProviders client={client}>
      <MemoryRouter initialEntries={['/totp']}>
        <AppRoutes variant="main" />
      </MemoryRouter>
    </AppProviders>,
  );
}

const toastRegion = () => screen.getByRole('region', { name: /Notifications/ });
const badge = () => screen.getByTestId('time-remaining');
const shownCode = () => screen.getByTestId('current-code').textContent?.replace(/\s/g, '');

beforeEach(() => resetToasts());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  resetServerClock();
});

describe('/totp, not configured', () => {
  it('sets up: QR code, secret, the 10 backup codes, and a code computed on the page', async () => {
    const user = userEvent.setup();
    let status = notConfigured;
    const fetchMock = serve({
      'GET /api/user/totp-status': () => jsonResponse(200, status),
      'POST /api/user/setup-totp': () => {
        status = configured;
        return jsonResponse(201, setupResult);
      },
    });
    renderTotp();

    expect(await screen.findByRole('heading', { level: 1, name: 'Account TOTP' })).toBeInTheDocument();
    expect(await screen.findByText('TOTP is not set up yet')).toBeInTheDocument();
    expect(screen.queryByTestId('code-card')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Setup TOTP' }));

    expect(await within(toastRegion()).findByText('TOTP Setup Complete')).toBeInTheDocument();
    const reveal = screen.getByTestId('totp-setup-reveal');
    expect(within(reveal).getByRole('img', { name: /QR code for your Sixdigit account TOTP/ })).toHaveAttribute(
      'src',
      setupResult.qrCode,
    );
    expect(within(reveal).getByText(setupResult.manualEntry)).toBeInTheDocument();
    const codes = within(reveal).getAllByRole('listitem').map((li) => li.textContent);
    expect(codes).toEqual(BACKUP_CODES);
    expect(calls(fetchMock, 'POST', '/api/user/setup-totp')).toHaveLength(1);
    // SPEC §4: the status is fetched again after setup.
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/user/totp-status').length).toBeGreaterThanOrEqual(2));
    expect(screen.getByTestId('totp-info')).toHaveTextContent(`TOTP is set up for ${ada.email}`);

    // The code is computed here from the secret: equal to RFC 6238 now, and no server call for it.
    const expected = [Date.now(), Date.now() + 1000].map((t) =>
      generateCode({ type: 'totp', secret: SECRET, algorithm: 'SHA1', digits: 6, period: 30, counter: null }, t),
    );
    expect(expected).toContain(shownCode());
    expect(calls(fetchMock, 'GET', '/api/user/generate-totp')).toHaveLength(0);

    // Copying the secret and the codes.
    await user.click(within(reveal).getByRole('button', { name: 'Copy backup codes' }));
    expect(await navigator.clipboard.readText()).toBe(BACKUP_CODES.join('\n'));
    await user.click(within(reveal).getByRole('button', { name: 'Copy secret key' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);

    // Shown once: hiding forgets them.
    await user.click(within(reveal).getByRole('button', { name: /I've saved my backup codes/ }));
    expect(screen.queryByTestId('totp-setup-reveal')).not.toBeInTheDocument();
    expect(screen.queryByText(BACKUP_CODES[0]!)).not.toBeInTheDocument();
    expect(screen.getByTestId('code-card')).toBeInTheDocument();
  });

  it('says "Setup Failed" when setup fails, and stays ready to try again', async () => {
    const user = userEvent.setup();
    serve({
      'GET /api/user/totp-status': () => jsonResponse(200, notConfigured),
      'POST /api/user/setup-totp': () =>
        jsonResponse(500, { error: { code: 'internal', message: 'boom', request_id: 'req_1' } }),
    });
    renderTotp();
    await user.click(await screen.findByRole('button', { name: 'Setup TOTP' }));
    const toast = within(toastRegion());
    expect(await toast.findByText('Setup Failed')).toBeInTheDocument();
    expect(toast.getByText('Failed to setup TOTP. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Setup TOTP' })).toBeEnabled();
    expect(screen.queryByTestId('totp-setup-reveal')).not.toBeInTheDocument();
  });
});

describe('/totp, configured', () => {
  it('shows the email, the server code, Copy Code, Refresh and the three feature cards', async () => {
    const user = userEvent.setup();
    let next = '123456';
    const fetchMock = serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'GET /api/user/generate-totp': () => jsonResponse(200, generated(next, 20)),
    });
    renderTotp();

    expect(await screen.findByTestId('totp-info')).toHaveTextContent(`TOTP is set up for ${ada.email}. 7 of 10 backup codes left.`);
    await waitFor(() => expect(shownCode()).toBe('123456'));
    expect(screen.getByTestId('current-code')).toHaveAccessibleName('Current code 1 2 3 4 5 6');
    expect(badge()).toHaveTextContent('20s remaining');
    expect(badge()).toHaveAttribute('data-urgent', 'false');
    expect(screen.getByRole('progressbar', { name: 'Time until the next code' })).toBeInTheDocument();
    expect(screen.getByText('Codes refresh every 30 seconds.')).toBeInTheDocument();
    const features = within(screen.getByRole('list', { name: 'About account TOTP' })).getAllByRole('listitem');
    expect(features).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Copy Code' }));
    expect(await within(toastRegion()).findByText('Code Copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('123456');

    next = '654321';
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(shownCode()).toBe('654321'));
    expect(calls(fetchMock, 'GET', '/api/user/generate-totp')).toHaveLength(2);
  });

  it('turns the badge destructive at 5 seconds or less, and says so in words', async () => {
    serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'GET /api/user/generate-totp': () => jsonResponse(200, generated('111222', 5)),
    });
    renderTotp();
    await waitFor(() => expect(shownCode()).toBe('111222'));
    expect(badge()).toHaveAttribute('data-urgent', 'true');
    expect(badge()).toHaveTextContent(/Expiring soon: [45]s left/);
    expect(badge().className).toContain('bg-destructive');
  });

  it('is not destructive at 6 seconds', async () => {
    serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'GET /api/user/generate-totp': () => jsonResponse(200, generated('111222', 7)),
    });
    renderTotp();
    await waitFor(() => expect(shownCode()).toBe('111222'));
    // 7 s at the answer; a slow machine may already have ticked once.
    expect(badge()).toHaveTextContent(/^[67]s remaining$/);
    expect(badge()).toHaveAttribute('data-urgent', 'false');
    expect(badge().className).not.toContain('bg-destructive');
  });

  it('counts down a locally computed code to the destructive badge at ≤5 s', async () => {
    const user = userEvent.setup();
    // 26 s into a 30 s period: 4 s left.
    const t = Date.UTC(2026, 0, 15, 12, 0, 26);
    vi.useFakeTimers({ now: t, toFake: ['Date'] });
    serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'POST /api/user/setup-totp': () => jsonResponse(201, setupResult),
    });
    renderTotp();
    await user.click(await screen.findByRole('button', { name: 'Reset TOTP' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset your account TOTP?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset TOTP' }));
    await screen.findByTestId('totp-setup-reveal');
    expect(shownCode()).toBe(
      generateCode({ type: 'totp', secret: SECRET, algorithm: 'SHA1', digits: 6, period: 30, counter: null }, t),
    );
    expect(badge()).toHaveTextContent('Expiring soon: 4s left');
    expect(badge()).toHaveAttribute('data-urgent', 'true');
  });

  it('resets after confirming, sending reset: true', async () => {
    const user = userEvent.setup();
    const fetchMock = serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'GET /api/user/generate-totp': () => jsonResponse(200, generated('123456', 20)),
      'POST /api/user/setup-totp': () => jsonResponse(201, setupResult),
    });
    renderTotp();
    await user.click(await screen.findByRole('button', { name: 'Reset TOTP' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls(fetchMock, 'POST', '/api/user/setup-totp')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Reset TOTP' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reset TOTP' }));
    await screen.findByTestId('totp-setup-reveal');
    const [, init] = calls(fetchMock, 'POST', '/api/user/setup-totp')[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ reset: true });
    expect(await within(toastRegion()).findByText('TOTP Setup Complete')).toBeInTheDocument();
  });

  it('says "Failed to generate TOTP code" with Try Again', async () => {
    const user = userEvent.setup();
    let fail = true;
    serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'GET /api/user/generate-totp': () =>
        fail
          ? jsonResponse(500, { error: { code: 'internal', message: 'boom', request_id: 'req_1' } })
          : jsonResponse(200, generated('987654', 20)),
    });
    renderTotp({ retryCode: false });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to generate TOTP code')).toBeInTheDocument();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(shownCode()).toBe('987654'));
  });

  it('says when the device clock is corrected', async () => {
    const now = Date.now();
    recordServerDate(new Date(now + 60_000).toUTCString(), now - 50, now + 50);
    serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'GET /api/user/generate-totp': () => jsonResponse(200, generated('123456', 20)),
    });
    renderTotp();
    expect(await screen.findByText(/Your device clock is (59|60|61) s behind Sixdigit's/)).toBeInTheDocument();
  });
});

describe('/totp while loading', () => {
  it('shows a skeleton until the status arrives', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input) === '/api/auth/user' ? jsonResponse(200, ada) : new Promise<Response>(() => {}),
      ),
    );
    renderTotp();
    return waitFor(() => expect(screen.getByRole('status', { name: 'Loading your TOTP status' })).toBeInTheDocument());
  });
});

it('backup codes file lists the account and every code', () => {
  const text = backupCodesText(BACKUP_CODES, ada.email);
  expect(text).toContain(ada.email);
  for (const code of BACKUP_CODES) expect(text).toContain(`\n${code}\n`);
});
