import { Rss } from 'lucide-react';
import { type SiteLink } from '@/components/site/links';
import { PublicFooter, type FooterColumn } from '@/components/site/PublicFooter';
import { PublicHeader } from '@/components/site/PublicHeader';

/** SPEC "Blog": the header links. */
export const BLOG_NAV: readonly SiteLink[] = [
  { label: 'Home', href: '/' },
  { label: 'Features', href: '#features' },
  { label: 'Pricing', href: '#pricing' },
  { label: 'Blog', href: '/blog' },
  { label: 'API Docs', href: '#docs' },
];

/** SPEC "Blog": the footer's Product and Support links. */
const FOOTER_COLUMNS: readonly FooterColumn[] = [
  {
    title: 'Product',
    links: [
      { label: 'Features', href: '#features' },
      { label: 'Pricing', href: '#pricing' },
      { label: 'API Docs', href: '#docs' },
      { label: 'Payment methods', href: '/payment-methods' },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Contact support', href: '/contact' },
      { label: 'OpenAPI reference', href: '/api/v1/openapi.json' },
      { label: 'Blog', href: '/blog' },
      { label: 'RSS feed', href: '/blog/feed.xml' },
    ],
  },
];

export function BlogHeader() {
  return <PublicHeader links={BLOG_NAV} />;
}

export function BlogFooter() {
  return (
    <PublicFooter
      description="Prepaid TOTP verification for businesses: a cheaper, safer alternative to SMS and WhatsApp one-time codes."
      extra={
        <a href="/blog/feed.xml" className="mt-3 inline-flex items-center gap-1.5 text-sm font-medium text-primary hover:underline">
          <Rss className="size-4" aria-hidden="true" />
          Subscribe by RSS
        </a>
      }
      columns={FOOTER_COLUMNS}
    />
  );
}
