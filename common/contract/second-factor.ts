/** POST /api/auth/second-factor: the second step of a sign-in (issue 19). */
import { z } from 'zod';

/** `{ "code": "123456" }` from the authenticator app, or `{ "backupCode": "7k3m-q9xp" }`. */
export const SecondFactorBody = z.union([
  z.object({ code: z.string().regex(/^\d{6}$/, 'a 6-digit code') }).strict(),
  z.object({ backupCode: z.string().min(8).max(32) }).strict(),
]);
export type SecondFactorBody = z.infer<typeof SecondFactorBody>;

/** The error code every cookie route answers (401) while a session waits for its second step. */
export const SECOND_FACTOR_REQUIRED = 'second_factor_required';
