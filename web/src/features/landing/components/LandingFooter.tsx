import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowRightIcon } from 'lucide-react';
import { MIN_PAYMENT_PAISE, formatRupees } from '@common/pricing';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { CONTAINER, SECTION_IDS, SIGN_IN_HREF } from '../content';
import { BrandMark } from '@/app/layout/Brand';

export function CallToAction() {
  return (
    <section aria-labelledby="cta-title" className="py-20 sm:py-24">
      <div className={CONTAINER}>
        <div className="relative isolate overflow-hidden rounded-3xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-lg sm:px-12 sm:py-16">
          <div
            aria-hidden="true"
            className="absolute -top-24 left-1/2 -z-10 size-[36rem] -translate-x-1/2 rounded-full bg-white/10 blur-3xl"
          />
          <h2 id="cta-title" className="mx-auto max-w-2xl text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            Move your next login off SMS this week
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-base leading-relaxed text-pretty opacity-90 sm:text-lg">
            Sign in with Google, create your API key and try it with the free test endpoint. Top up from{' '}
            {formatRupees(MIN_PAYMENT_PAISE)} when you are ready for real traffic.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild size="lg" variant="secondary" className="h-11 px-6">
              <a href={SIGN_IN_HREF}>
                Get started
                <ArrowRightIcon aria-hidden="true" />
              </a>
            </Button>
            <Button
              asChild
              size="lg"
              variant="ghost"
              className="h-11 px-6 text-primary-foreground ring-1 ring-primary-foreground/40 hover:bg-primary-foreground/10 hover:text-primary-foreground focus-visible:ring-primary-foreground focus-visible:ring-offset-primary"
            >
              <Link to="/contact">Talk to us</Link>
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}

interface FooterLink {
  label: string;
  href: string;
}

const COLUMNS: readonly { title: string; links: readonly FooterLink[] }[] = [
  {
    title: 'Product',
    links: [
      { label: 'Features', href: `#${SECTION_IDS.features}` },
      { label: 'Pricing', href: `#${SECTION_IDS.pricing}` },
      { label: 'SMS vs TOTP', href: `#${SECTION_IDS.compare}` },
      { label: 'API docs', href: `#${SECTION_IDS.docs}` },
    ],
  },
  {
    title: 'Resources',
    links: [
      { label: 'Blog', href: '/blog' },
      { label: 'Payment methods', href: '/payment-methods' },
      { label: 'OpenAPI reference', href: '/api/v1/openapi.json' },
      { label: 'Contact support', href: '/contact' },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'Contact sales', href: '/contact' },
      { label: 'Log in', href: SIGN_IN_HREF },
    ],
  },
];

const linkClass = 'rounded-sm text-sm text-muted-foreground transition-colors hover:text-foreground';

function FooterAnchor({ link }: { link: FooterLink }): ReactNode {
  // In-page anchors and server URLs are plain links; app pages go through the router.
  if (link.href.startsWith('#') || link.href.startsWith('/api/')) {
    return (
      <a href={link.href} className={linkClass}>
        {link.label}
      </a>
    );
  }
  return (
    <Link to={link.href} className={linkClass}>
      {link.label}
    </Link>
  );
}

export function LandingFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t bg-muted/30">
      <div className={cn(CONTAINER, 'py-14')}>
        <div className="grid grid-cols-2 gap-x-6 gap-y-10 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
          <div className="col-span-2 max-w-xs lg:col-span-1">
            <div className="flex items-center gap-2 text-base font-semibold tracking-tight">
              <BrandMark className="size-7" />
              <span>Sixdigit</span>
            </div>
            <p className="mt-4 text-sm leading-relaxed text-muted-foreground">
              Prepaid TOTP verification for businesses in India. A cheaper, safer alternative to SMS and WhatsApp
              one-time codes.
            </p>
          </div>
          {COLUMNS.map((column) => {
            const headingId = `footer-${column.title.toLowerCase()}`;
            return (
              <nav key={column.title} aria-labelledby={headingId}>
                <h2 id={headingId} className="text-sm font-semibold">
                  {column.title}
                </h2>
                <ul className="mt-4 space-y-3">
                  {column.links.map((link) => (
                    <li key={link.label}>
                      <FooterAnchor link={link} />
                    </li>
                  ))}
                </ul>
                {column.title === 'Company' && (
                  <p className="mt-4 text-xs leading-relaxed text-muted-foreground">
                    Support replies within 4 hours. Bank payments are reviewed Monday–Friday, 9 AM–6 PM IST.
                  </p>
                )}
              </nav>
            );
          })}
        </div>
        <div className="mt-12 flex flex-col gap-2 border-t pt-6 text-xs text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p>© {year} Sixdigit. All rights reserved.</p>
          <p>Prices in Indian rupees. TOTP per RFC 6238: 6 digits, 30-second steps.</p>
        </div>
      </div>
    </footer>
  );
}
