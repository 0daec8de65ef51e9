import { act, screen, waitFor } from '@testing-library/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '@/components/ui/use-toast';
import { authQueryKeys } from '@/features/auth/api';
import { apiGet, apiSend } from '@/lib/api';
import { hardNavigate } from '@/lib/navigation';
import { ada, renderApp, stubServer, unauthorizedResponse } from '@/test/render-app';
import { AppProviders, createAppQueryClient } from './providers';
import { resetUnauthorizedState, UNAUTHORIZED_REDIRECT_DELAY_MS } from './unauthorized';

vi.mock('@/lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/navigation')>()),
  hardNavigate: vi.fn(),
}));

function BusinessProfile() {
  const query = useQuery({ queryKey: ['/api/business/profile'], queryFn: () => apiGet('/api/business/profile') });
  return <p>{query.isError ? 'failed' : 'loading'}</p>;
}

function renderWithSession(signedIn: boolean) {
  const client = createAppQueryClient();
  client.setQueryData(authQueryKeys.currentUser, signedIn ? ada : null);
  render(
    <AppProviders client={client}>
      <MemoryRouter>
        <BusinessProfile />
      </MemoryRouter>
    </AppProviders>,
  );
  return client;
}

beforeEach(() => {
  vi.mocked(hardNavigate).mockClear();
  resetUnauthorizedState();
  resetToasts();
  window.history.pushState({}, '', '/business?tab=usage');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.history.pushState({}, '', '/');
});

describe('global 401 handling', () => {
  it('shows an "Unauthorized" toast, then goes to sign-in after 500 ms, back to this page', async () => {
    vi.useFakeTimers();
    const fetchMock = stubServer(ada, (url) => (url === '/api/business/profile' ? unauthorizedResponse() : undefined));
    renderWithSession(true);

    // Step the clock 1 ms at a time until the failed call has shown the toast.
    for (let ms = 0; ms < 50 && !screen.queryByText('Unauthorized'); ms++) {
      await act(() => vi.advanceTimersByTimeAsync(1));
    }
    expect(screen.getByText('Unauthorized')).toBeInTheDocument();
    expect(screen.getByText('You are logged out. Logging in again...')).toBeInTheDocument();
    expect(screen.getByText('Unauthorized').closest('li')).toHaveClass('destructive');
    // A 401 is not retried.
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/business/profile')).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(UNAUTHORIZED_REDIRECT_DELAY_MS - 2));
    expect(hardNavigate).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(2));
    expect(hardNavigate).toHaveBeenCalledTimes(1);
    expect(hardNavigate).toHaveBeenCalledWith('/api/login?returnTo=%2Fbusiness%3Ftab%3Dusage');
  });

  it('does nothing when the visitor was never signed in', async () => {
    stubServer(null, (url) => (url === '/api/business/profile' ? unauthorizedResponse() : undefined));
    renderWithSession(false);
    expect(await screen.findByText('failed')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, UNAUTHORIZED_REDIRECT_DELAY_MS + 50));
    expect(screen.queryByText('Unauthorized')).not.toBeInTheDocument();
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('is skipped by queries that handle 401 themselves', async () => {
    function OwnHandling() {
      const query = useQuery({
        queryKey: ['/api/user/totp-accounts'],
        queryFn: () => apiGet('/api/user/totp-accounts'),
        meta: { handlesUnauthorized: true },
      });
      return <p>{query.isError ? 'own handling' : 'loading'}</p>;
    }
    stubServer(ada, (url) => (url === '/api/user/totp-accounts' ? unauthorizedResponse() : undefined));
    const client = createAppQueryClient();
    client.setQueryData(authQueryKeys.currentUser, ada);
    render(
      <AppProviders client={client}>
        <OwnHandling />
      </AppProviders>,
    );
    expect(await screen.findByText('own handling')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Unauthorized')).not.toBeInTheDocument());
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('also reacts to a mutation that answers 401', async () => {
    function CreateBusiness() {
      const mutation = useMutation({ mutationFn: () => apiSend('POST', '/api/business/create', { companyName: 'Acme' }) });
      return (
        <button type="button" onClick={() => mutation.mutate()}>
          Create
        </button>
      );
    }
    const fetchMock = stubServer(ada, (url) => (url === '/api/business/create' ? unauthorizedResponse() : undefined));
    const client = createAppQueryClient();
    client.setQueryData(authQueryKeys.currentUser, ada);
    render(
      <AppProviders client={client}>
        <CreateBusiness />
      </AppProviders>,
    );
    act(() => screen.getByRole('button', { name: 'Create' }).click());
    expect(await screen.findByText('Unauthorized')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/business/create')).toHaveLength(1);
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/api/login?returnTo=%2Fbusiness%3Ftab%3Dusage'));
  });

  it('treats a signed-in person whose session check now answers 401 as logged out by the server', async () => {
    stubServer(ada);
    const { client } = renderApp('/home');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ada!' })).toBeInTheDocument();

    stubServer(null);
    await act(() => client.invalidateQueries({ queryKey: authQueryKeys.currentUser }));
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeInTheDocument();
    // The page stays as it was until the browser leaves for sign-in.
    expect(screen.getByRole('heading', { name: 'Welcome back, Ada!' })).toBeInTheDocument();
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/api/login?returnTo=%2Fhome'));
  });
});
