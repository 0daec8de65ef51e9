import { z } from 'zod';

/** Shared pieces of the public API's contract (DESIGN.md §5); OpenAPI is generated from these. */
export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().meta({ example: 'validation_failed' }),
      message: z.string().meta({ description: 'A readable sentence; branch on code, not on this.' }),
      request_id: z.string(),
      doc_url: z.string().meta({ description: "This code's entry in the docs.", example: 'https://sixdigit.in/docs#error-validation_failed' }),
      details: z
        .array(z.object({ path: z.string().meta({ description: "Dotted field path ('' for the whole body)." }), message: z.string() }))
        .optional()
        .meta({ description: 'On validation_failed: one entry per refused field.' }),
    }),
  })
  .meta({ id: 'Error' });

/** Text we store: PostgreSQL text cannot hold U+0000, so refuse it on both engines alike. */
export const storableText = () => z.string().refine((s) => !s.includes('\u0000'), 'must not contain NUL (U+0000) characters');

/** Every answer that describes a record says which mode it belongs to. */
const livemode = z.boolean().meta({ description: 'false when made with a test key (sk_test_…): free, and seen only by test keys; true for live.' });

export const userId = storableText().min(1).max(128).meta({ description: 'Your identifier for the end user (1–128 characters).', example: 'user_42' });
const purpose = storableText().max(100).optional().meta({ description: 'Free text kept with the record, e.g. "login" or "payout".' });
const digitsCode = (name: string) => z.string().regex(/^\d{6,8}$/, `${name} must be 6 to 8 digits`);
const base32Secret = z
  .string()
  .max(256)
  .transform((s) => s.replace(/\s+/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z2-7]{16,}=*$/, 'secret must be base32 (A–Z, 2–7), at least 16 characters'));

export const GenerateBody = z
  .object({
    user_id: userId,
    purpose,
    label: storableText().min(1).max(200).optional().meta({ description: 'Account name shown in the authenticator (default: user_id).' }),
    issuer: storableText().min(1).max(200).optional().meta({ description: 'Issuer shown in the authenticator (default: your company name).' }),
    algorithm: z.enum(['SHA1', 'SHA256', 'SHA512']).optional().meta({ description: 'Default SHA1 (what every authenticator supports).' }),
    digits: z.number().int().min(6).max(8).optional().meta({ description: 'Default 6.' }),
    period: z.number().int().min(15).max(120).optional().meta({ description: 'Seconds per code, default 30.' }),
    rotate: z.boolean().optional().meta({ description: 'Replace the secret of an already enrolled user.' }),
  })
  .strict();

export const GenerateResponse = z.object({
  user_id: z.string(),
  secret: z.string().meta({ description: 'Base32 secret. Shown once; Sixdigit stores it encrypted.' }),
  otpauth_uri: z.string(),
  qr_code: z.string().meta({ description: 'PNG data URI of the otpauth URI.' }),
  manual_entry: z.string(),
  algorithm: z.enum(['SHA1', 'SHA256', 'SHA512']),
  digits: z.number().int(),
  period: z.number().int(),
  backup_codes: z.array(z.string()).meta({ description: '10 single-use codes. Shown once; stored hashed.' }),
  livemode,
});

export const VerifyBody = z
  .object({
    user_id: userId.optional(),
    totp_code: digitsCode('totp_code').optional(),
    backup_code: z.string().min(8).max(32).optional(),
    secret: base32Secret.optional().meta({ description: 'Stateless mode: the base32 secret you keep.' }),
    token: digitsCode('token').optional(),
    window: z.number().int().min(0).max(10).optional().meta({ description: 'Steps accepted either side of now (default 1).' }),
    purpose,
  })
  .strict()
  .superRefine((body, ctx) => {
    const managedTotp = body.user_id !== undefined && body.totp_code !== undefined;
    const managedBackup = body.user_id !== undefined && body.backup_code !== undefined;
    const stateless = body.secret !== undefined && body.token !== undefined;
    const modes = [managedTotp, managedBackup, stateless].filter(Boolean).length;
    if (modes !== 1 || (stateless && body.user_id !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'send exactly one of: user_id + totp_code, user_id + backup_code, or secret + token',
      });
    }
    if (managedBackup && body.window !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['window'], message: 'window applies to TOTP codes only' });
    }
  })
  .meta({ description: 'Send exactly one of: user_id + totp_code (enrolled user), user_id + backup_code, or secret + token (stateless).' });

export const VerifyResponse = z.object({
  verified: z.boolean(),
  status: z.enum(['verified', 'invalid_code', 'expired', 'replayed']),
  verification_id: z.string(),
  request_id: z.string(),
  timestamp: z.string(),
  cost: z.string().meta({ description: 'Rupees charged, e.g. "0.10" ("0.00" in test mode).' }),
  balance: z.string().meta({ description: 'Rupees left after this check (unchanged by a test check).' }),
  backup_codes_left: z.number().int().optional(),
  livemode,
});

export const ProfileResponse = z.object({
  business_id: z.string(),
  company_name: z.string(),
  balance: z.string(),
  currency: z.literal('INR'),
  verifications_left: z.number().int(),
  rate_limit: z.object({ requests_per_minute: z.number().int().meta({ description: "This key's limit (a test key has its own)." }) }),
  livemode: z.boolean().meta({ description: 'false when asked with a test key.' }),
});

export const TestResponse = z.object({ ok: z.literal(true), business_id: z.string(), livemode: z.boolean().meta({ description: 'false for a test key.' }) });

export const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(255).optional(),
});

// --- lookups ----------------------------------------------------------------------------------

const verificationId = z.string().min(1).max(40).meta({ description: 'A verification_id from POST /verify.', example: 'ver_8Jq2x0aZ7bYtLw3KpQ4n' });
export const pageLimit = z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Items per page, 1–100 (default 20).' });
const isoTime = z.iso.datetime({ offset: true }).meta({ description: 'An ISO 8601 date-time, e.g. 2026-11-25T10:00:00Z.' });

export const VerificationParams = z.object({ verification_id: verificationId });
export const UserParams = z.object({ user_id: userId });

export const ListVerificationsQuery = z
  .object({
    user_id: userId.optional().meta({ description: 'Only this enrolled user’s checks.' }),
    status: z.enum(['verified', 'invalid_code', 'expired', 'replayed']).optional(),
    created_after: isoTime.optional().meta({ description: 'Only checks after this moment (exclusive).' }),
    created_before: isoTime.optional().meta({ description: 'Only checks before this moment (exclusive).' }),
    limit: pageLimit,
    starting_after: verificationId.optional().meta({ description: 'The last verification_id of the previous page.' }),
  })
  .strict();

export const ListUsersQuery = z
  .object({
    limit: pageLimit,
    starting_after: userId.optional().meta({ description: 'The last user_id of the previous page.' }),
  })
  .strict();

export const VerificationObject = z.object({
  verification_id: z.string(),
  user_id: z.string().nullable().meta({ description: 'null for a stateless check.' }),
  mode: z.enum(['managed', 'stateless']),
  method: z.enum(['totp', 'backup']),
  status: z.enum(['verified', 'invalid_code', 'expired', 'replayed']),
  verified: z.boolean(),
  purpose: z.string().nullable(),
  cost: z.string().meta({ description: 'Rupees charged, e.g. "0.10" ("0.00" in test mode).' }),
  created_at: z.string(),
  livemode,
});

export const VerificationList = z.object({
  data: z.array(VerificationObject).meta({ description: 'Newest first.' }),
  has_more: z.boolean().meta({ description: 'More follow: ask again with starting_after set to the last verification_id.' }),
});

export const UserObject = z.object({
  user_id: z.string(),
  enrolled_at: z.string(),
  algorithm: z.enum(['SHA1', 'SHA256', 'SHA512']),
  digits: z.number().int(),
  period: z.number().int(),
  purpose: z.string().nullable(),
  last_verified_at: z.string().nullable().meta({ description: 'The last accepted check, or null.' }),
  backup_codes_left: z.number().int(),
  livemode,
});

export const UserList = z.object({
  data: z.array(UserObject).meta({ description: 'Newest enrolment first.' }),
  has_more: z.boolean().meta({ description: 'More follow: ask again with starting_after set to the last user_id.' }),
});
