/** The shapes, limits and messages every otpauth module shares, and its one error type. */

export const OTP_TYPES = ['totp', 'hotp'] as const;
export type OtpType = (typeof OTP_TYPES)[number];
export const OTP_ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const;
export type OtpAlgorithm = (typeof OTP_ALGORITHMS)[number];

/** A normalised account: base32 secret upper case without spaces or padding. */
export interface OtpAccount {
  type: OtpType;
  issuer: string | null;
  accountName: string;
  secret: string;
  algorithm: OtpAlgorithm;
  digits: number;
  /** seconds per code (TOTP); 30 for HOTP, where it is not used */
  period: number;
  /** the next HOTP counter; null for TOTP */
  counter: number | null;
}

/** What a person types or a client sends: everything but the name and the secret is optional. */
export interface AccountInput {
  accountName?: string | null;
  issuer?: string | null;
  secret?: string | null;
  algorithm?: string | null;
  digits?: number | string | null;
  period?: number | string | null;
  type?: string | null;
  counter?: number | string | null;
}

export interface SkippedEntry {
  /** why it was not imported, in words for a person */
  reason: string;
  /** which entry: "Issuer: name", "line 3", … — never the secret */
  label: string;
}

export interface ImportResult {
  accounts: OtpAccount[];
  skipped: SkippedEntry[];
}

export type ImportFormat = 'otpauth' | 'aegis' | '2fas' | 'bitwarden';

export const LIMITS = {
  digits: { min: 6, max: 8 },
  period: { min: 10, max: 300 },
  /** base32 characters: 8 = 40 bits (short legacy secrets exist); 256 = 160 bytes */
  secret: { min: 8, max: 256 },
  accountName: { max: 200 },
  issuer: { max: 200 },
} as const;

export const DEFAULTS = { algorithm: 'SHA1' as OtpAlgorithm, digits: 6, period: 30 };

/** SPEC.md §5 and §8: the words a person sees for a QR code that is not a TOTP one. */
export const INVALID_QR_MESSAGE = "Invalid QR Code: This doesn't appear to be a valid TOTP QR code.";
/** SPEC.md §8: the words for an image in which no QR code could be read. */
export const QR_NOT_FOUND_MESSAGE = 'QR Scan Failed: Could not read QR code from the image. Please try again or enter details manually.';

export type OtpauthErrorCode = 'invalid' | 'unrecognised' | 'password_required' | 'wrong_password';

/** A rule that input broke; `message` is written for a person and never contains a secret. */
export class OtpauthError extends Error {
  constructor(
    message: string,
    readonly code: OtpauthErrorCode = 'invalid',
    readonly field?: keyof OtpAccount | 'uri',
  ) {
    super(message);
    this.name = 'OtpauthError';
  }
}

export const fail = (message: string, field?: OtpauthError['field']): never => {
  throw new OtpauthError(message, 'invalid', field);
};

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
