/**
 * The account TOTP's calls (session cookie). Shapes come from common/contract/totp.ts, the schemas
 * the server validates its answers with.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiSend } from '@/lib/api';
import type { GeneratedCode, TotpSetupResult, TotpStatus } from '@common/contract/totp';

export type { GeneratedCode, TotpSetupResult, TotpStatus } from '@common/contract/totp';

export const totpQueryKeys = {
  status: ['/api/user/totp-status'] as const,
  code: ['/api/user/generate-totp'] as const,
};

export function useTotpStatus() {
  return useQuery({
    queryKey: totpQueryKeys.status,
    queryFn: ({ signal }) => apiGet<TotpStatus>('/api/user/totp-status', { signal }),
  });
}

/**
 * When the server's code stops being current, on this device's clock (ms): the moment it arrived
 * plus the seconds the server said were left. Using the device clock for both ends keeps the
 * countdown right even when the device clock is off by less than the 15 s we correct for.
 */
export function codeExpiresOnDevice(data: GeneratedCode, receivedAt: number): number {
  return receivedAt + data.timeRemaining * 1000;
}

/**
 * The current code from the server, when the page does not hold the secret itself. Fetched again
 * just after it expires — one call per 30-second period, the SPEC's "polled every 30 s" — and
 * never while `enabled` is false.
 */
export function useServerCode(enabled: boolean) {
  return useQuery({
    queryKey: totpQueryKeys.code,
    queryFn: ({ signal }) => apiGet<GeneratedCode>('/api/user/generate-totp', { signal }),
    enabled,
    // Good until it expires; coming back to the tab after that asks again.
    staleTime: ({ state }) => (state.data ? Math.max(0, codeExpiresOnDevice(state.data, state.dataUpdatedAt) - Date.now()) : 0),
    refetchOnWindowFocus: true,
    refetchInterval: ({ state }) => {
      if (!state.data || state.status === 'error') return false;
      // Just after the code changes, and never more often than once a second.
      return Math.max(1000, codeExpiresOnDevice(state.data, state.dataUpdatedAt) - Date.now() + 250);
    },
  });
}

/** True when the server says the account TOTP already exists (another tab set it up). */
export function isAlreadyConfigured(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

export function useSetupTotp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ reset = false }: { reset?: boolean } = {}) =>
      apiSend<TotpSetupResult>('POST', '/api/user/setup-totp', reset ? { reset: true } : undefined),
    onSuccess: () => {
      // SPEC §4: configured, status refetched. The server's code for the old secret is stale.
      client.removeQueries({ queryKey: totpQueryKeys.code });
      void client.invalidateQueries({ queryKey: totpQueryKeys.status });
    },
    onError: (error) => {
      if (isAlreadyConfigured(error)) void client.invalidateQueries({ queryKey: totpQueryKeys.status });
    },
  });
}
