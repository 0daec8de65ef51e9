import type { SiteFigures } from '@common/contract/site';
import { formatFigure } from '@common/site-figures';
import type { SiteLink } from '@/components/site/links';

export { SIGN_IN_HREF } from '@/components/site/links';
export { CONTAINER } from '@/components/site/container';

/** In-page anchors of the landing page, in the order the sections appear. */
export const SECTION_IDS = {
  features: 'features',
  pricing: 'pricing',
  compare: 'compare',
  docs: 'docs',
} as const;

/** The top bar's links: `#anchor` for the page's sections, `/path` for app routes. */
export const NAV_ITEMS: readonly SiteLink[] = [
  { label: 'Features', href: `#${SECTION_IDS.features}` },
  { label: 'Pricing', href: `#${SECTION_IDS.pricing}` },
  { label: 'Compare', href: `#${SECTION_IDS.compare}` },
  { label: 'API docs', href: `#${SECTION_IDS.docs}` },
  { label: 'Blog', href: '/blog' },
];

/**
 * The stats strip (SPEC §1): the service's targets, then the live figures counted from the
 * database (common/site-figures.ts: rounded down, left out while too small to be worth showing).
 */
export function statsStrip(figures: SiteFigures | undefined): { value: string; label: string }[] {
  const stats = [
    { value: '99.9%', label: 'Uptime' },
    { value: '<200ms', label: 'API response time' },
  ];
  if (figures?.verifications) stats.push({ value: formatFigure(figures.verifications), label: 'Verifications served' });
  if (figures?.businesses) stats.push({ value: formatFigure(figures.businesses), label: 'Business clients' });
  return stats;
}
