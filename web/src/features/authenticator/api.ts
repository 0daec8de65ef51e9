/**
 * The authenticator's calls (session cookie). Shapes come from common/contract/authenticator.ts,
 * the schemas the server validates its answers with.
 *
 * Codes are never asked of the server: the list carries each account's secret and the page
 * computes codes itself (DESIGN.md §9), so `POST /api/user/generate-totp-code` is not called.
 * The list is kept encrypted on this device (`offline-store.ts`) and shown from there when the
 * network is down.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AuthenticatorAccount, ImportOutcome, ScanResult } from '@common/contract/authenticator';
import type { AccountInput } from '@common/otpauth';
import { shouldRetry } from '@/app/query-client';
import { toast } from '@/components/ui/use-toast';
import { loginUrl } from '@/features/auth/api';
import { ApiError, apiGet, apiSend, isUnauthorized } from '@/lib/api';
import { hardNavigate } from '@/lib/navigation';
import { loadAccounts, saveAccounts } from './offline-store';

export type { AuthenticatorAccount, ImportOutcome, ScanResult } from '@common/contract/authenticator';

export interface AccountsData {
  accounts: AuthenticatorAccount[];
  /** True when the network is down and these are the accounts saved on this device. */
  offline: boolean;
}

export const ACCOUNTS_PATH = '/api/user/totp-accounts';
export const IMPORT_PATH = '/api/user/totp-accounts/import';
export const SCAN_QR_PATH = '/api/user/scan-qr';
/** The multipart field the server reads the image from. */
export const QR_IMAGE_FIELD = 'qr-image';
/** The server's upload limit (server/src/features/authenticator/qr-image.ts). */
export const MAX_QR_IMAGE_BYTES = 5 * 1024 * 1024;
export const QR_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** SPEC §7 polls the list every 30 s: one request for all accounts, never one per code. */
export const ACCOUNTS_REFETCH_MS = 30_000;
/**
 * Accounts per import request. The server takes up to 500 in one request but allows 10 import
 * requests a minute; 100 keeps the largest import (500) to 5 requests with visible progress.
 */
export const IMPORT_CHUNK_SIZE = 100;
/** SPEC §8: the authenticator's own "Session Expired" message, then sign-in after 1 s. */
export const SESSION_EXPIRED_REDIRECT_MS = 1000;

export const authenticatorQueryKeys = {
  accounts: (userId: string) => [ACCOUNTS_PATH, userId] as const,
};

/** The page shows its own message for a 401 (SPEC §8), not the global "Unauthorized" one. */
const OWN_401 = { handlesUnauthorized: true } as const;

let sessionExpiring = false;

/** SPEC §8: "Session Expired — Please log in again to continue.", then sign in again after 1 s. */
export function sessionExpired(): void {
  if (sessionExpiring) return;
  sessionExpiring = true;
  toast({ variant: 'destructive', title: 'Session Expired', description: 'Please log in again to continue.' });
  setTimeout(() => {
    sessionExpiring = false;
    hardNavigate(loginUrl());
  }, SESSION_EXPIRED_REDIRECT_MS);
}

/** True when a call failed because there is no network (not because the server said no). */
export function isNetworkFailure(error: unknown): boolean {
  if (error instanceof ApiError) return false;
  if (error instanceof DOMException && error.name === 'AbortError') return false;
  return error instanceof TypeError || (typeof navigator !== 'undefined' && navigator.onLine === false);
}

/** Saving the offline copy is best effort: a failure must not break the page. */
function keepOfflineCopy(userId: string, accounts: AuthenticatorAccount[]): void {
  saveAccounts(userId, accounts).catch(() => undefined);
}

/**
 * GET /api/user/totp-accounts; each answer is saved on this device. When the network is down the
 * saved copy is shown instead (and the query keeps polling, so it recovers by itself).
 */
export async function fetchAccounts(userId: string, signal?: AbortSignal): Promise<AccountsData> {
  try {
    const accounts = await apiGet<AuthenticatorAccount[]>(ACCOUNTS_PATH, { signal });
    keepOfflineCopy(userId, accounts);
    return { accounts, offline: false };
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    const saved = await loadAccounts<AuthenticatorAccount>(userId).catch(() => null);
    if (saved === null) throw error;
    return { accounts: saved, offline: true };
  }
}

/** A 4xx answer (e.g. 403 while impersonating) will not change by asking again at once. */
function retryUnlessRefused(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return shouldRetry(failureCount, error);
}

export function useAuthenticatorAccounts(userId: string) {
  return useQuery({
    queryKey: authenticatorQueryKeys.accounts(userId),
    queryFn: ({ signal }) => fetchAccounts(userId, signal),
    retry: retryUnlessRefused,
    refetchInterval: ACCOUNTS_REFETCH_MS,
    meta: OWN_401,
  });
}

/** Changes the cached list (and the copy on this device) after a successful change. */
function updateAccounts(client: QueryClient, userId: string, change: (accounts: AuthenticatorAccount[]) => AuthenticatorAccount[]): void {
  const key = authenticatorQueryKeys.accounts(userId);
  const current = client.getQueryData<AccountsData>(key);
  if (current && !current.offline) {
    const accounts = change(current.accounts);
    client.setQueryData<AccountsData>(key, { accounts, offline: false });
    keepOfflineCopy(userId, accounts);
  }
  void client.invalidateQueries({ queryKey: key });
}

export function useAddAccount(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AccountInput) => apiSend<AuthenticatorAccount>('POST', ACCOUNTS_PATH, input),
    onSuccess: (added) => updateAccounts(client, userId, (accounts) => [...accounts.filter((a) => a.id !== added.id), added]),
    meta: OWN_401,
  });
}

export function useDeleteAccount(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>('DELETE', `${ACCOUNTS_PATH}/${encodeURIComponent(id)}`),
    onSuccess: (_answer, id) => updateAccounts(client, userId, (accounts) => accounts.filter((a) => a.id !== id)),
    meta: OWN_401,
  });
}

export interface ImportProgress {
  done: number;
  total: number;
}

/**
 * POST /api/user/totp-accounts/import in chunks of IMPORT_CHUNK_SIZE, reporting progress. A chunk
 * that fails stops the import; what earlier chunks added stays added (`error.partial` says what).
 */
export class ImportError extends Error {
  override readonly name = 'ImportError';

  constructor(
    cause: unknown,
    readonly partial: ImportOutcome,
  ) {
    super(cause instanceof Error ? cause.message : 'Import failed', { cause });
  }
}

export async function importInChunks(accounts: AccountInput[], onProgress: (progress: ImportProgress) => void): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { added: [], skipped: [] };
  onProgress({ done: 0, total: accounts.length });
  for (let start = 0; start < accounts.length; start += IMPORT_CHUNK_SIZE) {
    const chunk = accounts.slice(start, start + IMPORT_CHUNK_SIZE);
    try {
      const answer = await apiSend<ImportOutcome>('POST', IMPORT_PATH, { accounts: chunk });
      outcome.added.push(...answer.added);
      outcome.skipped.push(...answer.skipped);
    } catch (error) {
      throw new ImportError(error, outcome);
    }
    onProgress({ done: Math.min(start + chunk.length, accounts.length), total: accounts.length });
  }
  return outcome;
}

export function useImportAccounts(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ accounts, onProgress }: { accounts: AccountInput[]; onProgress: (progress: ImportProgress) => void }) =>
      importInChunks(accounts, onProgress),
    onSuccess: (outcome) => updateAccounts(client, userId, (accounts) => [...accounts, ...outcome.added]),
    onError: (error) => {
      if (error instanceof ImportError && error.partial.added.length > 0) {
        updateAccounts(client, userId, (accounts) => [...accounts, ...error.partial.added]);
      }
    },
    meta: OWN_401,
  });
}

/** POST /api/user/scan-qr: the server reads the QR code(s) of a PNG, JPEG or WebP image. */
export async function scanQrImage(file: Blob): Promise<ScanResult> {
  const form = new FormData();
  form.append(QR_IMAGE_FIELD, file);
  return apiSend<ScanResult>('POST', SCAN_QR_PATH, form);
}

export function useScanQrImage() {
  return useMutation({ mutationFn: scanQrImage, meta: OWN_401 });
}

/** A mutation's 401 ends the session (SPEC §8); true when it was one. */
export function handledAsSessionExpiry(error: unknown): boolean {
  if (!isUnauthorized(error) && !(error instanceof ImportError && isUnauthorized(error.cause))) return false;
  sessionExpired();
  return true;
}
