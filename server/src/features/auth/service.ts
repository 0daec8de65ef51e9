import type { SessionUser } from '@common/contract/auth';
import type { Role } from './auth';

/** The signed-in person, as the web app sees it (`GET /api/auth/user`, common/contract/auth.ts). */
export type CurrentUser = SessionUser;

interface LibrarySessionUser {
  id: string;
  email: string;
  name?: string | null;
  image?: string | null;
  role?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

export function toCurrentUser(user: LibrarySessionUser, adminEmail: string): CurrentUser {
  const isAdmin = user.email.toLowerCase() === adminEmail;
  const nameParts = (user.name ?? '').trim().split(/\s+/).filter(Boolean);
  const role: Role = isAdmin ? 'admin' : user.role === 'financial_manager' ? 'financial_manager' : 'user';
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName ?? nameParts[0] ?? null,
    lastName: user.lastName ?? (nameParts.slice(1).join(' ') || null),
    profileImageUrl: user.image ?? null,
    role,
    isAdmin,
  };
}

/** Only same-origin paths may be returned to after sign-in; anything else goes home. */
export function safeReturnPath(candidate: unknown): string {
  if (typeof candidate !== 'string') return '/';
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return '/';
  if (candidate.startsWith('/api/')) return '/';
  if (/[\r\n]/.test(candidate) || candidate.length > 2048) return '/';
  return candidate;
}
