import { BrowserRouter } from 'react-router';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import { detectVariant, type SiteVariant } from './variant';

export function App({ variant = detectVariant() }: { variant?: SiteVariant }) {
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRoutes variant={variant} />
      </BrowserRouter>
    </AppProviders>
  );
}
