import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ada, jsonResponse, stubServer } from '@/test/render-app';
import { PasskeySecondStep } from './PasskeySecondStep';

const browser = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', async (original) => ({
  ...(await original<typeof import('@simplewebauthn/browser')>()),
  startAuthentication: browser.startAuthentication,
}));

const ASSERTION = { id: 'cred', rawId: 'cred', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' }, clientExtensionResults: {} };

function serve(verifyStatus: number) {
  return stubServer(ada, (url, init) => {
    if (init?.method === 'POST' && url === '/api/auth/passkey/options') return jsonResponse(200, { challenge: 'c1', allowCredentials: [{ id: 'cred', type: 'public-key' }] });
    if (init?.method === 'POST' && url === '/api/auth/passkey/verify') {
      return verifyStatus === 200
        ? jsonResponse(200, { signedIn: true, secondStep: true })
        : jsonResponse(verifyStatus, { error: { code: 'forbidden', message: 'This passkey belongs to another account.', request_id: 'r' } });
    }
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  browser.startAuthentication.mockReset();
});

describe('PasskeySecondStep', () => {
  it("runs the ceremony against this session and calls onDone when the server accepts it", async () => {
    const fetchMock = serve(200);
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    const onDone = vi.fn();
    render(<PasskeySecondStep onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'Use a passkey' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(browser.startAuthentication.mock.calls[0]![0].optionsJSON.challenge).toBe('c1');
    const verify = fetchMock.mock.calls.find(([url]) => url === '/api/auth/passkey/verify')!;
    expect(JSON.parse(String(verify[1]!.body))).toEqual({ response: ASSERTION });
  });

  it("says why when the server refuses (another person's passkey), and does not go on", async () => {
    serve(403);
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    const onDone = vi.fn();
    render(<PasskeySecondStep onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This passkey belongs to another account.');
    expect(onDone).not.toHaveBeenCalled();
  });
});
