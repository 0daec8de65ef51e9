import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import QRCode from 'qrcode';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { resetToasts } from '@/components/ui/use-toast';
import { authQueryKeys, type CurrentUser } from '@/features/auth/api';
import { ada } from '@/test/render-app';
import { MOCK_ACCOUNTS, codeAt, groupSecret, otpauthUri, sanitizeCode, secondsRemaining } from './mock-accounts';
import { QrTestPage } from './QrTestPage';

vi.mock('qrcode', () => ({
  default: { toDataURL: vi.fn(async (text: string) => `data:image/png;base64,${btoa(text)}`) },
}));

// RFC 6238 test secret "JBSWY3DPEHPK3PXP": at 40 s after the epoch (step 1, 30–59 s) the SHA-1
// 6-digit code is 996554, with 20 s left in the step.
const DEMO = MOCK_ACCOUNTS.find((a) => a.secret === 'JBSWY3DPEHPK3PXP')!;
const KNOWN_TIME = 40_000;
const KNOWN_CODE = '996554';

function renderPage(user: CurrentUser | null, embedded = false) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(authQueryKeys.currentUser, user);
  vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => {})));
  return render(
    <AppProviders client={client}>
      <MemoryRouter>
        <QrTestPage embedded={embedded} />
      </MemoryRouter>
    </AppProviders>,
  );
}

async function flush() {
  await act(async () => {
    await Promise.resolve();
  });
}

function demoCard() {
  return screen.getByRole('group', { name: `${DEMO.issuer}: ${DEMO.name}` });
}

beforeEach(() => {
  vi.useFakeTimers({ now: KNOWN_TIME, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  resetToasts();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.mocked(QRCode.toDataURL).mockClear();
});

describe('mock-accounts helpers', () => {
  it('computes the RFC 6238 code and the seconds left in the step', () => {
    expect(codeAt(DEMO, KNOWN_TIME)).toBe(KNOWN_CODE);
    expect(secondsRemaining(KNOWN_TIME)).toBe(20);
    expect(secondsRemaining(60_000)).toBe(30);
    expect(secondsRemaining(89_999)).toBe(1);
  });

  it('keeps only digits, at most six', () => {
    expect(sanitizeCode('12a-3 4')).toBe('1234');
    expect(sanitizeCode('99 65-54 12')).toBe('996554');
    expect(sanitizeCode('９９６５５４')).toBe(''); // full-width digits are not ASCII digits
    expect(sanitizeCode('abc')).toBe('');
  });

  it('builds an otpauth URI with issuer:account label and the secret', () => {
    const uri = otpauthUri(DEMO);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Sixdigit%20Demo:demo%40sixdigit\.test\?/);
    expect(uri).toContain(`secret=${DEMO.secret}`);
    expect(uri).toContain('issuer=Sixdigit%20Demo');
  });
});

describe('QrTestPage', () => {
  it('shows the title, every mock account with a locally drawn QR image and its current code', async () => {
    renderPage(ada);
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'QR Code Testing' })).toBeInTheDocument();
    expect(screen.getByText('Codes refresh in 20s')).toBeInTheDocument();
    for (const account of MOCK_ACCOUNTS) {
      const card = screen.getByRole('group', { name: `${account.issuer}: ${account.name}` });
      const img = within(card).getByRole('img', { name: new RegExp(`QR code for ${account.issuer}`) });
      expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      expect(atob(img.getAttribute('src')!.split(',')[1]!)).toBe(otpauthUri(account));
    }
    expect(QRCode.toDataURL).toHaveBeenCalledTimes(MOCK_ACCOUNTS.length);
    expect(within(demoCard()).getByTestId(`code-${DEMO.id}`)).toHaveTextContent('996 554');
    expect(screen.getByRole('link', { name: 'Multi-TOTP page' })).toHaveAttribute('href', '/multi-totp');
  });

  it('counts down and rolls the codes over every 30 s', async () => {
    renderPage(ada);
    await flush();
    act(() => vi.advanceTimersByTime(5_000));
    expect(screen.getByText('Codes refresh in 15s')).toBeInTheDocument();
    expect(within(demoCard()).getByTestId(`code-${DEMO.id}`)).toHaveTextContent('996 554');
    act(() => vi.advanceTimersByTime(15_000));
    expect(screen.getByText('Codes refresh in 30s')).toBeInTheDocument();
    const next = codeAt(DEMO, 60_000);
    expect(next).not.toBe(KNOWN_CODE);
    expect(within(demoCard()).getByTestId(`code-${DEMO.id}`)).toHaveTextContent(`${next.slice(0, 3)} ${next.slice(3)}`);
  });

  it('hides the secret until "Show Secret Key"', async () => {
    renderPage(ada);
    await flush();
    const card = demoCard();
    expect(within(card).queryByText(groupSecret(DEMO.secret))).not.toBeInTheDocument();
    fireEvent.click(within(card).getByRole('button', { name: 'Show Secret Key' }));
    expect(within(card).getByText(groupSecret(DEMO.secret))).toBeInTheDocument();
    fireEvent.click(within(card).getByRole('button', { name: 'Hide Secret Key' }));
    expect(within(card).queryByText(groupSecret(DEMO.secret))).not.toBeInTheDocument();
  });

  it('strips non-digits, compares only at exactly 6 digits, and says match or mismatch in words', async () => {
    renderPage(ada);
    await flush();
    const card = demoCard();
    const input = within(card).getByLabelText('Code from your authenticator');
    const verify = within(card).getByRole('button', { name: 'Verify' });

    // Fake timers drive the countdown, so events are fired directly (user-event waits on timers).
    fireEvent.change(input, { target: { value: '99a6-5 5' } });
    expect(input).toHaveValue('99655');
    expect(within(card).queryByText(/matches|does not match/)).not.toBeInTheDocument();
    expect(verify).toBeDisabled();

    fireEvent.change(input, { target: { value: '99655 4789' } });
    expect(input).toHaveValue(KNOWN_CODE);
    expect(within(card).getByText('Code matches the current code')).toBeInTheDocument();
    expect(input).not.toHaveAttribute('aria-invalid');
    fireEvent.click(verify);
    expect(screen.getByText('Code Verified')).toBeInTheDocument();

    fireEvent.change(input, { target: { value: '000000' } });
    expect(within(card).getByText('Code does not match the current code')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    fireEvent.click(within(card).getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Code Incorrect')).toBeInTheDocument();
  });

  it('turns a typed code red once the 30 s step moves on', async () => {
    renderPage(ada);
    await flush();
    const card = demoCard();
    fireEvent.change(within(card).getByLabelText('Code from your authenticator'), { target: { value: KNOWN_CODE } });
    expect(within(card).getByText('Code matches the current code')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(20_000));
    expect(within(card).getByText('Code does not match the current code')).toBeInTheDocument();
  });

  it('renders nothing when not signed in', () => {
    renderPage(null);
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByText(/Codes refresh/)).not.toBeInTheDocument();
  });

  it('uses a section heading, not a page title, when embedded', async () => {
    renderPage(ada, true);
    await flush();
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Test accounts' })).toBeInTheDocument();
  });
});
