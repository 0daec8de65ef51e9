import type { SessionsRevoked, UserSessions } from '@common/contract/sessions';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { insertAuditEntry } from '../audit/repo';
import { revokeOtherSessions } from '../auth/second-factor';
import type { CurrentUser } from '../auth/service';
import * as repo from './repo';
import { describeUserAgent } from './user-agent';

export async function list(ctx: AppContext, user: CurrentUser, currentSessionId: string, now = new Date()): Promise<UserSessions> {
  const rows = await repo.listUserSessions(ctx.db, user.id, now);
  return {
    sessions: rows.map((row) => ({
      id: row.id,
      ...describeUserAgent(row.userAgent),
      ipAddress: row.ipAddress ?? '',
      signedInAt: row.createdAt.toISOString(),
      lastSeenAt: row.updatedAt.toISOString(),
      current: row.id === currentSessionId,
      secondFactorPending: row.secondFactorPending,
    })),
  };
}

/** Signs out one of the person's other devices (their own sessions only: another's id is 404). */
export async function revoke(ctx: AppContext, user: CurrentUser, currentSessionId: string, sessionId: string, now = new Date()): Promise<void> {
  if (sessionId === currentSessionId) throw new AppError('conflict', 'This is the device you are using: sign out instead.');
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteUserSession(trx, user.id, sessionId))) throw new AppError('not_found', 'No such session.');
    await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'auth.session_revoked', subjectType: 'user', subjectId: user.id, details: { sessionId } }, now);
  });
}

export async function revokeOthers(ctx: AppContext, user: CurrentUser, currentSessionId: string): Promise<SessionsRevoked> {
  return { signedOut: await revokeOtherSessions(ctx, user.id, currentSessionId, 'user_request') };
}
