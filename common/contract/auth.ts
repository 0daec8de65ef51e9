/** Who is signed in (GET /api/auth/user). Sign-in, sign-out and the OIDC callback are redirects, not JSON. */
import { z } from 'zod';
import { ImpersonationView } from './admin';

export const USER_ROLES = ['user', 'financial_manager', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** The signed-in person (the server's `request.currentUser`). */
export const SessionUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  role: z.enum(USER_ROLES),
  isAdmin: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** GET /api/auth/user: the person, and the impersonation this session runs under (the banner). */
export const AuthUser = SessionUser.extend({ impersonation: ImpersonationView.nullable() });
export type AuthUser = z.infer<typeof AuthUser>;

/**
 * A non-secret, script-readable cookie ("1") the server sets beside the httpOnly session cookie
 * and clears with it. Public pages skip GET /api/auth/user when it is absent, so a signed-out
 * visitor's page makes no call that answers 401 (a console error, and a request on the
 * critical path). It proves nothing: the session cookie alone authenticates.
 */
export const SESSION_HINT_COOKIE = 'sixdigit_session_hint';
