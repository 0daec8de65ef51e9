/**
 * The personal authenticator's account shapes. The accounts live in the end-to-end encrypted
 * vault (contract/vault.ts); GET /api/user/totp-accounts only reads the old server-side ones
 * once, to move them in. QR images are read in the browser (ScanResult is the page's own shape).
 */
import { z } from 'zod';
import { OTP_ALGORITHMS, OTP_TYPES, type OtpAccount as OtpAccountModel, type SkippedEntry as SkippedEntryModel } from '../otpauth/model';
import { isoDateTime } from './shared';

/** common/otpauth's account, as it travels (the compiler keeps the two in step). */
export const OtpAccount = z.object({
  type: z.enum(OTP_TYPES),
  issuer: z.string().nullable(),
  accountName: z.string(),
  secret: z.string(),
  algorithm: z.enum(OTP_ALGORITHMS),
  digits: z.number().int(),
  /** seconds per code (TOTP); 30 for HOTP, where it is not used */
  period: z.number().int(),
  /** the next HOTP counter; null for TOTP */
  counter: z.number().int().nullable(),
}) satisfies z.ZodType<OtpAccountModel>;

export const SkippedEntry = z.object({ reason: z.string(), label: z.string() }) satisfies z.ZodType<SkippedEntryModel>;

/** An account as its owner sees it; the secret is there because the browser computes the codes. */
export const AuthenticatorAccount = OtpAccount.extend({ id: z.string(), createdAt: isoDateTime });
export type AuthenticatorAccount = z.infer<typeof AuthenticatorAccount>;

export const ImportOutcome = z.object({ added: z.array(AuthenticatorAccount), skipped: z.array(SkippedEntry) });
export type ImportOutcome = z.infer<typeof ImportOutcome>;

/** A QR image read in the browser: the first account found, and all of them (a Google export holds several). */
export const ScanResult = OtpAccount.extend({
  /** 'otpauth' for one account's QR code, 'migration' for a Google Authenticator export */
  source: z.enum(['otpauth', 'migration']),
  accounts: z.array(OtpAccount),
  skipped: z.array(SkippedEntry),
});
export type ScanResult = z.infer<typeof ScanResult>;
