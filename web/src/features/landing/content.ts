/** Where every sign-in button on the public pages goes (a full page navigation, not a route). */
export const SIGN_IN_HREF = '/api/login';

/** In-page anchors of the landing page, in the order the sections appear. */
export const SECTION_IDS = {
  features: 'features',
  pricing: 'pricing',
  compare: 'compare',
  docs: 'docs',
} as const;

export interface NavItem {
  label: string;
  /** `#anchor` for in-page sections, `/path` for app routes. */
  href: string;
}

export const NAV_ITEMS: readonly NavItem[] = [
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

/** Shared container for every landing section. */
export const CONTAINER = 'mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8';
