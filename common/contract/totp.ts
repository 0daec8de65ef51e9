/** The signed-in person's own account TOTP (/api/user/{totp-status,setup-totp,generate-totp}). */
import { z } from 'zod';
import { OTP_ALGORITHMS } from '../otpauth/model';
import { isoDateTime } from './shared';

export const TotpStatus = z.object({
  configured: z.boolean(),
  email: z.string(),
  /** when the current secret was made; null when not configured */
  configuredAt: isoDateTime.nullable(),
  backupCodesLeft: z.number().int(),
});
export type TotpStatus = z.infer<typeof TotpStatus>;

/** SPEC.md §7 sends no body; `{ "reset": true }` replaces a configured secret. */
export const SetupTotpBody = z.object({ reset: z.boolean().optional() }).strict().nullish();

/** Everything an authenticator app needs, and the backup codes, shown once. */
export const TotpSetupResult = z.object({
  /** a PNG data URI of the otpauth:// link */
  qrCode: z.string(),
  /** base32 */
  secret: z.string(),
  otpauthUri: z.string(),
  /** the secret in groups of four, for typing */
  manualEntry: z.string(),
  backupCodes: z.array(z.string()),
  algorithm: z.enum(OTP_ALGORITHMS),
  digits: z.number().int(),
  period: z.number().int(),
});
export type TotpSetupResult = z.infer<typeof TotpSetupResult>;

/** GET /api/user/generate-totp */
export const GeneratedCode = z.object({
  code: z.string(),
  /** ISO time (server clock) when the code stops being current */
  expiresAt: isoDateTime,
  /** whole seconds left when the server answered (1…period) */
  timeRemaining: z.number().int(),
  period: z.number().int(),
});
export type GeneratedCode = z.infer<typeof GeneratedCode>;
