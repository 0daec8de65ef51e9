import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HOTP, Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QR_NOT_FOUND_MESSAGE, toMigrationUris, toUriList } from '@common/otpauth';
import { resetToasts } from '@/components/ui/use-toast';
import { useClockSkew } from '@/lib/server-clock';
import { hardNavigate } from '@/lib/navigation';
import { ada, jsonResponse, renderApp, setSessionHint, unauthorizedResponse } from '@/test/render-app';
import type { AuthenticatorAccount } from './api';
import { QrScanError } from './qr-pixels';
import { loadVaultSnapshot, saveVaultSnapshot } from './offline-store';
import { dropVaultSession, vaultSession } from './vault/session';
import { fakeVault, type FakeVault } from '@/test/fake-vault';

// Whole-app renders with several user-event steps; a loaded machine needs more than 5 s.
vi.setConfig({ testTimeout: 20_000 });

/** A stand-in for qr-scanner: records what the page asked of it and lets a test "show" a code. */
const camera = vi.hoisted(() => {
  interface Fake {
    options: Record<string, unknown>;
    started: boolean;
    destroyed: boolean;
    decode: (data: string) => void;
  }
  return { instances: [] as Fake[], startError: null as unknown };
});

vi.mock('qr-scanner', () => ({
  default: class FakeQrScanner {
    options: Record<string, unknown>;
    started = false;
    destroyed = false;
    private readonly onDecode: (result: { data: string; cornerPoints: [] }) => void;
    constructor(_video: HTMLVideoElement, onDecode: (result: { data: string; cornerPoints: [] }) => void, options: Record<string, unknown>) {
      this.onDecode = onDecode;
      this.options = options;
      camera.instances.push(this);
    }
    start() {
      this.started = true;
      return camera.startError ? Promise.reject(camera.startError) : Promise.resolve();
    }
    stop() {}
    pause() {
      return Promise.resolve(true);
    }
    destroy() {
      this.destroyed = true;
    }
    decode(data: string) {
      this.onDecode({ data, cornerPoints: [] });
    }
  },
}));

/** The pixel reader (zxing-wasm on a canvas, which jsdom has not): tests say what the image holds. */
const qrPixels = vi.hoisted(() => ({ read: null as null | ((file: Blob) => Promise<string[]>) }));
vi.mock('./qr-pixels', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./qr-pixels')>()),
  readQrTexts: vi.fn((file: Blob) => qrPixels.read!(file)),
}));

vi.mock('qrcode', () => ({ default: { toDataURL: vi.fn(async () => 'data:image/png;base64,AAAA') } }));

vi.mock('./offline-store', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./offline-store')>()),
  saveVaultSnapshot: vi.fn(async () => undefined),
  loadVaultSnapshot: vi.fn(async () => null),
}));

vi.mock('@/lib/server-clock', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/server-clock')>()),
  useClockSkew: vi.fn(() => ({ offsetMs: 0, corrected: false })),
}));

vi.mock('@/lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/navigation')>()),
  hardNavigate: vi.fn(),
}));

const SECRET = 'JBSWY3DPEHPK3PXP';

function account(overrides: Partial<AuthenticatorAccount> = {}): AuthenticatorAccount {
  return {
    id: 'tac_1',
    type: 'totp',
    issuer: 'GitHub',
    accountName: 'ada@example.com',
    secret: SECRET,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    counter: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const GITHUB = account();
const GOOGLE = account({ id: 'tac_2', issuer: 'Google', accountName: 'lovelace@gmail.com', secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' });
const AWS = account({ id: 'tac_3', issuer: 'AWS', accountName: 'root', secret: 'KRUGKIDROVUWG2ZAMJZG653OEBTG66BAKJ2W24A', algorithm: 'SHA256', digits: 8 });

type Handler = (init: RequestInit | undefined, url: URL) => Response | Promise<Response>;

/** A fake server: the signed-in user, `routes` ("METHOD /path" → answer), else a 404 envelope. */
function serve(routes: Record<string, Handler>) {
  setSessionHint(true);
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(raw, 'http://localhost');
    if (url.pathname === '/api/auth/user') return jsonResponse(200, ada);
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const handler = routes[key] ?? Object.entries(routes).find(([route]) => route.endsWith('/*') && key.startsWith(route.slice(0, -1)))?.[1];
    if (handler) return handler(init, url);
    return jsonResponse(404, { error: { code: 'not_found', message: `No route for ${url.pathname}`, request_id: 'req_test' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

let vault: FakeVault;

/** A fake server whose vault holds `accounts`, unlocked on this page (as after typing the passphrase). */
async function withAccounts(accounts: AuthenticatorAccount[], extra: Record<string, Handler> = {}) {
  vault = await fakeVault(accounts);
  const fetchMock = serve({ ...vault.routes, ...extra });
  await vaultSession(ada.id).load();
  await vaultSession(ada.id).unlockWithRecoveryKey(vault.recoveryKey);
  return fetchMock;
}

/** The vault writes (PUT of an entry) the page sent, decrypted. */
async function sentAccounts(fetchMock: ReturnType<typeof serve>) {
  const puts = fetchMock.mock.calls.filter(([url, init]) => String(url).startsWith('/api/user/vault/entries/') && init?.method === 'PUT');
  return Promise.all(puts.map(([url, init]) => vault.decryptPut(init, new URL(String(url), 'http://localhost'))));
}

function calls(fetchMock: ReturnType<typeof serve>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method);
}

/** The toast viewport (hidden from the accessibility tree while a modal dialog is open). */
function toastRegion() {
  return screen.getByRole('region', { name: /Notifications/, hidden: true });
}

function cardFor(name: string) {
  return screen.getByRole('article', { name });
}

function displayedCode(card: HTMLElement) {
  return within(card).getByTestId('code').textContent;
}

function totp(secret: string, timestamp: number, options: { algorithm?: string; digits?: number } = {}) {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: options.algorithm ?? 'SHA1', digits: options.digits ?? 6, period: 30, timestamp });
}

async function openAddDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Add Account' }));
  return screen.findByRole('dialog', { name: 'Add Account' });
}

beforeEach(() => {
  resetToasts();
  camera.instances.length = 0;
  camera.startError = null;
  vi.mocked(saveVaultSnapshot).mockClear();
  vi.mocked(loadVaultSnapshot).mockReset().mockResolvedValue(null);
  dropVaultSession();
  vi.mocked(useClockSkew).mockReturnValue({ offsetMs: 0, corrected: false });
  vi.mocked(hardNavigate).mockClear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('loading, empty and error states', () => {
  it('shows a skeleton of three cards while loading, then the empty state', async () => {
    let answer: (response: Response) => void = () => {};
    const empty = await fakeVault([]);
    serve({ 'GET /api/user/vault': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderApp('/');
    expect(await screen.findByRole('status', { name: 'Loading accounts' })).toBeInTheDocument();
    expect(screen.getAllByTestId('account-skeleton')).toHaveLength(3);
    act(() => answer(jsonResponse(200, { header: empty.header, revision: 0, entries: [], legacyAccounts: 0 })));
    // A vault arrives locked; the recovery key opens it.
    expect(await screen.findByText('Your vault is locked')).toBeInTheDocument();
    await act(() => vaultSession(ada.id).unlockWithRecoveryKey(empty.recoveryKey));
    expect(await screen.findByRole('heading', { name: 'No TOTP Accounts' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading accounts' })).not.toBeInTheDocument();
  });

  it('opens Add Account from "Add Your First Account", on the Manual tab', async () => {
    const user = userEvent.setup();
    await withAccounts([]);
    renderApp('/multi-totp');
    await user.click(await screen.findByRole('button', { name: 'Add Your First Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Account' });
    expect(within(dialog).getByRole('tab', { name: 'Manual' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByRole('tab', { name: 'Camera' })).toHaveAttribute('aria-selected', 'false');
  });

  it('says "Session Expired" on a 401 and sends the person to sign in after 1 s', async () => {
    serve({ 'GET /api/user/vault': () => unauthorizedResponse() });
    renderApp('/');
    expect(await within(toastRegion()).findByText('Session Expired')).toBeInTheDocument();
    expect(within(toastRegion()).getByText('Please log in again to continue.')).toBeInTheDocument();
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/api/login?returnTo=%2F'), { timeout: 3000 });
  });
});

describe('manual entry', () => {
  it('keeps Add disabled until name and secret are filled, and sends the normalised secret', async () => {
    const user = userEvent.setup();
    const fetchMock = await withAccounts([]);
    renderApp('/');
    const dialog = await openAddDialog(user);
    const add = within(dialog).getByRole('button', { name: 'Add Account' });
    expect(add).toBeDisabled();

    await user.type(within(dialog).getByLabelText(/Account name/), 'ada@example.com');
    expect(add).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/Secret key/), '   ');
    expect(add).toBeDisabled();
    await user.clear(within(dialog).getByLabelText(/Secret key/));
    await user.type(within(dialog).getByLabelText(/Secret key/), 'jbsw y3dp ehpk 3pxp');
    await user.type(within(dialog).getByLabelText(/Issuer/), 'GitHub');
    expect(add).toBeEnabled();
    await user.click(add);

    await waitFor(async () => expect(await sentAccounts(fetchMock)).toHaveLength(1));
    // Encrypted as the shared rules normalise it (upper case, no spaces); nothing readable was sent.
    expect((await sentAccounts(fetchMock))[0]).toMatchObject({
      accountName: 'ada@example.com',
      issuer: 'GitHub',
      secret: 'JBSWY3DPEHPK3PXP',
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      type: 'totp',
      counter: null,
    });
    for (const [, init] of fetchMock.mock.calls) expect(String(init?.body ?? '')).not.toContain('JBSWY3DPEHPK3PXP');
    expect(await within(toastRegion()).findByText('Account Added')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Account' })).not.toBeInTheDocument());
    expect(await screen.findByRole('article', { name: 'ada@example.com' })).toBeInTheDocument();
    // The encrypted vault is kept on this device, without the secret in it.
    await waitFor(() => expect(saveVaultSnapshot).toHaveBeenCalled());
    expect(JSON.stringify(vi.mocked(saveVaultSnapshot).mock.calls.at(-1))).not.toContain('JBSWY3DPEHPK3PXP');
  });

  it('checks the secret with the shared rules before sending', async () => {
    const user = userEvent.setup();
    const fetchMock = await withAccounts([]);
    renderApp('/');
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText(/Account name/), 'ada');
    await user.type(within(dialog).getByLabelText(/Secret key/), 'not base32!');
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    expect(within(dialog).getByText('The secret is not valid base32 (letters A–Z and digits 2–7).')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Secret key/)).toHaveAttribute('aria-invalid', 'true');
    expect(await sentAccounts(fetchMock)).toHaveLength(0);
  });

  it('offers algorithm, digits, period and HOTP counter under Advanced', async () => {
    const user = userEvent.setup();
    const fetchMock = await withAccounts([]);
    renderApp('/');
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText(/Account name/), 'ada');
    await user.type(within(dialog).getByLabelText(/Secret key/), SECRET);
    await user.click(within(dialog).getByRole('button', { name: /Advanced/ }));
    await user.selectOptions(within(dialog).getByLabelText('Algorithm'), 'SHA512');
    await user.selectOptions(within(dialog).getByLabelText('Digits'), '8');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'hotp');
    await user.clear(within(dialog).getByLabelText('Counter'));
    await user.type(within(dialog).getByLabelText('Counter'), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    await waitFor(async () => expect(await sentAccounts(fetchMock)).toHaveLength(1));
    expect((await sentAccounts(fetchMock))[0]).toMatchObject({
      algorithm: 'SHA512',
      digits: 8,
      type: 'hotp',
      counter: 5,
    });
  });

  it('shows "Error Adding Account" with the server message', async () => {
    const user = userEvent.setup();
    await withAccounts([], {
      'PUT /api/user/vault/entries/*': () =>
        jsonResponse(422, { error: { code: 'unprocessable', message: 'Your vault holds the most accounts it can (1000).', request_id: 'r' } }),
    });
    renderApp('/');
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText(/Account name/), 'ada');
    await user.type(within(dialog).getByLabelText(/Secret key/), SECRET);
    await user.click(within(dialog).getByRole('button', { name: 'Add Account' }));
    expect(await within(toastRegion()).findByText('Error Adding Account')).toBeInTheDocument();
    expect(within(toastRegion()).getByText('Your vault holds the most accounts it can (1000).')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add Account' })).toBeInTheDocument();
  });
});

describe('codes computed in the browser', () => {
  const AT = Date.UTC(2025, 0, 1, 0, 0, 10); // 10 s into a 30-second step

  it('shows the same code as otpauth for a known secret, split 3+3 and 4+4, with the next code', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(AT);
    await withAccounts([GITHUB, AWS]);
    renderApp('/');
    const github = await screen.findByRole('article', { name: 'ada@example.com' });
    const expected = totp(SECRET, AT);
    expect(displayedCode(github)).toBe(`${expected.slice(0, 3)}${expected.slice(3)}`);
    expect(within(github).getByRole('button', { name: `Copy code ${expected.slice(0, 3)} ${expected.slice(3)} for GitHub: ada@example.com` })).toBeInTheDocument();
    const next = totp(SECRET, AT + 30_000);
    expect(within(github).getByTestId('next-code')).toHaveTextContent(`${next.slice(0, 3)} ${next.slice(3)}`);

    const aws = cardFor('root');
    const awsCode = totp(AWS.secret, AT, { algorithm: 'SHA256', digits: 8 });
    expect(within(aws).getByRole('button', { name: `Copy code ${awsCode.slice(0, 4)} ${awsCode.slice(4)} for AWS: root` })).toBeInTheDocument();
  });

  it('counts down every second and moves to the next code at the end of the step', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(AT);
    await withAccounts([GITHUB]);
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'ada@example.com' });
    expect(within(card).getByTestId('remaining')).toHaveTextContent('20 s remaining');
    expect(within(card).getByRole('progressbar')).toBeInTheDocument();

    vi.setSystemTime(AT + 1000);
    await waitFor(() => expect(within(card).getByTestId('remaining')).toHaveTextContent('19 s remaining'), { timeout: 3000 });

    vi.setSystemTime(AT + 16_000);
    await waitFor(() => expect(within(card).getByTestId('remaining')).toHaveTextContent('4 s remaining · Expiring'), { timeout: 3000 });

    vi.setSystemTime(AT + 20_000);
    const next = totp(SECRET, AT + 20_000);
    await waitFor(() => expect(displayedCode(card)).toBe(next), { timeout: 3000 });
    expect(within(card).getByTestId('remaining')).toHaveTextContent('30 s remaining');
  });

  it('never asks the server for codes: no generate-totp-code calls, one list request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(AT);
    const fetchMock = await withAccounts([GITHUB, GOOGLE, AWS]);
    renderApp('/');
    await screen.findByRole('article', { name: 'root' });
    for (let s = 1; s <= 3; s++) {
      vi.setSystemTime(AT + s * 1000);
      await waitFor(() => expect(within(cardFor('root')).getByTestId('remaining')).toHaveTextContent(`${20 - s} s remaining`), { timeout: 3000 });
    }
    const paths = fetchMock.mock.calls.map(([url]) => String(url));
    expect(paths.filter((path) => path.includes('generate-totp-code'))).toEqual([]);
    expect(calls(fetchMock, 'GET', '/api/user/vault')).toHaveLength(1);
  });

  it('shows an HOTP account\'s code for its saved counter, without a countdown', async () => {
    const hotp = account({ id: 'tac_h', type: 'hotp', counter: 7, issuer: 'Bank', accountName: 'ada' });
    await withAccounts([hotp]);
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'ada' });
    const code = HOTP.generate({ secret: Secret.fromBase32(SECRET), counter: 7 });
    expect(displayedCode(card)).toBe(code);
    expect(within(card).getByText('HOTP · counter 7')).toBeInTheDocument();
    expect(within(card).queryByTestId('remaining')).not.toBeInTheDocument();
    const next = HOTP.generate({ secret: Secret.fromBase32(SECRET), counter: 8 });
    expect(within(card).getByTestId('next-code')).toHaveTextContent(`${next.slice(0, 3)} ${next.slice(3)}`);
  });

  it('says so when the device clock is corrected', async () => {
    vi.mocked(useClockSkew).mockReturnValue({ offsetMs: -42_400, corrected: true });
    await withAccounts([GITHUB]);
    renderApp('/');
    expect(await screen.findByText('Your device clock is off by 42 s; codes are corrected.')).toBeInTheDocument();
  });
});

describe('the account cards', () => {
  it('filters by issuer or name, case-insensitively', async () => {
    const user = userEvent.setup();
    await withAccounts([GITHUB, GOOGLE, AWS]);
    renderApp('/');
    await screen.findByRole('article', { name: 'root' });
    const search = screen.getByRole('searchbox', { name: 'Search accounts' });
    await user.type(search, 'GOO');
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-labelledby'))).toHaveLength(1);
    expect(cardFor('lovelace@gmail.com')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'Ada@Example');
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(cardFor('ada@example.com')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'dropbox');
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.getByText('No accounts match “dropbox”.')).toBeInTheDocument();
  });

  it('shows and hides the secret', async () => {
    const user = userEvent.setup();
    await withAccounts([GITHUB]);
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'ada@example.com' });
    expect(within(card).queryByTestId('secret')).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Show secret for GitHub: ada@example.com' }));
    expect(within(card).getByTestId('secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    await user.click(within(card).getByRole('button', { name: 'Hide secret for GitHub: ada@example.com' }));
    expect(within(card).queryByTestId('secret')).not.toBeInTheDocument();
  });

  it('copies the code on click ("Code Copied"), and says when the clipboard refuses', async () => {
    const user = userEvent.setup();
    await withAccounts([GITHUB]);
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'ada@example.com' });
    await user.click(within(card).getByRole('button', { name: /^Copy code/ }));
    expect(await navigator.clipboard.readText()).toBe(displayedCode(card));
    expect(await within(toastRegion()).findByText('Code Copied')).toBeInTheDocument();

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await user.click(within(card).getByRole('button', { name: /^Copy code/ }));
    expect(await within(toastRegion()).findByText('Copy Failed')).toBeInTheDocument();
    expect(within(toastRegion()).getByText('Could not copy to clipboard.')).toBeInTheDocument();
  });

  it('deletes only after confirmation ("Account Deleted")', async () => {
    const user = userEvent.setup();
    const fetchMock = await withAccounts([GITHUB, GOOGLE]);
    const deletes = () => fetchMock.mock.calls.filter(([url, init]) => String(url).startsWith('/api/user/vault/entries/tac_1') && init?.method === 'DELETE');
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'ada@example.com' });
    await user.click(within(card).getByRole('button', { name: 'Delete GitHub: ada@example.com' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete this account?' });
    expect(within(dialog).getByText('GitHub: ada@example.com')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deletes()).toHaveLength(0);

    await user.click(within(card).getByRole('button', { name: 'Delete GitHub: ada@example.com' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Delete this account?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await within(toastRegion()).findByText('Account Deleted')).toBeInTheDocument();
    expect(deletes()).toHaveLength(1);
    expect((await vault.accounts()).map((a) => a.id)).toEqual(['tac_2']);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'ada@example.com' })).not.toBeInTheDocument());
    expect(cardFor('lovelace@gmail.com')).toBeInTheDocument();
  });

  it('shows "Error Deleting Account" when the server refuses', async () => {
    const user = userEvent.setup();
    await withAccounts([GITHUB], {
      'DELETE /api/user/vault/entries/*': () => jsonResponse(404, { error: { code: 'not_found', message: 'No such account in your vault.', request_id: 'r' } }),
    });
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'ada@example.com' });
    await user.click(within(card).getByRole('button', { name: 'Delete GitHub: ada@example.com' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete account' }));
    expect(await within(toastRegion()).findByText('Error Deleting Account')).toBeInTheDocument();
    expect(within(toastRegion()).getByText('No such account in your vault.')).toBeInTheDocument();
  });
});

describe('offline', () => {
  it('keeps the vault it loads on this device, encrypted: no secret in the saved copy', async () => {
    await withAccounts([GITHUB]);
    renderApp('/');
    await screen.findByRole('article', { name: 'ada@example.com' });
    await waitFor(() => expect(saveVaultSnapshot).toHaveBeenCalledWith(ada.id, expect.objectContaining({ header: vault.header })));
    const saved = JSON.stringify(vi.mocked(saveVaultSnapshot).mock.calls);
    expect(saved).not.toContain(SECRET);
    expect(saved).not.toContain('ada@example.com');
    expect(screen.queryByText(/^Offline/)).not.toBeInTheDocument();
  });

  it('shows the saved accounts, with live codes, when the network is down', async () => {
    const saved = await fakeVault([GOOGLE]);
    const snapshot = JSON.parse(await (await saved.routes['GET /api/user/vault']!(undefined, new URL('http://localhost/api/user/vault'))).text()) as object;
    vi.mocked(loadVaultSnapshot).mockResolvedValue(snapshot);
    serve({
      'GET /api/user/vault': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderApp('/');
    // The copy on this device is locked like the server's: the recovery key opens it offline.
    expect(await screen.findByText('Your vault is locked')).toBeInTheDocument();
    await act(() => vaultSession(ada.id).unlockWithRecoveryKey(saved.recoveryKey));
    const card = await screen.findByRole('article', { name: 'lovelace@gmail.com' });
    expect(displayedCode(card)).toMatch(/^\d{6}$/);
    expect(screen.getByText(/^Offline — showing the vault saved on this device/)).toBeInTheDocument();
    expect(loadVaultSnapshot).toHaveBeenCalledWith(ada.id);
  });

  it('does not fall back to the saved copy when the server answers with an error', async () => {
    vi.mocked(loadVaultSnapshot).mockResolvedValue({});
    serve({
      'GET /api/user/vault': () =>
        jsonResponse(403, { error: { code: 'impersonation_forbidden', message: 'Authenticator secrets are not available while impersonating a user.', request_id: 'r' } }),
    });
    renderApp('/');
    expect(await screen.findByText('Authenticator secrets are not available while impersonating a user.')).toBeInTheDocument();
    expect(loadVaultSnapshot).not.toHaveBeenCalled();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });
});

describe('camera and upload', () => {
  const URI = 'otpauth://totp/Dropbox:ada%40example.com?secret=jbswy3dpehpk3pxp&issuer=Dropbox&digits=8&algorithm=SHA256';

  it('starts the camera on the Camera tab, fills the form from a valid QR and stops', async () => {
    const user = userEvent.setup();
    await withAccounts([]);
    renderApp('/');
    const dialog = await openAddDialog(user);
    await user.click(within(dialog).getByRole('tab', { name: 'Camera' }));
    await waitFor(() => expect(camera.instances).toHaveLength(1));
    const scanner = camera.instances[0]!;
    expect(scanner.options).toMatchObject({ maxScansPerSecond: 25 });
    await waitFor(() => expect(scanner.started).toBe(true));

    act(() => scanner.decode('https://example.com/not-a-totp'));
    expect(await within(toastRegion()).findByText('Invalid QR Code')).toBeInTheDocument();
    expect(within(toastRegion()).getByText("This doesn't appear to be a valid TOTP QR code.")).toBeInTheDocument();
    expect(scanner.destroyed).toBe(false);

    act(() => scanner.decode(URI));
    expect(await within(toastRegion()).findByText('QR Code Detected!')).toBeInTheDocument();
    expect(scanner.destroyed).toBe(true);
    expect(within(dialog).getByRole('tab', { name: 'Manual' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByLabelText(/Account name/)).toHaveValue('ada@example.com');
    expect(within(dialog).getByLabelText(/Issuer/)).toHaveValue('Dropbox');
    expect(within(dialog).getByLabelText(/Secret key/)).toHaveValue('JBSWY3DPEHPK3PXP');
    // Non-default settings open Advanced, so they are seen before adding.
    expect(within(dialog).getByLabelText('Digits')).toHaveValue('8');
    expect(within(dialog).getByLabelText('Algorithm')).toHaveValue('SHA256');
  });

  it('stops the camera on tab change and on close', async () => {
    const user = userEvent.setup();
    await withAccounts([]);
    renderApp('/');
    let dialog = await openAddDialog(user);
    await user.click(within(dialog).getByRole('tab', { name: 'Camera' }));
    await waitFor(() => expect(camera.instances[0]?.started).toBe(true));
    await user.click(within(dialog).getByRole('tab', { name: 'Upload' }));
    expect(camera.instances[0]!.destroyed).toBe(true);

    await user.click(within(dialog).getByRole('tab', { name: 'Camera' }));
    await waitFor(() => expect(camera.instances[1]?.started).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(camera.instances[1]!.destroyed).toBe(true);

    // Opening again starts on Manual, with the camera off.
    dialog = await openAddDialog(user);
    expect(within(dialog).getByRole('tab', { name: 'Manual' })).toHaveAttribute('aria-selected', 'true');
    expect(camera.instances).toHaveLength(2);
  });

  it('says "Camera Access Failed" when the camera is refused', async () => {
    const user = userEvent.setup();
    camera.startError = 'Camera not found.';
    await withAccounts([]);
    renderApp('/');
    const dialog = await openAddDialog(user);
    await user.click(within(dialog).getByRole('tab', { name: 'Camera' }));
    expect(await within(toastRegion()).findByText('Camera Access Failed')).toBeInTheDocument();
    expect(within(toastRegion()).getByText('Please allow camera access to scan QR codes.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('reads an uploaded image on this device, sends nothing, and fills the form ("QR Code Scanned")', async () => {
    const user = userEvent.setup();
    const read: Blob[] = [];
    qrPixels.read = async (file) => {
      read.push(file);
      return [`otpauth://totp/Dropbox:ada%40example.com?secret=${SECRET}&issuer=Dropbox`];
    };
    const fetchMock = await withAccounts([]);
    fetchMock.mockClear();
    renderApp('/');
    const dialog = await openAddDialog(user);
    await user.click(within(dialog).getByRole('tab', { name: 'Upload' }));
    const image = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'qr.png', { type: 'image/png' });
    await user.upload(within(dialog).getByLabelText(/Choose an image of a QR code/), image);
    expect(await within(toastRegion()).findByText('QR Code Scanned')).toBeInTheDocument();
    expect((read[0] as File).name).toBe('qr.png');
    expect(fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET')).toEqual([]);
    expect(within(dialog).getByRole('tab', { name: 'Manual' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByLabelText(/Issuer/)).toHaveValue('Dropbox');
    expect(within(dialog).getByLabelText(/Secret key/)).toHaveValue(SECRET);
  });

  it('says "QR Scan Failed" for an image without a readable QR code', async () => {
    const user = userEvent.setup();
    qrPixels.read = async () => {
      throw new QrScanError(QR_NOT_FOUND_MESSAGE);
    };
    await withAccounts([]);
    renderApp('/');
    const dialog = await openAddDialog(user);
    await user.click(within(dialog).getByRole('tab', { name: 'Upload' }));
    await user.upload(within(dialog).getByLabelText(/Choose an image of a QR code/), new File(['x'], 'cat.jpg', { type: 'image/jpeg' }));
    expect(await within(toastRegion()).findByText('QR Scan Failed')).toBeInTheDocument();
    expect(within(toastRegion()).getByText('Could not read QR code from the image. Please try again or enter details manually.')).toBeInTheDocument();
  });
});

describe('import and export', () => {
  it('previews pasted links — what will be added, what is skipped and why — then imports', async () => {
    const user = userEvent.setup();
    const fetchMock = await withAccounts([GITHUB]);
    renderApp('/');
    await screen.findByRole('article', { name: 'ada@example.com' });
    await user.click(screen.getByRole('button', { name: /Import \/ Export/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Import accounts/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Import accounts' });
    await user.click(within(dialog).getByRole('tab', { name: 'Paste' }));
    const text = [
      'otpauth://totp/Dropbox:ada?secret=GEZDGNBVGY3TQOJQ&issuer=Dropbox',
      `otpauth://totp/GitHub:ada%40example.com?secret=${SECRET}&issuer=GitHub`,
      'hello world',
      'otpauth://totp/Broken:bob?secret=1234',
      'otpauth://hotp/Bank:ada?secret=GEZDGNBVGY3TQOJQ&counter=3&digits=8',
    ].join('\n');
    await user.click(within(dialog).getByLabelText(/one per line/));
    await user.paste(text);
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));

    expect(await within(dialog).findByText('2 accounts will be added')).toBeInTheDocument();
    const toAdd = within(dialog).getByRole('list', { name: 'Will be added' });
    expect(within(toAdd).getByText('Dropbox: ada')).toBeInTheDocument();
    expect(within(toAdd).getByText('Bank: ada')).toBeInTheDocument();
    const skipped = within(dialog).getByRole('list', { name: 'Skipped' });
    expect(within(dialog).getByText('3 skipped')).toBeInTheDocument();
    expect(skipped).toHaveTextContent('GitHub: ada@example.com — Already in your authenticator.');
    expect(skipped).toHaveTextContent('line 3 — Not an otpauth:// link.');
    expect(skipped).toHaveTextContent('line 4 (Broken:bob) — The secret is not valid base32');
    expect(await sentAccounts(fetchMock)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Import 2 accounts' }));
    expect(await within(dialog).findByText('2 accounts added.')).toBeInTheDocument();
    // Each account went to the vault as its own encrypted entry.
    const sent = await sentAccounts(fetchMock);
    expect(sent.map((a) => [a.issuer, a.accountName, a.type, a.counter, a.digits])).toEqual([
      ['Dropbox', 'ada', 'totp', null, 6],
      ['Bank', 'ada', 'hotp', 3, 8],
    ]);
    expect(within(toastRegion()).getByText('Accounts Imported')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findAllByRole('article', { name: 'ada' })).toHaveLength(2);
  });

  it('imports many accounts into the vault, one encrypted entry each', async () => {
    const user = userEvent.setup();
    const fetchMock = await withAccounts([]);
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: /Import \/ Export/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Import accounts/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Import accounts' });
    await user.click(within(dialog).getByRole('tab', { name: 'Paste' }));
    const lines = Array.from({ length: 120 }, (_, i) => `otpauth://totp/Site${i}:ada?secret=GEZDGNBVGY3TQOJQ&issuer=Site${i}`);
    await user.click(within(dialog).getByLabelText(/one per line/));
    await user.paste(lines.join('\n'));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Import 120 accounts' }));
    expect(await within(dialog).findByText('120 accounts added.', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(await sentAccounts(fetchMock)).toHaveLength(120);
    expect((await vault.accounts()).map((a) => a.issuer)).toEqual(lines.map((_, i) => `Site${i}`));
  });

  it('asks for the password of an encrypted backup', async () => {
    const user = userEvent.setup();
    await withAccounts([]);
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: /Import \/ Export/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Import accounts/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Import accounts' });
    const backup = JSON.stringify({ schemaVersion: 4, services: [], servicesEncrypted: 'AAAA:BBBB:CCCC' });
    await user.upload(within(dialog).getByLabelText(/Choose a backup file/), new File([backup], 'backup.2fas', { type: '' }));
    expect(await within(dialog).findByLabelText('Backup password')).toBeInTheDocument();
    expect(within(dialog).getByText(/is encrypted/)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Backup password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await within(dialog).findByText('Wrong password for this 2FAS backup.')).toBeInTheDocument();
  });

  it('merges Google Authenticator export QR images read on this device', async () => {
    const user = userEvent.setup();
    // One export of three accounts, split over three QR codes; the person has images of two.
    const { uris } = toMigrationUris([1, 2, 3].map((n) => { const { id: _id, createdAt: _at, ...otp } = account({ issuer: `Site${n}`, accountName: 'ada' }); return otp; }), { batchSize: 1 });
    let scan = 0;
    qrPixels.read = async () => [uris[scan++]!];
    await withAccounts([]);
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: /Import \/ Export/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Import accounts/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Import accounts' });
    await user.click(within(dialog).getByRole('tab', { name: 'QR images' }));
    const files = [1, 2].map((n) => new File(['x'], `export-${n}.png`, { type: 'image/png' }));
    await user.upload(within(dialog).getByLabelText(/Choose export QR images/), files);
    expect(await within(dialog).findByText('2 accounts will be added')).toBeInTheDocument();
    // Images 1 and 2 were given: only part 3 is missing.
    expect(within(dialog).getByRole('list', { name: 'Skipped' })).toHaveTextContent(
      'Google Authenticator export — QR code 3 of 3 of this Google Authenticator export is missing: add it to import every account.',
    );
  });

  it('exports an otpauth URI list as a .txt download, with a warning about secrets', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), 'blob:export')), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await withAccounts([GITHUB, AWS]);
    renderApp('/');
    await screen.findByRole('article', { name: 'root' });
    await user.click(screen.getByRole('button', { name: /Import \/ Export/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Export accounts/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Export accounts' });
    expect(within(dialog).getByText('This export contains your secret keys.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Download .txt' }));
    expect(click).toHaveBeenCalled();
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toMatch(/^sixdigit-authenticator-\d{4}-\d{2}-\d{2}\.txt$/);
    const text = await blobs[0]!.text();
    expect(text).toBe(toUriList([GITHUB, AWS]));
    expect(text.trim().split('\n')).toEqual([
      `otpauth://totp/GitHub:ada%40example.com?secret=${SECRET}&issuer=GitHub&algorithm=SHA1&digits=6&period=30`,
      `otpauth://totp/AWS:root?secret=${AWS.secret}&issuer=AWS&algorithm=SHA256&digits=8&period=30`,
    ]);
    click.mockRestore();
    delete (URL as Partial<typeof URL>).createObjectURL;
    delete (URL as Partial<typeof URL>).revokeObjectURL;
  });

  it('exports Google Authenticator migration QR codes, paged', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 7 }, (_, i) => account({ id: `tac_${i}`, issuer: `Site${i}`, accountName: 'ada' }));
    await withAccounts(many);
    renderApp('/');
    await screen.findAllByRole('article');
    await user.click(screen.getByRole('button', { name: /Import \/ Export/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Export accounts/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Export accounts' });
    await user.click(within(dialog).getByRole('tab', { name: 'QR codes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Show 2 QR codes' }));
    expect(await within(dialog).findByText('QR 1 of 2')).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: 'Google Authenticator export, QR 1 of 2' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByText('QR 2 of 2')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});

describe('the vault screens', () => {
  it('creates a vault: passphrases must match, the recovery key is shown once, nothing is stored until "I saved it", and only ciphertext is sent', async () => {
    const user = userEvent.setup();
    let created: Record<string, unknown> | null = null;
    const fetchMock = serve({
      'GET /api/user/vault': () => jsonResponse(200, { header: null, revision: 0, entries: [], legacyAccounts: 0 }),
      'POST /api/user/vault': (init) => {
        created = JSON.parse(String(init?.body));
        const { vaultId, slots } = created as { vaultId: string; slots: unknown[] };
        return jsonResponse(201, { header: { vaultId, format: 1, version: 1, slots }, revision: 0, entries: [], legacyAccounts: 0 });
      },
    });
    renderApp('/multi-totp');
    await screen.findByText('Create your encrypted vault');
    await user.type(screen.getByLabelText('Vault passphrase'), 'violet harbor ladder mint kettle');
    await user.type(screen.getByLabelText('Passphrase again'), 'violet harbor ladder mint');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The two passphrases differ.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Passphrase again'), ' kettle');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const shown = await screen.findByTestId('recovery-key', {}, { timeout: 15_000 });
    const recoveryKey = shown.textContent!;
    expect(recoveryKey).toMatch(/^([A-Z2-7]{4}-){7}[A-Z2-7]{4}$/);
    const create = screen.getByRole('button', { name: 'Create vault' });
    expect(create).toBeDisabled();
    expect(calls(fetchMock, 'POST', '/api/user/vault')).toHaveLength(0);
    await user.click(screen.getByLabelText(/I have saved my recovery key/));
    await user.click(create);
    expect(await screen.findByRole('heading', { name: 'No TOTP Accounts' })).toBeInTheDocument();
    const sent = JSON.stringify(created);
    expect(sent).not.toContain('violet');
    expect(sent).not.toContain(recoveryKey.replace(/-/g, ''));
    expect(created).toMatchObject({ format: 1, entries: [], slots: [expect.objectContaining({ kind: 'passphrase', kdf: expect.objectContaining({ name: 'argon2id', memoryKiB: 65536, iterations: 3 }) }), expect.objectContaining({ kind: 'recovery' })] });
  });

  it('forgotten passphrase and no recovery key: says nobody can recover the accounts, and starts over only after an explicit confirmation', async () => {
    const user = userEvent.setup();
    vault = await fakeVault([GITHUB]);
    let deleted = false;
    serve({
      ...vault.routes,
      'DELETE /api/user/vault': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    renderApp('/multi-totp');
    await user.click(await screen.findByRole('button', { name: 'Forgot the passphrase and lost the recovery key?' }));
    expect(screen.getByText(/nobody can open this vault — not you, not Sixdigit, not support/)).toBeInTheDocument();
    const discard = screen.getByRole('button', { name: 'Delete the vault and start again' });
    expect(discard).toBeDisabled();
    await user.click(screen.getByLabelText(/every account in my current vault is deleted for good/));
    await user.click(discard);
    expect(await screen.findByText('Create your encrypted vault')).toBeInTheDocument();
    expect(deleted).toBe(true);
  });

  it('says a wrong passphrase does not open the vault', async () => {
    const user = userEvent.setup();
    vault = await fakeVault([GITHUB]);
    serve(vault.routes);
    renderApp('/multi-totp');
    await user.type(await screen.findByLabelText('Vault passphrase'), 'not the passphrase');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('That passphrase does not open this vault.', {}, { timeout: 10_000 })).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Vault passphrase'));
    await user.type(screen.getByLabelText('Vault passphrase'), 'test vault passphrase');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('article', { name: 'ada@example.com' }, { timeout: 10_000 })).toBeInTheDocument();
  });
});
