import { useQuery, type QueryClient } from '@tanstack/react-query';
import { loadLastUser, saveLastUser, wipeOfflineDataIfAny } from '@/features/authenticator/offline-store';
import { ApiError, apiGet } from '@/lib/api';
import { currentPath } from '@/lib/navigation';
import { publicPageAt } from '@common/public-pages';
import { SESSION_HINT_COOKIE, type AuthUser } from '@common/contract/auth';
import { SECOND_FACTOR_REQUIRED } from '@common/contract/second-factor';

export type { UserRole } from '@common/contract/auth';

/** The signed-in person, as GET /api/auth/user returns it (common/contract/auth.ts). */
export type CurrentUser = AuthUser;

export const authQueryKeys = {
  currentUser: ['auth', 'user'] as const,
};

export const LOGOUT_URL = '/api/logout';

/** Where sign-in starts; after it the server sends the browser back to `returnTo`. */
export function loginUrl(returnTo: string = currentPath()): string {
  return `/api/login?returnTo=${encodeURIComponent(returnTo)}`;
}

/** Where a half-signed-in session finishes signing in (issue 19). */
export const SECOND_FACTOR_PATH = '/sign-in/second-factor';

/** The second-step page, coming back to `returnTo` afterwards. */
export function secondFactorUrl(returnTo: string = currentPath()): string {
  return returnTo === '/' || returnTo.startsWith(SECOND_FACTOR_PATH) ? SECOND_FACTOR_PATH : `${SECOND_FACTOR_PATH}?returnTo=${encodeURIComponent(returnTo)}`;
}

/** True for the server's "signed in, but the second step is still to do" answer (401 second_factor_required). */
export function isSecondFactorRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.code === SECOND_FACTOR_REQUIRED;
}

/** Whether the server's session hint cookie (common/contract/auth.ts) is present. */
export function hasSessionHint(): boolean {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${SESSION_HINT_COOKIE}=1`));
}

/**
 * Whether the session call can be skipped: a marketing page, no session hint and nobody signed
 * in until now (an ended session must still reach its 401 and the Unauthorized notice).
 */
export function sessionCallSkippable(wasSignedIn: boolean, pathname: string = window.location.pathname): boolean {
  return !wasSignedIn && publicPageAt('main', pathname) !== undefined && !hasSessionHint();
}

/**
 * GET /api/auth/user. A 401 means "not signed in" and resolves to null — unless the person was
 * signed in until now: then the session has ended, and the 401 is rethrown so the global handler
 * (SPEC §8) says so and sends them to sign in again. Either way a 401 wipes the authenticator's
 * offline copy.
 *
 * Without a network (no HTTP answer at all) the last signed-in user is used, so an installed or
 * offline app still opens the authenticator with the accounts it last loaded.
 */
export async function fetchCurrentUser({
  wasSignedIn = false,
  signal,
}: { wasSignedIn?: boolean; signal?: AbortSignal } = {}): Promise<CurrentUser | null> {
  if (sessionCallSkippable(wasSignedIn)) {
    // No hint means signed out (sign-out clears it): wipe the offline copy as a 401 would.
    await wipeOfflineDataIfAny();
    return null;
  }
  try {
    const user = await apiGet<CurrentUser>('/api/auth/user', { signal });
    void saveLastUser(user).catch(() => undefined);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      await wipeOfflineDataIfAny();
      // Half signed in: not "signed out" — the app sends the person to the second step.
      if (!wasSignedIn && !isSecondFactorRequired(error)) return null;
    } else if (!(error instanceof ApiError) && !signal?.aborted) {
      const lastUser = await loadLastUser<CurrentUser>().catch(() => null);
      if (lastUser) return lastUser;
    }
    throw error;
  }
}

/** The current user: `user` is the user, or null when signed out. Never retried (SPEC §7). */
export function useCurrentUser() {
  const query = useQuery({
    queryKey: authQueryKeys.currentUser,
    queryFn: ({ client, signal }) => fetchCurrentUser({ wasSignedIn: wasSignedIn(client), signal }),
    retry: false,
    // Nor when another component starts reading it: refetching a query that failed with no data
    // puts it back to pending, and MainRoutes shows its spinner while the session loads — which
    // unmounted the second-step page, whose remount refetched: a loop of 401s, never the page.
    retryOnMount: false,
    staleTime: 60_000,
    // Notice an ended session when the person comes back to the tab.
    refetchOnWindowFocus: true,
  });
  return {
    ...query,
    user: query.data ?? null,
    isAuthenticated: Boolean(query.data),
    /** the session waits for its second step (a code, a backup code or a passkey) */
    secondFactorRequired: isSecondFactorRequired(query.error),
  };
}

/** Whether the cache currently holds a signed-in user (used by the global 401 handler). */
export function wasSignedIn(queryClient: QueryClient): boolean {
  return Boolean(queryClient.getQueryData<CurrentUser | null>(authQueryKeys.currentUser));
}

/** Full name for display: "First Last", else the e-mail, else "Account". */
export function displayName(user: {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}): string {
  const name = [user.firstName, user.lastName].filter((part) => part && part.trim()).join(' ').trim();
  return name || user.email || 'Account';
}
