export type SiteVariant = 'main' | 'enterprise';

/** The host-name fragment that selects the enterprise site (server: ENTERPRISE_HOST_MATCH). */
export const ENTERPRISE_HOST_MATCH = 'enterprise';

/**
 * Which site to show. The server writes it into `<meta name="sixdigit-variant">` from the
 * request host; the Vite dev server does not, so in development the host name decides.
 */
export function resolveVariant(
  metaContent: string | null | undefined,
  hostname: string,
  isDev: boolean,
): SiteVariant {
  if (metaContent === 'enterprise') return 'enterprise';
  if (isDev && hostname.toLowerCase().includes(ENTERPRISE_HOST_MATCH)) return 'enterprise';
  return 'main';
}

export function detectVariant(): SiteVariant {
  const meta = document.querySelector('meta[name="sixdigit-variant"]')?.getAttribute('content');
  return resolveVariant(meta, window.location.hostname, import.meta.env.DEV);
}
