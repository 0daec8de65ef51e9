import { CheckIcon } from 'lucide-react';
import {
  ENTERPRISE_PLANS,
  effectiveUsdMicrosPerVerification,
  formatCount,
  formatUptime,
  formatUsd,
  planBonusPercent,
  uptimeTierFor,
  type EnterprisePlan,
} from '@common/pricing';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { useMainSiteOrigin } from '../api';
import { ENTERPRISE_PLAN_COPY } from '../content';

function PlanCard({ plan, mainOrigin }: { plan: EnterprisePlan; mainOrigin: string }) {
  const copy = ENTERPRISE_PLAN_COPY[plan.id];
  const titleId = `enterprise-plan-${plan.id}`;
  const perVerification = effectiveUsdMicrosPerVerification(plan);
  const uptime = formatUptime(uptimeTierFor(plan.id).basisPoints);
  const bonus = planBonusPercent(plan);
  const features = [...copy.features, ...(bonus > 0 ? [`${bonus}% bonus verifications`] : []), `${uptime} uptime target`];
  return (
    <Card
      role="group"
      aria-labelledby={titleId}
      className={cn('relative flex flex-col', plan.featured && 'border-primary shadow-md ring-1 ring-primary')}
    >
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle id={titleId}>{plan.name}</CardTitle>
          {plan.featured && <Badge>Best value</Badge>}
        </div>
        <CardDescription>{copy.tagline}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col">
        {plan.priceUsdMicros !== null && plan.verifications !== null && perVerification !== null ? (
          <div>
            <p className="text-4xl font-semibold tracking-tight tabular-nums">{formatUsd(plan.priceUsdMicros)}</p>
            <p className="mt-1 text-sm text-muted-foreground">
              <span className="font-medium text-foreground">{formatCount(plan.verifications)} verifications</span>
              {plan.bonusVerifications > 0 && plan.includedVerifications !== null && (
                <> ({formatCount(plan.includedVerifications)} + {formatCount(plan.bonusVerifications)} bonus)</>
              )}
            </p>
            <p className="mt-1 text-sm text-muted-foreground">
              {formatUsd(perVerification)} per verification
            </p>
          </div>
        ) : (
          <div>
            <p className="text-4xl font-semibold tracking-tight">Custom</p>
            <p className="mt-1 text-sm text-muted-foreground">Priced for your volume</p>
          </div>
        )}
        <ul className="mt-6 space-y-2.5 text-sm">
          {features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <CheckIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        {/* Accounts and the contact desk live on the main site (full navigation, not a route here). */}
        <Button asChild size="lg" variant={plan.featured ? 'default' : 'outline'} className="w-full">
          <a href={`${mainOrigin}${copy.ctaPath}`}>{copy.cta}</a>
        </Button>
      </CardFooter>
    </Card>
  );
}

/** Developer, Business and Enterprise, from the pricing catalogue. */
export function PlanCards() {
  const mainOrigin = useMainSiteOrigin();
  return (
    <div className="grid gap-6 md:grid-cols-3">
      {ENTERPRISE_PLANS.map((plan) => (
        <PlanCard key={plan.id} plan={plan} mainOrigin={mainOrigin} />
      ))}
    </div>
  );
}
