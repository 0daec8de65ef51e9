/**
 * Passkeys (WebAuthn): the person's list, adding one, and the assertion ceremonies (sign-in, the
 * second step, admin MFA). Shapes come from common/contract/passkeys.ts; the browser side of each
 * ceremony is @simplewebauthn/browser.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { ApiError, apiGet, apiSend } from '@/lib/api';
import type { AuthenticationOptions, Passkey, PasskeyAdded, PasskeyList, PasskeyRemoved, PasskeySignedIn, RegistrationOptions } from '@common/contract/passkeys';
import type { MfaVerified } from '@common/contract/admin';

export type { Passkey, PasskeyAdded, PasskeyRemoved, PasskeySignedIn } from '@common/contract/passkeys';

export const passkeyQueryKeys = { list: ['/api/user/passkeys'] as const };

export function usePasskeys() {
  return useQuery({
    queryKey: passkeyQueryKeys.list,
    queryFn: ({ signal }) => apiGet<PasskeyList>('/api/user/passkeys', { signal }).then((r) => r.passkeys),
  });
}

/** Options from the server → the browser's create() → the server verifies and stores it. */
export async function addPasskey(name: string): Promise<PasskeyAdded> {
  const options = await apiSend<RegistrationOptions>('POST', '/api/user/passkeys/registration-options', {});
  const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return apiSend<PasskeyAdded>('POST', '/api/user/passkeys', { name, response });
}

export function useAddPasskey() {
  const client = useQueryClient();
  return useMutation({ mutationFn: addPasskey, onSettled: () => client.invalidateQueries({ queryKey: passkeyQueryKeys.list }) });
}

export function useRenamePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => apiSend<Passkey>('PATCH', `/api/user/passkeys/${encodeURIComponent(id)}`, { name }),
    onSettled: () => client.invalidateQueries({ queryKey: passkeyQueryKeys.list }),
  });
}

export function useDeletePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<PasskeyRemoved>('DELETE', `/api/user/passkeys/${encodeURIComponent(id)}`),
    onSettled: () => client.invalidateQueries({ queryKey: passkeyQueryKeys.list }),
  });
}

async function assertWith<T>(optionsUrl: string, verifyUrl: string, useBrowserAutofill = false): Promise<T> {
  const options = await apiSend<AuthenticationOptions>('POST', optionsUrl, {});
  const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill });
  return apiSend<T>('POST', verifyUrl, { response });
}

/**
 * Signs in with a passkey (signed out: a new session), or completes the second step of a
 * half-signed-in session. `autofill`: wait for the person to pick a passkey from the browser's
 * autofill list (conditional mediation) instead of showing the passkey dialog now.
 */
export function signInWithPasskey(autofill = false): Promise<PasskeySignedIn> {
  return assertWith<PasskeySignedIn>('/api/auth/passkey/options', '/api/auth/passkey/verify', autofill);
}

/** The administrator's MFA by passkey (instead of the authenticator code). */
export function verifyAdminMfaWithPasskey(): Promise<MfaVerified> {
  return assertWith<MfaVerified>('/api/admin/mfa/passkey/options', '/api/admin/mfa/passkey/verify');
}

/** The person cancelled (or the browser gave up): no error to show, just nothing happened. */
export function isCancelled(error: unknown): boolean {
  const name = error instanceof WebAuthnError ? (error.cause as Error | undefined)?.name : (error as Error | undefined)?.name;
  return name === 'NotAllowedError' || name === 'AbortError' || (error instanceof WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED');
}

/** A sentence for what went wrong, whether the browser refused or the server did. */
export function passkeyErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? 'The server could not check the passkey. Try again.';
  if (error instanceof WebAuthnError) {
    if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device already holds a passkey for your account.';
    if (error.code === 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT') return 'This authenticator cannot check that it is you (no PIN, fingerprint or face unlock).';
    if (error.code === 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT') return 'This authenticator cannot store a passkey (only a security key with resident keys can).';
    if (error.code === 'ERROR_INVALID_DOMAIN' || error.code === 'ERROR_INVALID_RP_ID') return 'Passkeys work only on the site’s own secure address (https).';
  }
  if (isCancelled(error)) return 'The passkey request was cancelled or timed out. Nothing was changed.';
  if (error instanceof Error && /not supported/i.test(error.message)) return 'This browser cannot use passkeys.';
  return 'The browser refused the passkey request. Try again, or use another device.';
}
