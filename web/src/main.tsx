// Must stay the first import: it configures zod before any schema is built.
import '@/app/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './fonts.css';
import './styles.css';
import { App } from '@/app/App';
import { preloadPageAt } from '@/app/routes';
import { registerServiceWorker } from '@/app/service-worker';
import { detectVariant } from '@/app/variant';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

const variant = detectVariant();
preloadPageAt(variant, window.location.pathname);

createRoot(root).render(
  <StrictMode>
    <App variant={variant} />
  </StrictMode>,
);

if (import.meta.env.PROD) registerServiceWorker();
