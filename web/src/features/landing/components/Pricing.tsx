import { Link } from 'react-router';
import {
  AUTO_REFILL_PLAN_FEATURE,
  LANDING_PLANS,
  autoRefillPlanFeature,
  MIN_PAYMENT_PAISE,
  PAISE_PER_VERIFICATION,
  TOP_UP_PACKS,
  formatCountIndian,
  formatRupees,
  verificationsForPaise,
  type LandingPlan,
} from '@common/pricing';
import { Badge } from '@/components/ui/badge';
import { PlanCard } from '@/components/site/PlanCard';
import { usePaymentMethods } from '@/features/payment-methods/api';
import { cn } from '@/lib/utils';
import { SECTION_IDS } from '../content';
import { Section } from './Section';

const PRICE = formatRupees(PAISE_PER_VERIFICATION);

function LandingPlanCard({ plan, autoRefill }: { plan: LandingPlan; autoRefill: string | null }) {
  const figures =
    plan.amountPaise !== null && plan.verifications !== null
      ? {
          price: formatRupees(plan.amountPaise),
          note: (
            <>
              <span className="font-medium text-foreground">{formatCountIndian(plan.verifications)} verifications</span>
              {' · '}
              {PRICE} each
            </>
          ),
        }
      : { price: 'Custom', note: `Volume top-ups at ${PRICE} per verification` };
  return (
    <PlanCard
      titleId={`plan-${plan.id}-title`}
      name={plan.name}
      tagline={plan.tagline}
      featured={plan.featured}
      badge="Most popular"
      price={figures.price}
      priceNotes={[figures.note]}
      features={plan.features.flatMap((f) => (f === AUTO_REFILL_PLAN_FEATURE ? (autoRefill === null ? [] : [autoRefill]) : [f]))}
      cta={plan.cta}
    />
  );
}

export function Pricing() {
  // Known once the browser asks the server; the server-rendered page says what is true of both.
  const autoRefill = autoRefillPlanFeature(usePaymentMethods().data?.autoRefill.mode ?? null);
  return (
    <Section
      id={SECTION_IDS.pricing}
      eyebrow="Pricing"
      title="Prepaid, per verification, nothing else"
      className="bg-muted/40"
      description={
        <>
          <strong className="font-semibold text-foreground">1 credit = {PRICE}</strong> = one verification. No
          subscription, no setup fee, no per-user charge. Top up from {formatRupees(MIN_PAYMENT_PAISE)} (
          {formatCountIndian(verificationsForPaise(MIN_PAYMENT_PAISE))} verifications) whenever you need to.
        </>
      }
    >
      <div className="grid gap-6 lg:grid-cols-3">
        {LANDING_PLANS.map((plan) => (
          <LandingPlanCard key={plan.id} plan={plan} autoRefill={autoRefill} />
        ))}
      </div>

      <div className="mt-16">
        <h3 id="packs-title" className="text-center text-xl font-semibold tracking-tight">
          Top-up packs
        </h3>
        <p className="mx-auto mt-2 max-w-xl text-center text-sm text-muted-foreground">
          Buy a pack from your business dashboard, or top up any amount from {formatRupees(MIN_PAYMENT_PAISE)}. Same{' '}
          {PRICE} per verification at every size.
        </p>
        <ul aria-labelledby="packs-title" className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {TOP_UP_PACKS.map((pack) => (
            <li
              key={pack.id}
              className={cn('rounded-xl border bg-card p-5 text-card-foreground', pack.popular && 'border-primary')}
            >
              <div className="flex items-center justify-between gap-2">
                <p className="font-medium">{pack.name}</p>
                {pack.popular && <Badge variant="secondary">Popular</Badge>}
              </div>
              <p className="mt-3 text-2xl font-semibold tracking-tight tabular-nums">{formatRupees(pack.amountPaise)}</p>
              <p className="text-sm font-medium text-foreground">{formatCountIndian(pack.verifications)} verifications</p>
              <p className="mt-2 text-sm text-muted-foreground">{pack.description}</p>
            </li>
          ))}
        </ul>
        <p className="mx-auto mt-8 max-w-3xl text-center text-xs leading-relaxed text-muted-foreground">
          A verification that reaches the code check costs {PRICE}, whether the code is right or wrong. Requests refused
          before it — invalid API key, malformed body, rate limit, no credit — cost nothing, and retries with the same
          Idempotency-Key are never charged twice. See{' '}
          <Link to="/payment-methods" className="font-medium text-foreground underline underline-offset-4">
            payment methods
          </Link>
          .
        </p>
      </div>
    </Section>
  );
}
