// Must stay the first import: it configures zod before any schema is built.
import '@/app/zod-jitless';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './fonts.css';
import './styles.css';
import { App } from '@/app/App';
import { preloadPageAt } from '@/app/routes';
import { registerServiceWorker } from '@/app/service-worker';
import { detectVariant } from '@/app/variant';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

const variant = detectVariant();
const pageReady = preloadPageAt(variant, window.location.pathname);
const app = (
  <StrictMode>
    <App variant={variant} />
  </StrictMode>
);

if (root.firstElementChild) {
  // The server sent this page's HTML (web/src/entry-server.tsx): it is already on screen, so
  // hydrate once the page's chunk is here (nothing suspends), as a transition — React then
  // yields to the browser every few milliseconds instead of blocking it for the whole tree.
  void pageReady.then(() => startTransition(() => void hydrateRoot(root, app)));
} else {
  createRoot(root).render(app);
}

if (import.meta.env.PROD) registerServiceWorker();
