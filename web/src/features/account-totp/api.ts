/**
 * The account security page's calls (session cookie): the account TOTP and the signed-in devices.
 * Shapes come from common/contract/{totp,sessions}.ts, the schemas the server validates its
 * answers with.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiSend } from '@/lib/api';
import type { GeneratedCode, NewBackupCodes, TotpChanged, TotpCheckResult, TotpProofBody, TotpSetupResult, TotpStatus } from '@common/contract/totp';
import type { SessionsRevoked, UserSessions } from '@common/contract/sessions';

export type { GeneratedCode, NewBackupCodes, TotpChanged, TotpCheckResult, TotpProofBody, TotpSetupResult, TotpStatus } from '@common/contract/totp';
export type { UserSession, UserSessions } from '@common/contract/sessions';

export const totpQueryKeys = {
  status: ['/api/user/totp-status'] as const,
  code: ['/api/user/generate-totp'] as const,
  sessions: ['/api/user/sessions'] as const,
};

/** At or below this many backup codes the page says to make new ones (the server's FEW_BACKUP_CODES). */
export const FEW_BACKUP_CODES = 3;

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
 * The current code from the server while the setup is pending and the page does not hold the
 * secret (it was set up in another tab, or the page was reloaded). Fetched again just after it
 * expires, and never while `enabled` is false. Once the TOTP protects sign-in the server no
 * longer shows it.
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

/** True when the server says the account TOTP already protects sign-in (another tab confirmed it). */
export function isAlreadyConfigured(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

function useStatusRefresh() {
  const client = useQueryClient();
  return (status?: TotpStatus) => {
    client.removeQueries({ queryKey: totpQueryKeys.code });
    if (status) client.setQueryData(totpQueryKeys.status, status);
    void client.invalidateQueries({ queryKey: totpQueryKeys.status });
    void client.invalidateQueries({ queryKey: totpQueryKeys.sessions });
  };
}

export function useSetupTotp() {
  const refresh = useStatusRefresh();
  return useMutation({
    mutationFn: () => apiSend<TotpSetupResult>('POST', '/api/user/setup-totp'),
    onSuccess: () => refresh(),
    onError: (error) => {
      if (isAlreadyConfigured(error)) refresh();
    },
  });
}

export function useConfirmTotp() {
  const refresh = useStatusRefresh();
  return useMutation({
    mutationFn: (code: string) => apiSend<TotpChanged>('POST', '/api/user/confirm-totp', { code }),
    onSuccess: (changed) => refresh(changed.status),
  });
}

export function useCheckTotp() {
  return useMutation({ mutationFn: (code: string) => apiSend<TotpCheckResult>('POST', '/api/user/check-totp', { code }) });
}

export function useRegenerateBackupCodes() {
  const refresh = useStatusRefresh();
  return useMutation({
    mutationFn: (proof: TotpProofBody) => apiSend<NewBackupCodes>('POST', '/api/user/totp-backup-codes', proof),
    onSuccess: () => refresh(),
  });
}

/** Turns the TOTP off with a proof, or cancels a pending setup (no proof). */
export function useDisableTotp() {
  const refresh = useStatusRefresh();
  return useMutation({
    mutationFn: (proof: TotpProofBody | null) => apiSend<TotpChanged>('POST', '/api/user/disable-totp', proof ?? {}),
    onSuccess: (changed) => refresh(changed.status),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: totpQueryKeys.sessions,
    queryFn: ({ signal }) => apiGet<UserSessions>('/api/user/sessions', { signal }),
  });
}

export function useRevokeSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>('DELETE', `/api/user/sessions/${encodeURIComponent(id)}`),
    onSettled: () => client.invalidateQueries({ queryKey: totpQueryKeys.sessions }),
  });
}

export function useRevokeOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<SessionsRevoked>('POST', '/api/user/sessions/revoke-others'),
    onSettled: () => client.invalidateQueries({ queryKey: totpQueryKeys.sessions }),
  });
}

/** A failed proof, in words for the page. */
export function proofErrorMessage(error: unknown, usingBackupCode: boolean): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return `Too many wrong codes. ${error.serverMessage ?? 'Try again later.'}`;
    if (error.code === 'replayed') return 'That code was already used. Wait for the next code in your app.';
    if (error.code === 'invalid_code') return usingBackupCode ? 'That backup code is not valid. Each backup code works once.' : 'That code is not right. Check your app and try again.';
    if (error.serverMessage) return error.serverMessage;
  }
  return 'Something went wrong. Try again.';
}
