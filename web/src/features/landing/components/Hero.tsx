import { ArrowRightIcon, CheckIcon, CircleCheckIcon } from 'lucide-react';
import { MIN_PAYMENT_PAISE, PAISE_PER_VERIFICATION, formatRupees } from '@common/pricing';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { useSiteFigures } from '@/lib/site-figures';
import { CONTAINER, SECTION_IDS, SIGN_IN_HREF, statsStrip } from '../content';

const PRICE = formatRupees(PAISE_PER_VERIFICATION);

/** A still of the product at work: a code in the authenticator and the API accepting it. */
function HeroIllustration() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md select-none lg:mx-0 lg:ml-auto">
      <div className="absolute -inset-6 -z-10 rounded-[2rem] bg-primary/10 blur-2xl" />
      <div className="rounded-2xl border bg-card p-5 shadow-lg sm:p-6">
        <div className="flex items-center justify-between text-xs font-medium text-muted-foreground">
          <span>Authenticator</span>
          <span>Works offline</span>
        </div>
        <div className="mt-4 flex items-center gap-3">
          <div className="flex size-10 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary">
            AP
          </div>
          <div className="min-w-0">
            <p className="truncate text-sm font-medium">Acme Pay</p>
            <p className="truncate text-xs text-muted-foreground">priya@acmepay.in</p>
          </div>
        </div>
        <div className="mt-5 flex items-end justify-between gap-4">
          <p className="font-mono text-4xl font-semibold tracking-[0.18em] tabular-nums sm:text-5xl">
            492&thinsp;039
          </p>
          <p className="pb-1 text-xs text-muted-foreground tabular-nums">18s</p>
        </div>
        <div className="mt-3 h-1.5 overflow-hidden rounded-full bg-primary/15">
          <div className="h-full w-3/5 rounded-full bg-primary" />
        </div>
      </div>

      <div className="relative -mt-4 ml-6 rounded-xl border bg-card p-4 shadow-md sm:ml-12">
        <p className="font-mono text-xs text-muted-foreground">POST /api/v1/verify</p>
        <div className="mt-2 flex items-center gap-2 text-sm font-medium">
          <CircleCheckIcon className="size-4 text-success" />
          <span>Verified in 38 ms</span>
          <span className="ml-auto text-muted-foreground tabular-nums">−{PRICE}</span>
        </div>
      </div>
    </div>
  );
}

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-x-0 top-0 -z-10 h-[36rem] bg-gradient-to-b from-primary/[0.07] via-primary/[0.03] to-transparent"
      />
      <div className={cn(CONTAINER, 'grid items-center gap-14 pt-14 pb-16 sm:pt-20 lg:grid-cols-[1.15fr_1fr] lg:pt-24 lg:pb-24')}>
        <div>
          <Badge variant="outline" className="rounded-full bg-background/80 px-3 py-1 text-muted-foreground">
            RFC 6238 TOTP · prepaid · no monthly fee
          </Badge>
          <h1
            id="hero-title"
            className="mt-5 text-4xl font-semibold tracking-tight text-balance sm:text-5xl lg:text-[3.5rem] lg:leading-[1.08]"
          >
            Replace SMS OTPs with TOTP at <span className="text-primary">{PRICE}</span> per verification
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-muted-foreground text-pretty">
            Sixdigit is a prepaid verification API for authenticator-app codes. Your users read a
            six-digit code from their phone — no SMS to deliver, no SIM-swap risk, no per-message
            telecom fees. You pay only when your server checks a code.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button asChild size="lg" className="h-11 px-6">
              <a href={SIGN_IN_HREF}>
                Get started free
                <ArrowRightIcon aria-hidden="true" />
              </a>
            </Button>
            <Button asChild size="lg" variant="outline" className="h-11 px-6">
              <a href={`#${SECTION_IDS.docs}`}>Read the API docs</a>
            </Button>
          </div>
          <ul className="mt-8 grid gap-2 text-sm text-muted-foreground sm:grid-cols-2">
            {[
              `Top up from ${formatRupees(MIN_PAYMENT_PAISE)} by bank transfer or UPI`,
              `1 credit = ${PRICE} = one verification`,
              'Free authenticator app for your users',
              'Signed webhooks and a full audit log',
            ].map((point) => (
              <li key={point} className="flex items-start gap-2">
                <CheckIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                <span>{point}</span>
              </li>
            ))}
          </ul>
        </div>
        <HeroIllustration />
      </div>
    </section>
  );
}

/** One column per figure on wider screens (the live figures may be left out). */
const MD_COLUMNS: Record<number, string> = { 2: 'md:grid-cols-2', 3: 'md:grid-cols-3', 4: 'md:grid-cols-4' };

export function StatsStrip() {
  const stats = statsStrip(useSiteFigures());
  return (
    <section aria-labelledby="stats-title" className="border-y bg-muted/40">
      <h2 id="stats-title" className="sr-only">
        Sixdigit in numbers
      </h2>
      <dl className={cn(CONTAINER, 'grid grid-cols-2 gap-x-6 gap-y-8 py-10', MD_COLUMNS[stats.length])}>
        {stats.map((stat) => (
          <div key={stat.label} className="flex flex-col-reverse gap-1 text-center">
            <dt className="text-sm text-muted-foreground">{stat.label}</dt>
            <dd className="text-3xl font-semibold tracking-tight tabular-nums">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
