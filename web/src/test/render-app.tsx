/** Test helpers: render the routed app at a path with a fake server behind fetch. */
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { AppProviders, createAppQueryClient } from '@/app/providers';
import { AppRoutes, preloadAllPages } from '@/app/routes';
import type { SiteVariant } from '@/app/variant';
import type { CurrentUser } from '@/features/auth/api';
import { SESSION_HINT_COOKIE } from '@common/contract/auth';

// Pages are lazy chunks in the app; loaded up front here, the routes render synchronously.
await preloadAllPages();

export const ada: CurrentUser = {
  id: 'usr_ada',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  role: 'user',
  isAdmin: false,
  impersonation: null,
};

export const admin: CurrentUser = {
  ...ada,
  id: 'usr_admin',
  email: 'admin@example.com',
  firstName: 'Grace',
  lastName: 'Hopper',
  role: 'admin',
  isAdmin: true,
};

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export function unauthorizedResponse(): Response {
  return jsonResponse(401, {
    error: { code: 'unauthorized', message: 'You are not signed in.', request_id: 'req_test' },
  });
}

type Handler = (url: string, init?: RequestInit) => Response | Promise<Response | undefined> | undefined;

/** Sets or clears the server's session hint cookie, as sign-in and sign-out do. */
export function setSessionHint(present: boolean) {
  document.cookie = present ? `${SESSION_HINT_COOKIE}=1; path=/` : `${SESSION_HINT_COOKIE}=; path=/; max-age=0`;
}

/**
 * Stubs fetch: /api/auth/user answers `user` (or 401 when null); `extra` may answer others.
 * The session hint cookie follows `user`, as the real server keeps it.
 */
export function stubServer(user: CurrentUser | null, extra?: Handler) {
  setSessionHint(user !== null);
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const answer = await extra?.(url, init);
    if (answer) return answer;
    if (url === '/api/auth/user') return user ? jsonResponse(200, user) : unauthorizedResponse();
    return jsonResponse(404, { error: { code: 'not_found', message: `No route for ${url}`, request_id: 'req_test' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function renderApp(path: string, { variant = 'main' }: { variant?: SiteVariant } = {}) {
  const client = createAppQueryClient();
  // The app reads the address bar (e.g. which pages may skip the session call), as in a browser.
  window.history.replaceState(null, '', path);
  const result = render(
    <AppProviders client={client}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes variant={variant} />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...result, client };
}
