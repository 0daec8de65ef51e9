import { BLOG_DESCRIPTION, BLOG_TITLE } from './blog';
import { USD_MICROS_PER_VERIFICATION, formatUsd } from './pricing';
import { PAYMENT_METHODS_HEAD, SITE_DEFAULT_HEADS, type SiteHead } from './site-heads';

/**
 * The public pages of each site, listed once. Three places read this list:
 * - the server writes each page's head (title, description, canonical, Open Graph) and lists it
 *   in sitemap.xml (`server/src/features/site/service.ts`; a blog article's head comes from the
 *   article itself);
 * - the server renders the `prerendered` ones to HTML for signed-out visitors
 *   (`web/src/entry-server.tsx` via `isServerRenderedPage`);
 * - the web app skips the session call on `sessionless` pages when there is no session hint
 *   (`web/src/features/auth/api.ts`).
 * A page added here is in all three at once; a page missing here is in none.
 */
export type SiteVariant = 'main' | 'enterprise';

export interface PublicPage {
  /** a path, or a route pattern where `:name` stands for one path segment */
  pattern: string;
  /** the same HTML for every signed-out visitor and no API data needed: rendered by the server */
  prerendered: boolean;
  /** what search engines and link previews see, and the sitemap lists; absent for pages with a head of their own (articles) or none (sign-in steps) */
  head?: SiteHead;
}

const DOCS_HEAD: SiteHead = {
  title: 'API documentation · Sixdigit Enterprise',
  description: 'Enrol users and verify TOTP codes with the Sixdigit API: authentication, endpoints, errors and samples in cURL, JavaScript, Python and PHP.',
};

export const PUBLIC_PAGES: Readonly<Record<SiteVariant, readonly PublicPage[]>> = {
  main: [
    { pattern: '/', prerendered: true, head: SITE_DEFAULT_HEADS.main },
    { pattern: '/blog', prerendered: true, head: { title: BLOG_TITLE, description: BLOG_DESCRIPTION } },
    { pattern: '/blog/:id', prerendered: true },
    { pattern: '/payment-methods', prerendered: false, head: PAYMENT_METHODS_HEAD },
    {
      pattern: '/contact',
      prerendered: false,
      head: {
        title: 'Contact support · Sixdigit',
        description: 'Technical questions answered at once by Luna, payment issues reviewed by our finance team, refunds escalated to an administrator. Get a reference and follow your request.',
      },
    },
    { pattern: '/sign-in/passkey', prerendered: false },
  ],
  enterprise: [
    { pattern: '/', prerendered: true, head: SITE_DEFAULT_HEADS.enterprise },
    {
      pattern: '/pricing',
      prerendered: true,
      head: {
        title: 'Pricing and ROI calculator · Sixdigit Enterprise',
        description: `Plans and an ROI calculator: see what ${formatUsd(USD_MICROS_PER_VERIFICATION)} per verification saves against SMS verification services at your monthly volume.`,
      },
    },
    { pattern: '/docs', prerendered: false, head: DOCS_HEAD },
    { pattern: '/documentation', prerendered: false, head: DOCS_HEAD },
  ],
};

function patternMatches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const got = (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).split('/');
  return want.length === got.length && want.every((part, i) => (part.startsWith(':') ? got[i] !== '' : part === got[i]));
}

/** The public page at `pathname` (a trailing slash is the same page), or undefined for the app's other pages. */
export function publicPageAt(variant: SiteVariant, pathname: string): PublicPage | undefined {
  return PUBLIC_PAGES[variant].find((page) => patternMatches(page.pattern, pathname));
}
