/**
 * The signed-in person's own account TOTP (/api/user/{totp-status,setup-totp,confirm-totp,
 * check-totp,totp-backup-codes,disable-totp,generate-totp}): issue 19 makes it a second factor.
 */
import { z } from 'zod';
import { OTP_ALGORITHMS } from '../otpauth/model';
import { isoDateTime } from './shared';

export const TotpStatus = z.object({
  /** confirmed with a first code: it protects sign-in */
  configured: z.boolean(),
  /** set up, waiting for the first code (does not protect sign-in yet) */
  pending: z.boolean(),
  email: z.string(),
  /** when the first code confirmed it; null unless configured */
  protectedSince: isoDateTime.nullable(),
  /** the last sign-in completed with a code or a backup code */
  lastUsedAt: isoDateTime.nullable(),
  backupCodesLeft: z.number().int(),
});
export type TotpStatus = z.infer<typeof TotpStatus>;

/**
 * SPEC.md §7 sends no body. A pending setup is simply replaced by the next one; a configured TOTP
 * is turned off first (that needs a code), so `reset` is accepted and changes nothing.
 */
export const SetupTotpBody = z.object({ reset: z.boolean().optional() }).strict().nullish();

const sixDigits = z.string().regex(/^\d{6}$/, 'a 6-digit code');
const backupCode = z.string().min(8).max(32);

/** POST /api/user/confirm-totp, POST /api/user/check-totp: the code the phone shows. */
export const TotpCodeBody = z.object({ code: sixDigits }).strict();
export type TotpCodeBody = z.infer<typeof TotpCodeBody>;

/** A current code or one backup code: what turning off, new backup codes and the sign-in step need. */
export const TotpProofBody = z.union([z.object({ code: sixDigits }).strict(), z.object({ backupCode }).strict()]);
export type TotpProofBody = z.infer<typeof TotpProofBody>;

/** POST /api/user/disable-totp: a proof, or nothing while the setup is still pending (cancel). */
export const DisableTotpBody = TotpProofBody.nullish().or(z.object({}).strict());
export type DisableTotpBody = z.infer<typeof DisableTotpBody>;

/** What confirm-totp and disable-totp answer. */
export const TotpChanged = z.object({
  status: TotpStatus,
  /** sessions on other devices signed out by the change */
  otherSessionsSignedOut: z.number().int(),
});
export type TotpChanged = z.infer<typeof TotpChanged>;

/** POST /api/user/totp-backup-codes: 10 new codes, shown once; the old ones stop working. */
export const NewBackupCodes = z.object({ backupCodes: z.array(z.string()), otherSessionsSignedOut: z.number().int() });
export type NewBackupCodes = z.infer<typeof NewBackupCodes>;

/** POST /api/user/check-totp: does the phone's code match? (not a sign-in, nothing recorded but failures) */
export const TotpCheckResult = z.object({ matches: z.boolean() });
export type TotpCheckResult = z.infer<typeof TotpCheckResult>;

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
