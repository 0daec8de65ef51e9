/**
 * The authenticator's calls (session cookie). Accounts live in the end-to-end encrypted vault
 * (`vault/session.ts`): the server holds only ciphertext, the page decrypts and computes codes
 * (DESIGN.md §9). Shapes come from common/contract.
 */
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { ImportOutcome } from '@common/contract/authenticator';
import type { AccountInput } from '@common/otpauth';
import { validateAccount } from '@common/otpauth';
import { toast } from '@/components/ui/use-toast';
import { loginUrl } from '@/features/auth/api';
import { isUnauthorized } from '@/lib/api';
import { hardNavigate } from '@/lib/navigation';
import { scanQrImage } from './qr-decode';
import { isNetworkFailure, lockVault, vaultSession, type VaultListAccount } from './vault/session';

export type { AuthenticatorAccount, ImportOutcome, ScanResult } from '@common/contract/authenticator';
export { isNetworkFailure, scanQrImage };

/** Larger files are not screenshots or photos of a QR code. */
export const MAX_QR_IMAGE_BYTES = 15 * 1024 * 1024;
export const QR_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** How often another device's changes are fetched (only what changed since the last revision). */
export const VAULT_SYNC_MS = 30_000;
/** SPEC §8: the authenticator's own "Session Expired" message, then sign-in after 1 s. */
export const SESSION_EXPIRED_REDIRECT_MS = 1000;

/** The page shows its own message for a 401 (SPEC §8), not the global "Unauthorized" one. */
const OWN_401 = { handlesUnauthorized: true } as const;

let sessionExpiring = false;

/** SPEC §8: "Session Expired — Please log in again to continue.", then sign in again after 1 s. */
export function sessionExpired(): void {
  if (sessionExpiring) return;
  sessionExpiring = true;
  lockVault();
  toast({ variant: 'destructive', title: 'Session Expired', description: 'Please log in again to continue.' });
  setTimeout(() => {
    sessionExpiring = false;
    hardNavigate(loginUrl());
  }, SESSION_EXPIRED_REDIRECT_MS);
}


/** The vault on this page, kept in step with the server (every VAULT_SYNC_MS and on focus). */
export function useVault(userId: string) {
  const session = vaultSession(userId);
  const view = useSyncExternalStore(session.subscribe, session.getView, session.getView);
  useEffect(() => {
    session.load().catch(() => undefined);
    const sync = () => {
      if (document.visibilityState === 'visible') session.refresh().catch(() => undefined);
    };
    const timer = setInterval(sync, VAULT_SYNC_MS);
    window.addEventListener('focus', sync);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', sync);
    };
  }, [session]);
  const retry = useCallback(() => session.refresh().catch(() => undefined), [session]);
  return { view, session, retry };
}

function checked(input: AccountInput) {
  return validateAccount(input);
}

export function useAddAccount(userId: string) {
  return useMutation({
    mutationFn: (input: AccountInput): Promise<VaultListAccount> => vaultSession(userId).addAccount(checked(input)),
    meta: OWN_401,
  });
}

export function useDeleteAccount(userId: string) {
  return useMutation({ mutationFn: (id: string) => vaultSession(userId).deleteAccount(id), meta: OWN_401 });
}

export function useAdvanceCounter(userId: string) {
  return useMutation({ mutationFn: (id: string) => vaultSession(userId).advanceCounter(id), meta: OWN_401 });
}

export interface ImportProgress {
  done: number;
  total: number;
}

/** An import that stopped part-way: what was added before the failure stays added (`partial` says what). */
export class ImportError extends Error {
  override readonly name = 'ImportError';

  constructor(
    cause: unknown,
    readonly partial: ImportOutcome,
  ) {
    super(cause instanceof Error ? cause.message : 'Import failed', { cause });
  }
}


/** Adds each account to the vault (one encrypted entry each), reporting progress. */
export async function importIntoVault(userId: string, accounts: AccountInput[], onProgress: (progress: ImportProgress) => void): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { added: [], skipped: [] };
  const total = accounts.length;
  onProgress({ done: 0, total });
  try {
    await vaultSession(userId).addAccounts(accounts.map((input) => checked(input)), (added) => {
      outcome.added.push(added);
      onProgress({ done: outcome.added.length, total });
    });
  } catch (error) {
    throw new ImportError(error, outcome);
  }
  return outcome;
}

export function useImportAccounts(userId: string) {
  return useMutation({
    mutationFn: ({ accounts, onProgress }: { accounts: AccountInput[]; onProgress: (progress: ImportProgress) => void }) =>
      importIntoVault(userId, accounts, onProgress),
    meta: OWN_401,
  });
}

/** Reads an image's QR code(s) on this device (`qr-decode.ts`); the image is never uploaded. */
export function useScanQrImage() {
  return useMutation({ mutationFn: scanQrImage });
}

/** A mutation's 401 ends the session (SPEC §8); true when it was one. */
export function handledAsSessionExpiry(error: unknown): boolean {
  if (!isUnauthorized(error) && !(error instanceof ImportError && isUnauthorized(error.cause))) return false;
  sessionExpired();
  return true;
}
