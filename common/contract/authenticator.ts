/** The personal authenticator (/api/user/totp-accounts*, generate-totp-code, scan-qr). */
import { z } from 'zod';
import { OTP_ALGORITHMS, OTP_TYPES, type AccountInput, type OtpAccount as OtpAccountModel, type SkippedEntry as SkippedEntryModel } from '../otpauth/model';
import { isoDateTime, storableText } from './shared';

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

/** Loose shapes: common/otpauth's rules (shared with the page) give the precise messages. */
export const AccountInputBody = z.object({
  accountName: storableText().max(1000).default(''),
  issuer: storableText().max(1000).nullish(),
  secret: z.string().max(1000).default(''),
  algorithm: z.string().max(20).nullish(),
  digits: z.union([z.number(), z.string().max(20)]).nullish(),
  period: z.union([z.number(), z.string().max(20)]).nullish(),
  type: z.string().max(20).nullish(),
  counter: z.union([z.number(), z.string().max(30)]).nullish(),
}) satisfies z.ZodType<AccountInput, unknown>;

export const ImportOutcome = z.object({ added: z.array(AuthenticatorAccount), skipped: z.array(SkippedEntry) });
export type ImportOutcome = z.infer<typeof ImportOutcome>;

export const AccountIdParams = z.object({ id: z.string().min(1).max(40) });

/** POST /api/user/generate-totp-code (kept for SPEC.md §7; the page computes codes itself) */
export const GenerateAccountCodeBody = z.object({ accountId: z.string().min(1).max(40) });
export const GeneratedAccountCode = z.object({
  code: z.string(),
  /** seconds until a TOTP code changes; null for HOTP */
  timeRemaining: z.number().int().nullable(),
  expiresAt: isoDateTime.nullable(),
  /** HOTP: the counter the next code will use */
  counter: z.number().int().nullable(),
});
export type GeneratedAccountCode = z.infer<typeof GeneratedAccountCode>;

/** POST /api/user/scan-qr: the first account found, and all of them (a Google export holds several). */
export const ScanResult = OtpAccount.extend({
  /** 'otpauth' for one account's QR code, 'migration' for a Google Authenticator export */
  source: z.enum(['otpauth', 'migration']),
  accounts: z.array(OtpAccount),
  skipped: z.array(SkippedEntry),
});
export type ScanResult = z.infer<typeof ScanResult>;
