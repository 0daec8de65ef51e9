/**
 * A passkey as a vault key: WebAuthn's PRF extension makes the authenticator compute
 * HMAC(secret inside the passkey, salt), the same 32 bytes every time for the same salt, and
 * only after the person's verification (fingerprint, face, PIN). The vault wraps its key under
 * HKDF of that output (common/vault/crypto.ts). Nothing here talks to the server: the assertion
 * is not verified by anyone, because the PRF output itself is the secret.
 */
import { fromBase64, randomBytes, toBase64 } from '@common/vault/crypto';

export class PasskeyPrfError extends Error {
  override readonly name = 'PasskeyPrfError';
}

const toBase64Url = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function passkeysAvailable(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

interface PrfInputs {
  prf: { eval?: { first: BufferSource }; evalByCredential?: Record<string, { first: BufferSource }> };
}
interface PrfOutputs {
  prf?: { results?: { first?: ArrayBuffer } };
}

/**
 * Asks for a passkey and its PRF output. `salt` for any passkey of this site (adding one to the
 * vault), or `byCredential` for the passkeys the vault knows (unlocking), each with its own salt.
 * Answers the credential id (standard base64) and the 32-byte output.
 */
export async function passkeyPrf(options: { salt: Uint8Array<ArrayBuffer> } | { byCredential: Array<{ credentialId: string; salt: Uint8Array<ArrayBuffer> }> }): Promise<{ credentialId: string; output: Uint8Array<ArrayBuffer> }> {
  if (!passkeysAvailable()) throw new PasskeyPrfError('This browser has no passkeys.');
  const byCredential = 'byCredential' in options ? options.byCredential : null;
  const extensions: PrfInputs = byCredential
    ? { prf: { evalByCredential: Object.fromEntries(byCredential.map((c) => [toBase64Url(c.credentialId), { first: c.salt }])) } }
    : { prf: { eval: { first: (options as { salt: Uint8Array<ArrayBuffer> }).salt } } };
  let credential: PublicKeyCredential | null;
  try {
    credential = (await navigator.credentials.get({
      publicKey: {
        challenge: randomBytes(32),
        userVerification: 'required',
        timeout: 120_000,
        ...(byCredential ? { allowCredentials: byCredential.map((c) => ({ type: 'public-key' as const, id: fromBase64(c.credentialId) })) } : {}),
        extensions: extensions as AuthenticationExtensionsClientInputs,
      },
    })) as PublicKeyCredential | null;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotAllowedError') throw new PasskeyPrfError('The passkey was not used (cancelled or timed out).');
    throw error;
  }
  if (!credential) throw new PasskeyPrfError('No passkey was chosen.');
  const first = (credential.getClientExtensionResults() as PrfOutputs).prf?.results?.first;
  if (!first) throw new PasskeyPrfError('This passkey cannot unlock a vault: it does not support the PRF extension.');
  return { credentialId: toBase64(new Uint8Array(credential.rawId)), output: new Uint8Array(first.slice(0)) };
}
