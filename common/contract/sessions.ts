/** The signed-in person's sessions ("Signed-in devices"): /api/user/sessions*. */
import { z } from 'zod';
import { isoDateTime } from './shared';

export const UserSession = z.object({
  id: z.string(),
  /** e.g. "Chrome 131", or "Unknown browser" */
  browser: z.string(),
  /** e.g. "Android 14", "macOS", or "Unknown system" */
  os: z.string(),
  /** the address the session signed in from (empty when unknown) */
  ipAddress: z.string(),
  signedInAt: isoDateTime,
  lastSeenAt: isoDateTime,
  /** the session this request came with */
  current: z.boolean(),
  /** still waiting for its second step */
  secondFactorPending: z.boolean(),
});
export type UserSession = z.infer<typeof UserSession>;

export const UserSessions = z.object({ sessions: z.array(UserSession) });
export type UserSessions = z.infer<typeof UserSessions>;

export const SessionIdParams = z.object({ id: z.string().min(1).max(64) });

export const SessionsRevoked = z.object({ signedOut: z.number().int() });
export type SessionsRevoked = z.infer<typeof SessionsRevoked>;
