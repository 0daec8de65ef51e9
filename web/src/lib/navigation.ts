/**
 * Full-page navigation (leaving the SPA, e.g. to /api/login). Kept in one module so tests can
 * replace it: jsdom does not implement navigation.
 */
export function hardNavigate(url: string): void {
  window.location.href = url;
}

/** The current in-app location: path, query and hash. */
export function currentPath(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}
