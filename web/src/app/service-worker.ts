/**
 * Registers the service worker that vite-plugin-pwa builds (`/sw.js`, see vite.config.ts): it
 * precaches the app shell so the installed or offline app still opens. Production builds only
 * (the dev server has no sw.js), and only on the main site: the enterprise site is a marketing
 * and documentation site with nothing to use offline.
 *
 * The worker activates new versions at once (skipWaiting + clientsClaim) without reloading the
 * page: page loads always fetch index.html from the server first, so a running page never mixes
 * builds, and the next load simply uses the new one.
 */
import { detectVariant } from './variant';

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || detectVariant() !== 'main') return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      // Not fatal: the app works online without it.
      console.warn('Service worker registration failed', error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
