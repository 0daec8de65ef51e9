import type { AppContext } from '../../context';
import { insertAuditEntry } from '../audit/repo';
import { recordUsed } from '../totp/repo';

/**
 * The seam every second step goes through (issue 19): a TOTP code, a backup code
 * (features/totp) or a passkey (features/passkeys) completes a half-signed-in session here.
 */
export type SecondFactorMethod = 'totp' | 'backup_code' | 'passkey';

/** What an impersonating administrator is told on every route of the second factor and the devices list. */
export const IMPERSONATION_REFUSED = 'Second-factor and session settings are not available while impersonating a user.';

/**
 * Clears the session's second-factor-pending mark, records when the account TOTP was last used
 * (a passkey keeps its own "last used"), and audits. Call only after the proof was checked.
 */
export async function completeSecondFactor(ctx: AppContext, sessionId: string, method: SecondFactorMethod, now = new Date()): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const session = await trx.selectFrom('session').select(['id', 'userId']).where('id', '=', sessionId).executeTakeFirst();
    if (!session) return;
    await trx.updateTable('session').set({ secondFactorPending: false }).where('id', '=', sessionId).execute();
    if (method !== 'passkey') await recordUsed(trx, session.userId, now);
    const user = await trx.selectFrom('user').select('email').where('id', '=', session.userId).executeTakeFirst();
    await insertAuditEntry(
      trx,
      { actorUserId: session.userId, actorLabel: user?.email ?? session.userId, action: 'auth.second_factor_completed', subjectType: 'user', subjectId: session.userId, details: { via: method, sessionId } },
      now,
    );
  });
}

/**
 * Signs the person out everywhere but `keepSessionId` (turning the TOTP on or off, new backup
 * codes, a passkey added or removed, or "sign out all others"). An administrator's impersonation
 * session is not the person's device and is left to its own 30-minute end. Audited; answers how
 * many sessions ended.
 */
export async function revokeOtherSessions(ctx: AppContext, userId: string, keepSessionId: string, reason: string, now = new Date()): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('session')
      .where('userId', '=', userId)
      .where('id', '!=', keepSessionId)
      .where('impersonatedBy', 'is', null)
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    const user = await trx.selectFrom('user').select('email').where('id', '=', userId).executeTakeFirst();
    await insertAuditEntry(
      trx,
      { actorUserId: userId, actorLabel: user?.email ?? userId, action: 'auth.sessions_revoked', subjectType: 'user', subjectId: userId, details: { reason, count, kept: keepSessionId } },
      now,
    );
    return count;
  });
}
