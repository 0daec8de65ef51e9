import type { MouseEvent } from 'react';

/**
 * Whether a click on a link should become a client-side navigation: a plain primary click
 * nobody handled yet. Modified and other-button clicks keep the browser's meaning (new tab,
 * new window, download).
 */
export function isPlainPrimaryClick(event: MouseEvent): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
