import { ArrowRight, BarChart3, KeyRound, Lock, Repeat, ShieldCheck, Webhook, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import {
  ENTERPRISE_EXAMPLE_MONTHLY_VERIFICATIONS,
  ENTERPRISE_PLANS,
  USD_MICROS_PER_VERIFICATION,
  bestSavingsPercent,
  formatCount,
  formatUptime,
  formatUsd,
  roiSavings,
  uptimeTierFor,
} from '@common/pricing';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useMainSiteOrigin } from './api';
import { CostTable } from './components/CostTable';
import { ENTERPRISE_CONTAINER, EnterpriseHero, EnterpriseSection } from './components/EnterpriseSection';
import { PlanCards } from './components/PlanCards';
import { UptimeTiers } from './components/UptimeTiers';
import { ENTERPRISE_FEATURES, type FeatureIcon } from './content';

const ICONS: Record<FeatureIcon, LucideIcon> = {
  shield: ShieldCheck,
  repeat: Repeat,
  lock: Lock,
  webhook: Webhook,
  key: KeyRound,
  chart: BarChart3,
};

const PRICE = formatUsd(USD_MICROS_PER_VERIFICATION);

/** The fixed example (SPEC §2), computed from the catalogue like the pricing page's slider. */
function CostExample() {
  const roi = roiSavings(ENTERPRISE_EXAMPLE_MONTHLY_VERIFICATIONS);
  const best = roi.competitors.reduce((a, b) => (b.monthlySavingsUsdMicros > a.monthlySavingsUsdMicros ? b : a));
  return (
    <div className="mx-auto grid max-w-4xl gap-6 lg:grid-cols-[1fr_16rem] lg:items-center">
      <CostTable roi={roi} caption={`Monthly cost at ${formatCount(roi.monthlyVerifications)} verifications`} />
      <div className="rounded-xl border border-success/40 bg-success/10 p-5 text-center" data-testid="example-savings">
        <p className="text-sm text-muted-foreground">You save each month</p>
        <p className="mt-1 text-3xl font-semibold text-success tabular-nums">{formatUsd(best.monthlySavingsUsdMicros)}</p>
        <p className="mt-1 text-sm text-muted-foreground">
          {best.savingsPercent}% less than {best.competitor.name} — {formatUsd(best.annualSavingsUsdMicros)} a year
        </p>
      </div>
    </div>
  );
}

export function EnterpriseLandingPage() {
  useDocumentTitle(`Sixdigit Enterprise — TOTP verification at ${PRICE} per verification`);
  const mainOrigin = useMainSiteOrigin();
  const topTier = formatUptime(uptimeTierFor(ENTERPRISE_PLANS[ENTERPRISE_PLANS.length - 1]!.id).basisPoints);
  const stats = [
    { value: PRICE, label: 'per verification' },
    { value: `${bestSavingsPercent()}%`, label: 'cheaper than SMS verification' },
    { value: topTier, label: 'uptime on Enterprise' },
  ];
  return (
    <>
      <EnterpriseHero
        eyebrow="Sixdigit Enterprise"
        title={`TOTP verification at ${PRICE} per verification`}
        description={
          <p>
            Replace SMS one-time codes with standard RFC 6238 authenticator codes, verified by one API call. Save up to{' '}
            {bestSavingsPercent()}% — with no carrier in the loop.
          </p>
        }
      >
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to="/pricing">
              Calculate your savings <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/docs">Read the API docs</Link>
          </Button>
        </div>
        <dl className="mt-10 grid max-w-2xl grid-cols-3 gap-4">
          {stats.map((stat) => (
            <div key={stat.label} className="flex flex-col">
              <dt className="text-xs text-muted-foreground sm:text-sm">{stat.label}</dt>
              <dd className="order-first text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </EnterpriseHero>

      <EnterpriseSection id="features" eyebrow="Why Sixdigit" title="Built for production authentication">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {ENTERPRISE_FEATURES.map((feature) => {
            const Icon = ICONS[feature.icon];
            return (
              <li key={feature.title}>
                <Card className="h-full">
                  <CardHeader>
                    <span className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                      <Icon aria-hidden="true" className="size-5" />
                    </span>
                    <CardTitle className="mt-2">{feature.title}</CardTitle>
                    <CardDescription className="leading-relaxed">{feature.body}</CardDescription>
                  </CardHeader>
                </Card>
              </li>
            );
          })}
        </ul>
      </EnterpriseSection>

      <EnterpriseSection
        id="cost-example"
        eyebrow="Cost example"
        title={`At ${formatCount(ENTERPRISE_EXAMPLE_MONTHLY_VERIFICATIONS)} verifications a month`}
        description="The same volume at list prices. Every check that reaches the code is billed, verified or not — the same way SMS providers bill every message."
        className="bg-muted/40"
      >
        <CostExample />
        <p className="mt-6 text-center text-sm">
          <Link to="/pricing" className="font-medium text-primary underline-offset-4 hover:underline">
            Try your own volume in the ROI calculator
          </Link>
        </p>
      </EnterpriseSection>

      <EnterpriseSection id="plans" eyebrow="Plans" title="Prepaid plans, no monthly minimum">
        <PlanCards />
      </EnterpriseSection>

      <EnterpriseSection id="uptime" eyebrow="Reliability" title="Uptime for every tier" className="bg-muted/40">
        <UptimeTiers />
      </EnterpriseSection>

      <section aria-labelledby="enterprise-cta-title" className="py-16 sm:py-20">
        <div className={ENTERPRISE_CONTAINER}>
          <div className="rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground sm:px-12">
            <h2 id="enterprise-cta-title" className="text-3xl font-semibold tracking-tight text-balance">
              Move your one-time codes off SMS this week
            </h2>
            <p className="mx-auto mt-3 max-w-xl text-primary-foreground/85">
              Enrol a user with one call, verify their codes with another. Your first key takes a minute.
            </p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <Button asChild size="lg" variant="secondary">
                <a href={`${mainOrigin}/api/login`}>Get an API key</a>
              </Button>
              <Button asChild size="lg" variant="outline" className="border-primary-foreground/40 bg-transparent text-primary-foreground hover:bg-primary-foreground/10 hover:text-primary-foreground">
                <Link to="/docs">Read the docs</Link>
              </Button>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
