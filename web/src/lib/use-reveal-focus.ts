import { useEffect, useRef } from 'react';

/**
 * For panels shown once (a new API key, a TOTP secret): when `key` changes, scroll the panel
 * into view and move focus to it, so nobody misses the only chance to copy what it shows.
 */
export function useRevealFocus<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
    el.focus({ preventScroll: true });
  }, [key]);
  return ref;
}
