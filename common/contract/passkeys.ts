/**
 * Passkeys (WebAuthn): the signed-in person's list (/api/user/passkeys*), sign-in and the second
 * step with one (/api/auth/passkey/*), and the administrator's MFA by passkey
 * (/api/admin/mfa/passkey/*). The ceremony options and the browser's responses are WebAuthn's
 * own JSON forms (what @simplewebauthn/browser takes and gives); they are loose objects here so a
 * field a newer browser adds is carried, not dropped.
 */
import { z } from 'zod';
import { isoDateTime, storableText } from './shared';

export const Passkey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoDateTime,
  lastUsedAt: isoDateTime.nullable(),
  /** the authenticator reported the PRF extension at registration (the vault can unlock with it) */
  prfSupported: z.boolean(),
  /** synced (multiDevice) or bound to one device */
  deviceType: z.enum(['singleDevice', 'multiDevice']),
  backedUp: z.boolean(),
  transports: z.array(z.string()),
});
export type Passkey = z.infer<typeof Passkey>;

export const PasskeyList = z.object({ passkeys: z.array(Passkey) });
export type PasskeyList = z.infer<typeof PasskeyList>;

export const PasskeyName = storableText().trim().min(1, 'Give the passkey a name.').max(60, 'At most 60 characters.');

/** PublicKeyCredentialCreationOptionsJSON */
export const RegistrationOptions = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ alg: z.number(), type: z.string() })),
});
export type RegistrationOptions = z.infer<typeof RegistrationOptions>;

/** PublicKeyCredentialRequestOptionsJSON */
export const AuthenticationOptions = z.looseObject({
  challenge: z.string(),
  rpId: z.string().optional(),
  allowCredentials: z.array(z.looseObject({ id: z.string(), type: z.string() })).optional(),
  userVerification: z.string().optional(),
});
export type AuthenticationOptions = z.infer<typeof AuthenticationOptions>;

const base64url = z.string().max(8192).regex(/^[A-Za-z0-9_-]*$/, 'not base64url');

/** RegistrationResponseJSON, as the browser library returns it. */
export const RegistrationResponse = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  authenticatorAttachment: z.string().optional(),
  clientExtensionResults: z.looseObject({}),
});

/** AuthenticationResponseJSON, as the browser library returns it. */
export const AuthenticationResponse = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.string().optional(),
  clientExtensionResults: z.looseObject({}),
});

export const AddPasskeyBody = z.object({ name: PasskeyName, response: RegistrationResponse });
export const RenamePasskeyBody = z.object({ name: PasskeyName });
export const PasskeyParams = z.object({ id: z.string().max(64) });
export const PasskeyAssertionBody = z.object({ response: AuthenticationResponse });

/** After adding: the passkey, and how many other sign-in sessions were ended. */
export const PasskeyAdded = z.object({ passkey: Passkey, otherSessionsEnded: z.number().int() });
export type PasskeyAdded = z.infer<typeof PasskeyAdded>;

export const PasskeyRemoved = z.object({ otherSessionsEnded: z.number().int() });
export type PasskeyRemoved = z.infer<typeof PasskeyRemoved>;

/** POST /api/auth/passkey/verify: signed in (a new session), or this session's second step done. */
export const PasskeySignedIn = z.object({ signedIn: z.literal(true), secondStep: z.boolean() });
export type PasskeySignedIn = z.infer<typeof PasskeySignedIn>;
