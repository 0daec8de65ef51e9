import type { AppContext } from '../../context';

/*
 * PLACEHOLDER: the second-factor branch replaces this file (the seam between the two branches).
 * The passkey feature calls only these two functions, with these signatures.
 */

export type SecondFactorMethod = 'totp' | 'backup_code' | 'passkey';

/** Marks a (half-signed-in) session as past its second step. No-op here: the second-factor branch replaces this file. */
export async function completeSecondFactor(_ctx: AppContext, _sessionId: string, _method: SecondFactorMethod): Promise<void> {
  // the second-factor branch replaces this file
}

/**
 * Ends every sign-in session of `userId` but `keepSessionId` (after a change to how the account
 * signs in, a stolen session must not outlive it). Answers how many were ended. The caller audits.
 */
export async function revokeOtherSessions(ctx: AppContext, userId: string, keepSessionId: string, _reason: string): Promise<number> {
  const result = await ctx.db.deleteFrom('session').where('userId', '=', userId).where('id', '!=', keepSessionId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
