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

/** Any origin serves as the base: only whether the candidate leaves it matters. */
const RETURN_BASE = 'https://return-to.invalid';

/**
 * Only same-origin paths may be returned to after sign-in; anything else goes home. The candidate
 * is read the way a browser reads a Location header (WHATWG URL, which drops TAB/CR/LF and turns
 * `\` into `/`), so `/<TAB>/host` or `/\host` cannot become `//host`; what is returned is the
 * parsed path, re-serialised, so the browser sees exactly what was checked.
 */
export function safeReturnPath(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length > 2048) return '/';
  // Control characters and backslashes have no place in our own paths: refuse rather than repair.
  // eslint-disable-next-line no-control-regex
  if (!candidate.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(candidate)) return '/';
  let url: URL;
  try {
    url = new URL(candidate, RETURN_BASE);
  } catch {
    return '/';
  }
  if (url.origin !== RETURN_BASE) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//host` parses to the path `//host`, which a browser would read as another host.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/api/')) return '/';
  return path;
}
