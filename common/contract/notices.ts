/** What an impersonation leaves the user (/api/user/notices*). */
import { z } from 'zod';
import { isoDateTime } from './shared';

export const UserNotice = z.object({
  id: z.string(),
  kind: z.string(),
  message: z.string(),
  adminEmail: z.string().nullable(),
  reason: z.string().nullable(),
  startedAt: isoDateTime.nullable(),
  endedAt: isoDateTime,
  createdAt: isoDateTime,
  readAt: isoDateTime.nullable(),
});
export type UserNotice = z.infer<typeof UserNotice>;
export const UserNotices = z.object({ notices: z.array(UserNotice) });
export type UserNotices = z.infer<typeof UserNotices>;
export const NoticeIdParams = z.object({ id: z.string().min(1).max(40) });
