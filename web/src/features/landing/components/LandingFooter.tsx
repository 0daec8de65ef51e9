import { Link } from 'react-router';
import { ArrowRightIcon } from 'lucide-react';
import { MIN_PAYMENT_PAISE, formatRupees } from '@common/pricing';
import { Button } from '@/components/ui/button';
import { PublicFooter, type FooterColumn } from '@/components/site/PublicFooter';
import { CONTAINER, SECTION_IDS, SIGN_IN_HREF } from '../content';

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

const COLUMNS: readonly FooterColumn[] = [
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
    note: 'Support replies within 4 hours. Bank payments are reviewed Monday–Friday, 9 AM–6 PM IST.',
  },
];

export function LandingFooter() {
  return (
    <PublicFooter
      description="Prepaid TOTP verification for businesses in India. A cheaper, safer alternative to SMS and WhatsApp one-time codes."
      columns={COLUMNS}
      fineprint="Prices in Indian rupees. TOTP per RFC 6238: 6 digits, 30-second steps."
    />
  );
}
