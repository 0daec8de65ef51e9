import { createContext, useContext, type ReactNode } from 'react';

/**
 * The site's own address, for code samples and share links: the origin of the page's canonical
 * link, which the server writes from PUBLIC_URL (the enterprise site: its host) — the same one
 * it renders public pages with, so the HTML and the browser's first render agree even when the
 * visitor came in by another name (127.0.0.1). Pages without one use the window's origin.
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
  if (typeof window === 'undefined') return UNKNOWN_ORIGIN;
  const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
  if (canonical) return new URL(canonical).origin;
  return window.location?.origin && window.location.origin !== 'null' ? window.location.origin : UNKNOWN_ORIGIN;
}
