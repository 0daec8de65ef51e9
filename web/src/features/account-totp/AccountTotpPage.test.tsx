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
import type { CurrentUser } from '@/features/auth/api';
import { totpQueryKeys, type GeneratedCode, type TotpSetupResult, type TotpStatus, type UserSession } from './api';
import { backupCodesText } from './components/SetupReveal';

// Whole-app renders with several user-event steps; a loaded machine needs more than 5 s.
vi.setConfig({ testTimeout: 20_000 });

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const BACKUP_CODES = Array.from({ length: 10 }, (_, i) => `${1000 + i}-${2000 + i}`);

const base = { email: ada.email, protectedSince: null, lastUsedAt: null };
const notConfigured: TotpStatus = { ...base, configured: false, pending: false, backupCodesLeft: 0 };
const pending: TotpStatus = { ...base, configured: false, pending: true, backupCodesLeft: 10 };
const configured: TotpStatus = { ...base, configured: true, pending: false, protectedSince: '2026-01-01T10:00:00.000Z', lastUsedAt: '2026-02-03T09:30:00.000Z', backupCodesLeft: 7 };

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

const devices: UserSession[] = [
  { id: 'ses_here', browser: 'Chrome 131', os: 'Linux', ipAddress: '10.0.0.1', signedInAt: '2026-02-01T08:00:00.000Z', lastSeenAt: '2026-02-03T09:30:00.000Z', current: true, secondFactorPending: false },
  { id: 'ses_phone', browser: 'Safari 18', os: 'iOS 18', ipAddress: '10.0.0.2', signedInAt: '2026-01-20T08:00:00.000Z', lastSeenAt: '2026-02-02T19:00:00.000Z', current: false, secondFactorPending: false },
  { id: 'ses_odd', browser: 'Firefox 133', os: 'Windows', ipAddress: '', signedInAt: '2026-02-03T08:00:00.000Z', lastSeenAt: '2026-02-03T08:00:00.000Z', current: false, secondFactorPending: true },
];

function generated(code: string, timeRemaining: number): GeneratedCode {
  return { code, expiresAt: new Date(Date.now() + timeRemaining * 1000).toISOString(), timeRemaining, period: 30 };
}
const error = (status: number, code: string, message = code) => jsonResponse(status, { error: { code, message, request_id: 'req_1' } });

type Route = (init?: RequestInit) => Response;

/** A fake server for the security page: status, setup, proofs, devices. */
function serve(routes: Record<string, Route>, who: CurrentUser = ada) {
  return stubServer(who, (url, init) => {
    const route = routes[`${init?.method ?? 'GET'} ${url}`];
    if (route) return route(init);
    if (url === '/api/user/sessions') return jsonResponse(200, { sessions: devices });
    return undefined;
  });
}

function calls(fetchMock: ReturnType<typeof serve>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([url, init]) => String(url) === path && (init?.method ?? 'GET') === method);
}
const bodies = (fetchMock: ReturnType<typeof serve>, method: string, path: string) => calls(fetchMock, method, path).map(([, init]) => JSON.parse(String(init?.body)));

function renderTotp({ retry = true } = {}) {
  const client = createAppQueryClient();
  if (!retry) client.setQueryDefaults(totpQueryKeys.code, { retry: false });
  return render(
    <AppProviders client={client}>
      <MemoryRouter initialEntries={['/totp']}>
        <AppRoutes variant="main" />
      </MemoryRouter>
    </AppProviders>,
  );
}

const toastRegion = () => screen.getByRole('region', { name: /Notifications/ });
const shownCode = () => screen.getByTestId('current-code').textContent?.replace(/\s/g, '');
const codeNow = (t = Date.now()) => generateCode({ type: 'totp', secret: SECRET, algorithm: 'SHA1', digits: 6, period: 30, counter: null }, t);

beforeEach(() => resetToasts());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  resetServerClock();
});

describe('/totp: not configured → setup pending → configured', () => {
  it('walks scan → confirm → save backup codes; only the confirmed TOTP is "protected"', async () => {
    const user = userEvent.setup();
    let status = notConfigured;
    const fetchMock = serve({
      'GET /api/user/totp-status': () => jsonResponse(200, status),
      'POST /api/user/setup-totp': () => {
        status = pending;
        return jsonResponse(201, setupResult);
      },
      'POST /api/user/confirm-totp': (init) => {
        if (JSON.parse(String(init?.body)).code !== '654321') return error(400, 'invalid_code');
        status = configured;
        return jsonResponse(200, { status, otherSessionsSignedOut: 2 });
      },
    });
    renderTotp();

    expect(await screen.findByRole('heading', { level: 1, name: 'Account TOTP' })).toBeInTheDocument();
    expect(await screen.findByText('TOTP is not set up yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Setup TOTP' }));

    // Step 1: the QR code and the key; the code computed here to compare with the phone.
    const pendingCard = await screen.findByTestId('totp-pending');
    const reveal = within(pendingCard).getByTestId('totp-setup-reveal');
    expect(within(reveal).getByRole('img', { name: /QR code for your Sixdigit account TOTP/ })).toHaveAttribute('src', setupResult.qrCode);
    expect(within(reveal).getByText(setupResult.manualEntry)).toBeInTheDocument();
    expect([codeNow(), codeNow(Date.now() + 1000)]).toContain(shownCode());
    expect(calls(fetchMock, 'GET', '/api/user/generate-totp')).toHaveLength(0);
    // The backup codes are not shown until the TOTP is confirmed.
    expect(screen.queryByText(BACKUP_CODES[0]!)).not.toBeInTheDocument();

    // Step 2: a wrong code is refused and explained; the right one confirms.
    const box = within(pendingCard).getByLabelText('Code from your authenticator app');
    await user.type(box, '111111');
    await user.click(within(pendingCard).getByRole('button', { name: 'Confirm' }));
    expect(await within(pendingCard).findByRole('alert')).toHaveTextContent('That code is not right');
    await user.type(box, '654321{Enter}');
    expect(await within(toastRegion()).findByText('TOTP Setup Complete')).toBeInTheDocument();
    expect(within(toastRegion()).getByText(/2 other sessions were signed out/)).toBeInTheDocument();

    // Step 3: the backup codes, to download, copy or print; then the protected view.
    const save = await screen.findByTestId('totp-save-codes');
    expect(within(save).getAllByRole('listitem').map((li) => li.textContent)).toEqual(BACKUP_CODES);
    expect(within(save).getByRole('button', { name: /Download .txt/ })).toBeInTheDocument();
    expect(within(save).getByRole('button', { name: 'Print' })).toBeInTheDocument();
    await user.click(within(save).getByRole('button', { name: 'Copy backup codes' }));
    expect(await navigator.clipboard.readText()).toBe(BACKUP_CODES.join('\n'));
    await user.click(within(save).getByRole('button', { name: /I've saved my backup codes/ }));
    expect(await screen.findByTestId('totp-configured')).toBeInTheDocument();
    expect(screen.queryByText(BACKUP_CODES[0]!)).not.toBeInTheDocument();
    expect(screen.queryByTestId('code-card')).not.toBeInTheDocument();
  });

  it('pending from an earlier visit: no QR code to show again, "Start again", and the server’s code to compare', async () => {
    const user = userEvent.setup();
    const fetchMock = serve({
      'GET /api/user/totp-status': () => jsonResponse(200, pending),
      'GET /api/user/generate-totp': () => jsonResponse(200, generated('123456', 20)),
      'POST /api/user/disable-totp': () => jsonResponse(200, { status: notConfigured, otherSessionsSignedOut: 0 }),
    });
    renderTotp();
    const card = await screen.findByTestId('totp-pending');
    expect(within(card).getByRole('button', { name: 'Start again' })).toBeInTheDocument();
    await waitFor(() => expect(shownCode()).toBe('123456'));
    await user.click(within(card).getByRole('button', { name: 'Cancel setup' }));
    await waitFor(() => expect(bodies(fetchMock, 'POST', '/api/user/disable-totp')).toEqual([{}]));
  });

  it('says "Setup Failed" when setup fails, and stays ready to try again', async () => {
    const user = userEvent.setup();
    serve({
      'GET /api/user/totp-status': () => jsonResponse(200, notConfigured),
      'POST /api/user/setup-totp': () => error(500, 'internal', 'boom'),
    });
    renderTotp();
    await user.click(await screen.findByRole('button', { name: 'Setup TOTP' }));
    expect(await within(toastRegion()).findByText('Setup Failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Setup TOTP' })).toBeEnabled();
  });

  it('counts a locally computed code down to the destructive badge at ≤5 s', async () => {
    const user = userEvent.setup();
    const t = Date.UTC(2026, 0, 15, 12, 0, 26); // 4 s left in the period
    vi.useFakeTimers({ now: t, toFake: ['Date'] });
    serve({
      'GET /api/user/totp-status': () => jsonResponse(200, notConfigured),
      'POST /api/user/setup-totp': () => jsonResponse(201, setupResult),
    });
    renderTotp();
    await user.click(await screen.findByRole('button', { name: 'Setup TOTP' }));
    await screen.findByTestId('totp-setup-reveal');
    expect(shownCode()).toBe(codeNow(t));
    expect(screen.getByTestId('time-remaining')).toHaveTextContent('Expiring soon: 4s left');
  });

  it('says when the device clock is corrected', async () => {
    const now = Date.now();
    recordServerDate(new Date(now + 60_000).toUTCString(), now - 50, now + 50);
    serve({
      'GET /api/user/totp-status': () => jsonResponse(200, pending),
      'GET /api/user/generate-totp': () => jsonResponse(200, generated('123456', 20)),
    });
    renderTotp();
    expect(await screen.findByText(/Your device clock is (59|60|61) s behind Sixdigit's/)).toBeInTheDocument();
  });
});

describe('/totp once the TOTP protects sign-in', () => {
  it('shows no live code: protected since, last used, backup codes left, and the three feature cards', async () => {
    const fetchMock = serve({ 'GET /api/user/totp-status': () => jsonResponse(200, configured) });
    renderTotp();
    const card = await screen.findByTestId('totp-configured');
    expect(card).toHaveTextContent('Your sign-in is protected');
    expect(card).toHaveTextContent(/Protected since\s*1 Jan 2026/);
    expect(card).toHaveTextContent(/Last used to sign in\s*3 Feb 2026/);
    expect(within(card).getByTestId('backup-codes-left')).toHaveTextContent('7 of 10');
    expect(within(card).queryByRole('status')).not.toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'About account TOTP' })).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByTestId('code-card')).not.toBeInTheDocument();
    expect(calls(fetchMock, 'GET', '/api/user/generate-totp')).toHaveLength(0);
  });

  it('warns when 3 or fewer backup codes are left', async () => {
    serve({ 'GET /api/user/totp-status': () => jsonResponse(200, { ...configured, backupCodesLeft: 3 }) });
    renderTotp();
    expect(await screen.findByText(/Only 3 backup codes left\. Make new ones/)).toBeInTheDocument();
  });

  it('"check my authenticator" says whether the code matches', async () => {
    const user = userEvent.setup();
    const fetchMock = serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'POST /api/user/check-totp': (init) => jsonResponse(200, { matches: JSON.parse(String(init?.body)).code === '246810' }),
    });
    renderTotp();
    const box = await screen.findByLabelText('Check my authenticator');
    await user.type(box, '246810');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText(/It matches/)).toBeInTheDocument();
    await user.clear(box);
    await user.type(box, '999999{Enter}');
    expect(await screen.findByText(/It does not match/)).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/user/check-totp')).toEqual([{ code: '246810' }, { code: '999999' }]);
  });

  it('new backup codes need a code from the app; they are shown once', async () => {
    const user = userEvent.setup();
    const fresh = Array.from({ length: 10 }, (_, i) => `new${i}-code`);
    const fetchMock = serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'POST /api/user/totp-backup-codes': (init) =>
        JSON.parse(String(init?.body)).code === '135790' ? jsonResponse(200, { backupCodes: fresh, otherSessionsSignedOut: 1 }) : error(400, 'invalid_code'),
    });
    renderTotp();
    await user.click(await screen.findByRole('button', { name: 'New backup codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make new backup codes?' });
    const make = within(dialog).getByRole('button', { name: 'Make new codes' });
    expect(make).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Code from your authenticator app'), '000000');
    await user.click(make);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That code is not right');
    await user.clear(within(dialog).getByLabelText('Code from your authenticator app'));
    await user.type(within(dialog).getByLabelText('Code from your authenticator app'), '135790{Enter}');
    const panel = await screen.findByRole('region', { name: 'Your new backup codes' });
    expect(within(panel).getAllByRole('listitem').map((li) => li.textContent)).toEqual(fresh);
    expect(await within(toastRegion()).findByText(/1 other session was signed out/)).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/user/totp-backup-codes')).toEqual([{ code: '000000' }, { code: '135790' }]);
  });

  it('turns off with a backup code', async () => {
    const user = userEvent.setup();
    let status = configured;
    const fetchMock = serve({
      'GET /api/user/totp-status': () => jsonResponse(200, status),
      'POST /api/user/disable-totp': () => {
        status = notConfigured;
        return jsonResponse(200, { status, otherSessionsSignedOut: 0 });
      },
    });
    renderTotp();
    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off the second step?' });
    await user.click(within(dialog).getByRole('button', { name: 'Use a backup code instead' }));
    await user.type(within(dialog).getByLabelText('Backup code'), 'abcd-efgh');
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await within(toastRegion()).findByText('Account TOTP turned off')).toBeInTheDocument();
    expect(await screen.findByText('TOTP is not set up yet')).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/user/disable-totp')).toEqual([{ backupCode: 'abcd-efgh' }]);
  });
});

describe('/totp: signed-in devices', () => {
  it('lists the sessions with this device marked; signs out one, or all others', async () => {
    const user = userEvent.setup();
    const fetchMock = serve({
      'GET /api/user/totp-status': () => jsonResponse(200, configured),
      'DELETE /api/user/sessions/ses_phone': () => new Response(null, { status: 204 }),
      'POST /api/user/sessions/revoke-others': () => jsonResponse(200, { signedOut: 1 }),
    });
    renderTotp();
    const card = await screen.findByTestId('devices-card');
    const rows = await within(card).findAllByTestId('device');
    expect(rows.map((r) => r.querySelector('p')?.textContent)).toEqual(['Chrome 131 on LinuxThis device', 'Safari 18 on iOS 18', 'Firefox 133 on WindowsWaiting for the second step']);
    expect(rows[0]).toHaveTextContent('10.0.0.1');
    expect(rows[2]).toHaveTextContent('Address unknown');
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Sign out Safari 18 on iOS 18' }));
    expect(await within(toastRegion()).findByText('Safari 18 on iOS 18 is signed out.')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Sign out all other devices' }));
    await waitFor(() => expect(calls(fetchMock, 'POST', '/api/user/sessions/revoke-others')).toHaveLength(1));
    expect(calls(fetchMock, 'DELETE', '/api/user/sessions/ses_phone')).toHaveLength(1);
  });

  it('shows nothing of the second factor or devices to an administrator acting as the person', async () => {
    const fetchMock = serve({}, {
      ...ada,
      impersonation: { id: 'imp_1', adminEmail: 'admin@example.com', userId: ada.id, userEmail: ada.email, reason: 'support', startedAt: '2026-02-03T09:00:00.000Z', expiresAt: '2026-02-03T09:30:00.000Z' },
    });
    renderTotp();
    expect(await screen.findByText('Not available while acting as this user')).toBeInTheDocument();
    expect(calls(fetchMock, 'GET', '/api/user/totp-status')).toHaveLength(0);
    expect(calls(fetchMock, 'GET', '/api/user/sessions')).toHaveLength(0);
  });
});

describe('/totp while loading', () => {
  it('shows a skeleton until the status arrives', () => {
    vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => (String(input) === '/api/auth/user' ? jsonResponse(200, ada) : new Promise<Response>(() => {}))));
    renderTotp();
    return waitFor(() => expect(screen.getByRole('status', { name: 'Loading your TOTP status' })).toBeInTheDocument());
  });
});

it('backup codes file lists the account and every code', () => {
  const text = backupCodesText(BACKUP_CODES, ada.email);
  expect(text).toContain(ada.email);
  for (const code of BACKUP_CODES) expect(text).toContain(`\n${code}\n`);
});
