/** The second step of a sign-in (POST /api/auth/second-factor, common/contract/second-factor.ts). */
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiSend } from '@/lib/api';
import type { SecondFactorBody } from '@common/contract/second-factor';

export type { SecondFactorBody } from '@common/contract/second-factor';

export function useCompleteSecondFactor() {
  return useMutation({
    mutationFn: (body: SecondFactorBody) => apiSend<void>('POST', '/api/auth/second-factor', body),
    // A wrong code is the page's to explain, not the global "Unauthorized" handler's.
    meta: { handlesUnauthorized: true },
  });
}

/** What to tell the person when a code (or backup code) was not accepted. */
export function secondFactorErrorMessage(error: unknown, usingBackupCode: boolean): string {
  if (error instanceof ApiError) {
    if (error.code === 'too_many_attempts' || error.status === 429) {
      const retryAfter = error.serverMessage?.match(/(\d+) min/)?.[1];
      return `Too many wrong codes. For your safety, try again in ${retryAfter ?? 'a few'} minutes.`;
    }
    if (error.code === 'replayed') return 'That code was already used. Wait for the next code in your app.';
    if (error.code === 'invalid_code') return usingBackupCode ? 'That backup code is not valid. Each backup code works once.' : 'That code is not right. Check your app and try again.';
    if (error.code === 'validation_failed') return usingBackupCode ? 'Enter a backup code like 7k3m-q9xp.' : 'Enter the 6 digits your app shows.';
    if (error.status === 401) return 'Your sign-in has expired. Sign in again.';
  }
  return 'Something went wrong. Try again.';
}
