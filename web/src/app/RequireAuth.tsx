import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { loginUrl, useCurrentUser } from '@/features/auth/api';
import { hardNavigate } from '@/lib/navigation';

/** Signed-out visitors on a protected route go to sign-in (a full page load), then come back. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const { pathname, search, hash } = useLocation();
  const mustSignIn = !isLoading && !user;

  useEffect(() => {
    if (mustSignIn) hardNavigate(loginUrl(`${pathname}${search}${hash}`));
  }, [mustSignIn, pathname, search, hash]);

  if (!user) return <PageSpinner label={isLoading ? 'Loading' : 'Redirecting to sign in'} />;
  return <>{children}</>;
}
