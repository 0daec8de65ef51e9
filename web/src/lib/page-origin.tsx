import { createContext, useContext, type ReactNode } from 'react';

/**
 * The site's own address, for code samples and share links: the origin of the page's canonical
 * link, which the server writes from PUBLIC_URL (the enterprise site: its host) — the same one
 * it renders public pages with, so the HTML and the browser's first render agree even when the
 * visitor came in by another name (127.0.0.1). Pages without one use the window's origin.
 */
interface Origins {
  origin?: string;
  /** The main site's origin (PUBLIC_URL), which the enterprise site links to for accounts and sales. */
  mainOrigin?: string;
}

const PageOriginContext = createContext<Origins>({});

export function PageOriginProvider({ origin, mainOrigin, children }: Origins & { children: ReactNode }) {
  return <PageOriginContext.Provider value={{ origin, mainOrigin }}>{children}</PageOriginContext.Provider>;
}

/**
 * The main site's origin as the server knows it: given to its renderer, and written into every
 * enterprise page as <meta name="sixdigit-main-origin">. Undefined elsewhere (the dev server).
 */
export function useServerMainOrigin(): string | undefined {
  const { mainOrigin } = useContext(PageOriginContext);
  if (mainOrigin) return mainOrigin;
  if (typeof document === 'undefined') return undefined;
  return document.querySelector('meta[name="sixdigit-main-origin"]')?.getAttribute('content') || undefined;
}

/** Shown where no origin is known (a test renderer with an opaque origin). */
export const UNKNOWN_ORIGIN = 'https://your-sixdigit-host';

export function usePageOrigin(): string {
  const given = useContext(PageOriginContext).origin;
  if (given) return given;
  if (typeof window === 'undefined') return UNKNOWN_ORIGIN;
  const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
  if (canonical) return new URL(canonical).origin;
  return window.location?.origin && window.location.origin !== 'null' ? window.location.origin : UNKNOWN_ORIGIN;
}
