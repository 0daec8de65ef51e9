import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { SiteFigures } from '@common/contract/site';
import { apiGet } from '@/lib/api';

/**
 * The landing page's live figures (common/site-figures.ts). The server renders the page with
 * them (this context) and writes the same figures into the page as
 * <script type="application/json" id="site-figures">, which the browser's first render reads,
 * so the hydrated page shows exactly what the HTML showed. A page the browser renders alone
 * asks GET /api/site/figures.
 */
const SiteFiguresContext = createContext<SiteFigures | undefined>(undefined);

export const SITE_FIGURES_ELEMENT_ID = 'site-figures';

export function SiteFiguresProvider({ figures, children }: { figures: SiteFigures | undefined; children: ReactNode }) {
  return <SiteFiguresContext.Provider value={figures}>{children}</SiteFiguresContext.Provider>;
}

function figuresInPage(): SiteFigures | undefined {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById(SITE_FIGURES_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const parsed = SiteFigures.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** One request per page load: the figures change hourly at most. */
let request: Promise<SiteFigures | undefined> | undefined;

function fetchFigures(): Promise<SiteFigures | undefined> {
  request ??= apiGet<SiteFigures>('/api/site/figures').catch(() => undefined);
  return request;
}

/** For tests: forget the fetched figures. */
export function resetSiteFiguresForTests(): void {
  request = undefined;
}

/**
 * The figures, or undefined while they are being fetched (or could not be: the strip then shows
 * the service targets only). No query client needed: the landing page renders without one.
 */
export function useSiteFigures(): SiteFigures | undefined {
  const given = useContext(SiteFiguresContext) ?? figuresInPage();
  const [fetched, setFetched] = useState<SiteFigures | undefined>(undefined);
  useEffect(() => {
    if (given !== undefined) return;
    let live = true;
    void fetchFigures().then((figures) => live && setFetched(figures));
    return () => {
      live = false;
    };
  }, [given]);
  return given ?? fetched;
}
