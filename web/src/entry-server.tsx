/**
 * Server-side rendering of the public pages (issue 11, item 7). Built by `vite build --ssr`
 * into dist/ssr and loaded by the server (server/src/features/site/prerender.ts), which puts
 * the HTML inside index.html's #root; main.tsx then hydrates it. Only the pages that look the
 * same for every signed-out visitor are rendered here (`isServerRenderedPage`).
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from '@/app/App';
import { createAppQueryClient } from '@/app/providers';
import { isServerRenderedPage, preloadPageAt } from '@/app/routes';
import type { SiteVariant } from '@/app/variant';
import type { SiteFigures } from '@common/contract/site';

export interface RenderRequest {
  variant: SiteVariant;
  /** The path only (no query string), e.g. "/blog/totp-vs-sms-security". */
  path: string;
  /** The origin the visitor sees, e.g. "https://sixdigit.example.com". */
  origin: string;
  /** The main site's origin (PUBLIC_URL): the enterprise site's sign-up and sales links. */
  mainOrigin: string;
  /** the landing page's live figures (the server writes the same ones into the page for hydration) */
  figures?: SiteFigures;
}

/** The HTML of #root for this page, or undefined when the page is rendered in the browser. */
export async function renderPage({ variant, path, origin, mainOrigin, figures }: RenderRequest): Promise<string | undefined> {
  if (!isServerRenderedPage(variant, path)) return undefined;
  // Loaded before rendering, so the lazy page renders at once instead of its fallback —
  // main.tsx waits for the same chunk before it hydrates.
  await preloadPageAt(variant, path);
  return renderToString(
    <StrictMode>
      <App variant={variant} location={path} origin={origin} mainOrigin={mainOrigin} queryClient={createAppQueryClient()} siteFigures={figures} />
    </StrictMode>,
  );
}
