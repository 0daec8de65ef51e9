import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createAppQueryClient } from '@/app/providers';
import { resetToasts } from '@/components/ui/use-toast';
import { ada, jsonResponse, stubServer } from '@/test/render-app';
import type { Passkey } from './api';
import { PasskeysCard } from './PasskeysCard';

const browser = vi.hoisted(() => ({ startRegistration: vi.fn(), supports: vi.fn(() => true) }));
vi.mock('@simplewebauthn/browser', async (original) => ({
  ...(await original<typeof import('@simplewebauthn/browser')>()),
  startRegistration: browser.startRegistration,
  browserSupportsWebAuthn: browser.supports,
}));

const laptop: Passkey = {
  id: 'pk_1',
  name: 'Work laptop',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastUsedAt: null,
  prfSupported: true,
  deviceType: 'singleDevice',
  backedUp: false,
  transports: ['internal'],
};
const key: Passkey = { ...laptop, id: 'pk_2', name: 'Old key', prfSupported: false, deviceType: 'multiDevice', lastUsedAt: new Date().toISOString() };

function serve(passkeys: Passkey[]) {
  return stubServer(ada, (url, init) => {
    const route = `${init?.method ?? 'GET'} ${url}`;
    if (route === 'GET /api/user/passkeys') return jsonResponse(200, { passkeys });
    if (route === 'POST /api/user/passkeys/registration-options') return jsonResponse(200, { challenge: 'abc', rp: { name: 'Sixdigit' }, user: { id: 'dTE', name: ada.email, displayName: 'Ada' }, pubKeyCredParams: [] });
    return undefined;
  });
}

const renderCard = () =>
  render(
    <AppProviders client={createAppQueryClient()}>
      <PasskeysCard />
    </AppProviders>,
  );

afterEach(() => {
  vi.unstubAllGlobals();
  browser.startRegistration.mockReset();
  browser.supports.mockReset().mockReturnValue(true);
  resetToasts();
});

describe('PasskeysCard', () => {
  it('lists each passkey with when it was added, last used, and whether it supports PRF', async () => {
    serve([laptop, key]);
    renderCard();
    const rows = await screen.findAllByTestId('passkey-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('PRF yes')).toBeInTheDocument();
    expect(within(rows[0]!).getByText(/Last used never/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText('PRF no')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Synced')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('just now')).toBeInTheDocument();
  });

  it('says plainly when the browser refuses or the person cancels, and changes nothing', async () => {
    const fetchMock = serve([]);
    const { WebAuthnError } = await import('@simplewebauthn/browser');
    const refusal = Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' });
    browser.startRegistration.mockRejectedValueOnce(new WebAuthnError({ message: 'cancelled', code: 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', cause: refusal }));
    browser.startRegistration.mockRejectedValueOnce(new WebAuthnError({ message: 'again', code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', cause: new Error('x') }));
    renderCard();
    await screen.findByText(/No passkeys yet/);
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The passkey request was cancelled or timed out. Nothing was changed.');
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('This device already holds a passkey for your account.')).toBeInTheDocument();
    // Nothing was sent to be stored.
    expect(fetchMock.mock.calls.filter(([url, init]) => url === '/api/user/passkeys' && init?.method === 'POST')).toEqual([]);
  });

  it('cannot add a passkey in a browser without WebAuthn, and says why', async () => {
    serve([]);
    browser.supports.mockReturnValue(false);
    renderCard();
    expect(await screen.findByText('This browser cannot create passkeys.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
  });
});
