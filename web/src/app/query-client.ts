import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { apiGet, isUnauthorized } from '@/lib/api';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppMeta;
    mutationMeta: AppMeta;
  }
}

export interface AppMeta extends Record<string, unknown> {
  /**
   * Set when the page shows its own message for a 401 (e.g. the authenticator's
   * "Session Expired"), so the global "Unauthorized" toast and redirect are skipped.
   */
  handlesUnauthorized?: boolean;
}

/** SPEC §7 cached-query defaults. */
export const QUERY_RETRIES = 3;
export const RETRY_BASE_DELAY_MS = 1000;
export const RETRY_MAX_DELAY_MS = 30_000;
export const GC_TIME_MS = 5 * 60 * 1000;

/** 1000 ms, doubled per attempt, capped at 30 s. */
export function retryDelay(attemptIndex: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** attemptIndex, RETRY_MAX_DELAY_MS);
}

/** Retry up to 3 times, but never a 401: the answer will not change by asking again. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return !isUnauthorized(error) && failureCount < QUERY_RETRIES;
}

export interface QueryClientOptions {
  /** Called when any query or mutation fails with 401 (unless its meta opts out). */
  onUnauthorized?: (error: Error, client: QueryClient) => void;
}

export function createQueryClient({ onUnauthorized }: QueryClientOptions = {}): QueryClient {
  const report = (error: Error, meta: AppMeta | undefined) => {
    if (onUnauthorized && isUnauthorized(error) && !meta?.handlesUnauthorized) {
      onUnauthorized(error, client);
    }
  };

  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => report(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        // A query key that is a URL ('/api/…') can be fetched without a queryFn.
        queryFn: ({ queryKey }) => apiGet(queryKey.join('/')),
        retry: shouldRetry,
        retryDelay,
        gcTime: GC_TIME_MS,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
