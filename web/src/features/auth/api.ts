import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiGet } from '@/lib/api';
import { currentPath } from '@/lib/navigation';

export type UserRole = 'user' | 'financial_manager' | 'admin';

/** The signed-in person, as GET /api/auth/user returns it. */
export interface CurrentUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  role: UserRole;
  isAdmin: boolean;
}

export const authQueryKeys = {
  currentUser: ['auth', 'user'] as const,
};

export const LOGOUT_URL = '/api/logout';

/** Where sign-in starts; after it the server sends the browser back to `returnTo`. */
export function loginUrl(returnTo: string = currentPath()): string {
  return `/api/login?returnTo=${encodeURIComponent(returnTo)}`;
}

/** GET /api/auth/user; a 401 means "not signed in" and resolves to null. */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await apiGet<CurrentUser>('/api/auth/user');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The current user: `data` is the user, or null when signed out. Never retried (SPEC §7). */
export function useCurrentUser() {
  const query = useQuery({
    queryKey: authQueryKeys.currentUser,
    queryFn: fetchCurrentUser,
    retry: false,
    staleTime: 60_000,
  });
  return {
    ...query,
    user: query.data ?? null,
    isAuthenticated: Boolean(query.data),
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
