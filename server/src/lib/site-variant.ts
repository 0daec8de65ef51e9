export type SiteVariant = 'main' | 'enterprise';

/** The enterprise marketing/docs site is chosen by host name (ENTERPRISE_HOST_MATCH). */
export function siteVariantFor(host: string | undefined, match: string): SiteVariant {
  const hostname = (host ?? '').toLowerCase().replace(/:\d+$/, '');
  return hostname.includes(match) ? 'enterprise' : 'main';
}
