import { Suspense, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazyPage } from './lazy-page';
import { createQueryClient } from './query-client';
import { handleUnauthorized } from './unauthorized';

/**
 * Radix Toast is not needed to paint the first page: it is fetched right after, beside the
 * page. Toasts raised before it arrives wait in the toast store and show when it mounts.
 */
export const Toaster = lazyPage(() => import('@/components/ui/toaster').then((m) => m.Toaster));

/** The app's query client: SPEC §7 defaults plus the global 401 handling of SPEC §8. */
export function createAppQueryClient(): QueryClient {
  return createQueryClient({ onUnauthorized: handleUnauthorized });
}

export function AppProviders({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createAppQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
