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

/** Claims shown in the stats strip (SPEC §1). */
export const STATS: readonly { value: string; label: string }[] = [
  { value: '99.9%', label: 'Uptime' },
  { value: '<200ms', label: 'API response time' },
  { value: '2.5M+', label: 'Verifications served' },
  { value: '500+', label: 'Business clients' },
];
