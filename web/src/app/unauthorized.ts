import type { QueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { isSecondFactorRequired, loginUrl, wasSignedIn } from '@/features/auth/api';
import { hardNavigate } from '@/lib/navigation';

/** Delay between the "Unauthorized" toast and the trip to the sign-in page (SPEC §8). */
export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;

let redirectPending = false;

/**
 * Global 401 handling (SPEC §8): if the person was signed in and a call now answers 401, the
 * session has ended — say so, then send them to sign in again, coming back to this page.
 */
export function handleUnauthorized(error: Error, client: QueryClient): void {
  // Half signed in (issue 19): not an ended session. A session is half signed in from its start
  // only, so the session call already said so and the router shows the second step.
  if (isSecondFactorRequired(error)) return;
  if (redirectPending || !wasSignedIn(client)) return;
  redirectPending = true;
  // Shown on the next tick so it is the newest toast: a page's own error toast for the same
  // failed call (fired right after this) must not replace it (one toast is visible at a time).
  setTimeout(() =>
    toast({
      variant: 'destructive',
      title: 'Unauthorized',
      description: 'You are logged out. Logging in again...',
    }),
  );
  setTimeout(() => {
    hardNavigate(loginUrl());
    redirectPending = false;
  }, UNAUTHORIZED_REDIRECT_DELAY_MS);
}

/** Test helper. */
export function resetUnauthorizedState(): void {
  redirectPending = false;
}
