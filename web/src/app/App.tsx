import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter, StaticRouter } from 'react-router';
import type { SiteFigures } from '@common/contract/site';
import { PageOriginProvider } from '@/lib/page-origin';
import { SiteFiguresProvider } from '@/lib/site-figures';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import { detectVariant, type SiteVariant } from './variant';

/**
 * The whole app. In the browser it follows the address bar; the server renders a public page
 * with `location` (the requested path) and `origin` (the request's own), the same tree the
 * browser then hydrates.
 */
export function App({
  variant = detectVariant(),
  location,
  origin,
  mainOrigin,
  queryClient,
  siteFigures,
}: {
  variant?: SiteVariant;
  location?: string;
  origin?: string;
  mainOrigin?: string;
  queryClient?: QueryClient;
  /** the landing page's live figures, given by the server renderer */
  siteFigures?: SiteFigures;
}) {
  const routes = <AppRoutes variant={variant} />;
  return (
    <PageOriginProvider origin={origin} mainOrigin={mainOrigin}>
      <SiteFiguresProvider figures={siteFigures}>
        <AppProviders client={queryClient}>
          {location === undefined ? <BrowserRouter>{routes}</BrowserRouter> : <StaticRouter location={location}>{routes}</StaticRouter>}
        </AppProviders>
      </SiteFiguresProvider>
    </PageOriginProvider>
  );
}
