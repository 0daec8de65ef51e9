import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Toaster } from '@/components/ui/toaster';
import { createQueryClient } from './query-client';
import { handleUnauthorized } from './unauthorized';

/** The app's query client: SPEC §7 defaults plus the global 401 handling of SPEC §8. */
export function createAppQueryClient(): QueryClient {
  return createQueryClient({ onUnauthorized: handleUnauthorized });
}

export function AppProviders({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createAppQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
