import { createContext, useContext, type ReactNode } from 'react';

/**
 * The origin the visitor reached this page at (code samples, share links). When the server
 * renders a public page it passes the request's own origin, so its HTML and the browser's first
 * render agree and hydration finds no difference; in the browser it is the window's origin.
 */
const PageOriginContext = createContext<string | undefined>(undefined);

export function PageOriginProvider({ origin, children }: { origin: string | undefined; children: ReactNode }) {
  return <PageOriginContext.Provider value={origin}>{children}</PageOriginContext.Provider>;
}

/** Shown where no origin is known (a test renderer with an opaque origin). */
export const UNKNOWN_ORIGIN = 'https://your-sixdigit-host';

export function usePageOrigin(): string {
  const given = useContext(PageOriginContext);
  if (given) return given;
  if (typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null') return window.location.origin;
  return UNKNOWN_ORIGIN;
}
