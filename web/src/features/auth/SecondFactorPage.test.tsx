import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '@/components/ui/use-toast';
import { hardNavigate } from '@/lib/navigation';
import { jsonResponse, renderApp, stubServer } from '@/test/render-app';
import { SESSION_HINT_COOKIE } from '@common/contract/auth';
import { safeReturnTo } from './SecondFactorPage';

vi.mock('@/lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/navigation')>()),
  hardNavigate: vi.fn(),
}));
vi.setConfig({ testTimeout: 20_000 });

const envelope = (status: number, code: string, message = code) => jsonResponse(status, { error: { code, message, request_id: 'req_test' } });

/** A half-signed-in session: /api/auth/user answers 401 second_factor_required until the step is done. */
function serveHalfSignedIn(answer: (body: Record<string, string>) => Response) {
  return stubServer(null, (url, init) => {
    if (url === '/api/auth/user') return envelope(401, 'second_factor_required', 'Enter the code from your authenticator app to finish signing in.');
    if (url === '/api/auth/second-factor' && init?.method === 'POST') return answer(JSON.parse(String(init.body)));
    return undefined;
  });
}

const secondStepCalls = (fetchMock: ReturnType<typeof serveHalfSignedIn>) =>
  fetchMock.mock.calls.filter(([url]) => String(url) === '/api/auth/second-factor').map(([, init]) => JSON.parse(String(init?.body)));

beforeEach(() => {
  vi.mocked(hardNavigate).mockClear();
  resetToasts();
});
afterEach(() => vi.unstubAllGlobals());

describe('/sign-in/second-factor', () => {
  it('is where every page sends a half-signed-in session; the code finishes signing in and returns to the page', async () => {
    const user = userEvent.setup();
    const fetchMock = serveHalfSignedIn(() => new Response(null, { status: 204 }));
    renderApp('/business');
    expect(await screen.findByRole('heading', { level: 1, name: 'Finish signing in' })).toBeInTheDocument();
    // No "you are logged out" detour: a half session is not an ended one.
    expect(hardNavigate).not.toHaveBeenCalled();
    const box = screen.getByLabelText('Authenticator code');
    expect(box).toHaveAttribute('autocomplete', 'one-time-code');
    expect(box).toHaveAttribute('inputmode', 'numeric');
    const submit = screen.getByRole('button', { name: 'Continue' });
    expect(submit).toBeDisabled();
    await user.type(box, '12a34 56');
    expect(box).toHaveValue('123456');
    await user.click(submit);
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/business'));
    expect(secondStepCalls(fetchMock)).toEqual([{ code: '123456' }]);
  });

  it('shows once with the session hint cookie set (as after a real sign-in), asking for the session a bounded number of times', async () => {
    // As in a browser: the session call takes a moment, and the hint cookie is there.
    const fetchMock = stubServer(null, async (url) => {
      if (url !== '/api/auth/user') return undefined;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return envelope(401, 'second_factor_required');
    });
    document.cookie = `${SESSION_HINT_COOKIE}=1; path=/`;
    try {
      renderApp('/totp');
      expect(await screen.findByRole('heading', { level: 1, name: 'Finish signing in' })).toBeInTheDocument();
      // A remount of the page used to refetch the failed session call, whose loading state
      // unmounted the page again: a loop of 401s behind a spinner.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(screen.getByRole('heading', { level: 1, name: 'Finish signing in' })).toBeInTheDocument();
      expect(fetchMock.mock.calls.filter(([url]) => String(url) === '/api/auth/user').length).toBeLessThanOrEqual(2);
    } finally {
      document.cookie = `${SESSION_HINT_COOKIE}=; path=/; max-age=0`;
    }
  });

  it('says what went wrong: a wrong code, a used one, too many', async () => {
    const user = userEvent.setup();
    const answers = [envelope(400, 'invalid_code'), envelope(400, 'replayed'), envelope(429, 'too_many_attempts', 'Too many wrong codes. Try again in 14 min.')];
    serveHalfSignedIn(() => answers.shift()!);
    renderApp('/sign-in/second-factor');
    const box = await screen.findByLabelText('Authenticator code');
    await user.type(box, '111111');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not right. Check your app and try again.');
    expect(box).toHaveValue('');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    await user.type(box, '222222{Enter}');
    expect(await screen.findByText('That code was already used. Wait for the next code in your app.')).toBeInTheDocument();
    await user.type(box, '333333{Enter}');
    expect(await screen.findByText('Too many wrong codes. For your safety, try again in 14 minutes.')).toBeInTheDocument();
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('takes a backup code instead, and signs out', async () => {
    const user = userEvent.setup();
    const fetchMock = serveHalfSignedIn((body) => ('backupCode' in body && body.backupCode === 'abcd-efgh' ? new Response(null, { status: 204 }) : envelope(400, 'invalid_code')));
    renderApp('/sign-in/second-factor?returnTo=%2Ftotp');
    await user.click(await screen.findByRole('button', { name: 'Use a backup code instead' }));
    const box = screen.getByLabelText('Backup code');
    await user.type(box, 'zzzz-zzzz{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('That backup code is not valid. Each backup code works once.');
    await user.type(box, 'abcd-efgh{Enter}');
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/totp'));
    expect(secondStepCalls(fetchMock)).toEqual([{ backupCode: 'zzzz-zzzz' }, { backupCode: 'abcd-efgh' }]);

    vi.mocked(hardNavigate).mockClear();
    await user.click(screen.getByRole('button', { name: 'Use the code from my app instead' }));
    expect(screen.getByLabelText('Authenticator code')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(hardNavigate).toHaveBeenCalledWith('/api/logout');
  });

  it('returns only to our own paths', () => {
    expect(safeReturnTo('/business?tab=keys')).toBe('/business?tab=keys');
    for (const bad of [null, '', 'https://evil.example/', '//evil.example', '/\\evil.example', '/x\ny']) expect(safeReturnTo(bad)).toBe('/');
  });
});
