import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './service';

const APP = 'https://app.example';

/** Where a browser would go if it got this Location header from the app. */
function browserTarget(location: string): string {
  return new URL(location, `${APP}/api/login`).origin;
}

describe('safeReturnPath (the page to come back to after sign-in)', () => {
  it.each(['/business', '/totp?tab=accounts', '/admin/audit#top', '/%09/host', '/%2F%2Fhost'])('keeps the same-origin path %j', (candidate) => {
    const path = safeReturnPath(candidate);
    expect(path).toBe(candidate);
    expect(browserTarget(path)).toBe(APP);
  });

  it.each([
    ['slash, TAB, slash', '/\t/evil.example'],
    ['slash, newline, slash', '/\n/evil.example'],
    ['slash, CR, slash', '/\r/evil.example'],
    ['slash, backslash', '/\\evil.example'],
    ['backslash, backslash', '\\\\evil.example'],
    ['slash, backslash, backslash', '/\\\\evil.example'],
    ['protocol-relative', '//evil.example'],
    ['protocol-relative with path', '//evil.example/x'],
    ['scheme without slashes', 'https:evil.example'],
    ['absolute URL', 'https://evil.example/'],
    ['javascript URL', 'javascript:alert(1)'],
    ['dot segment that collapses to //', '/.//evil.example'],
    ['dot-dot segment that collapses to //', '/x/..//evil.example'],
    ['leading space', ' //evil.example'],
    ['NUL', '/\u0000/evil.example'],
    ['an API path', '/api/logout'],
    ['an API path after dot segments', '/x/../api/logout'],
    ['empty', ''],
    ['too long', `/${'a'.repeat(2048)}`],
  ])('sends %s home', (_name, candidate) => {
    expect(safeReturnPath(candidate)).toBe('/');
  });

  it('sends anything that is not a string home', () => {
    expect(safeReturnPath(undefined)).toBe('/');
    expect(safeReturnPath(['/business'])).toBe('/');
  });

  it('never returns a path a browser would resolve to another origin (every nasty variant)', () => {
    const hosts = ['evil.example', '127.0.0.1'];
    const prefixes = ['/', '//', '/\t/', '/\n/', '/\\', '\\/', '/%09/', '/ /', '/./', '/.//', 'https:', 'https://', '///'];
    for (const prefix of prefixes) for (const host of hosts) {
      const path = safeReturnPath(`${prefix}${host}`);
      expect(browserTarget(path), `${JSON.stringify(prefix + host)} → ${path}`).toBe(APP);
      expect(path.startsWith('//')).toBe(false);
    }
  });
});
