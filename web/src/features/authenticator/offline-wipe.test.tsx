import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchCurrentUser } from '@/features/auth/api';
import { hardNavigate } from '@/lib/navigation';
import { ada, renderApp, stubServer, unauthorizedResponse } from '@/test/render-app';
import { hasOfflineData, loadVaultSnapshot, loadLastUser, saveVaultSnapshot, wipeOfflineData } from './offline-store';

vi.mock('@/lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/navigation')>()),
  hardNavigate: vi.fn(),
}));

const ACCOUNTS = [{ id: 'a1', accountName: 'alice', secret: 'JBSWY3DPEHPK3PXP' }];

beforeEach(() => vi.mocked(hardNavigate).mockClear());
afterEach(async () => {
  vi.unstubAllGlobals();
  await wipeOfflineData();
});

describe('the offline copy is wiped', () => {
  it('by Log out in the avatar menu, before leaving for /api/logout', async () => {
    const user = userEvent.setup();
    await saveVaultSnapshot(ada.id, ACCOUNTS);
    stubServer(ada);
    renderApp('/home');
    await user.click(await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' }));
    const logOut = within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Log out' });
    expect(logOut).toHaveAttribute('href', '/api/logout');
    // At the moment of navigating, nothing is left.
    let leftAtNavigation: boolean | null = null;
    vi.mocked(hardNavigate).mockImplementation(() => {
      void hasOfflineData().then((left) => (leftAtNavigation = left));
    });
    await user.click(logOut);
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/api/logout'));
    await waitFor(() => expect(leftAtNavigation).toBe(false));
    expect(await loadVaultSnapshot(ada.id)).toBeNull();
  });

  it('when /api/auth/user says nobody is signed in', async () => {
    await saveVaultSnapshot(ada.id, ACCOUNTS);
    stubServer(null);
    expect(await fetchCurrentUser()).toBeNull();
    expect(await hasOfflineData()).toBe(false);
  });

  it('when a session ends (401 after being signed in)', async () => {
    await saveVaultSnapshot(ada.id, ACCOUNTS);
    vi.stubGlobal('fetch', vi.fn(async () => unauthorizedResponse()));
    await expect(fetchCurrentUser({ wasSignedIn: true })).rejects.toThrow(/^401: /);
    expect(await hasOfflineData()).toBe(false);
  });
});

describe('without a network', () => {
  it('the last signed-in user is remembered and used, and the accounts stay', async () => {
    stubServer(ada);
    expect(await fetchCurrentUser()).toEqual(ada);
    await waitFor(async () => expect(await loadLastUser()).toEqual(ada));
    await saveVaultSnapshot(ada.id, ACCOUNTS);

    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await fetchCurrentUser({ wasSignedIn: true })).toEqual(ada);
    expect(await loadVaultSnapshot(ada.id)).toEqual(ACCOUNTS);
  });

  it('with nobody remembered, the network error stands', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(fetchCurrentUser()).rejects.toThrow('Failed to fetch');
  });
});
