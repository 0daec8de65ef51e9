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
import { PlanCard } from '@/components/site/PlanCard';
import { useMainSiteOrigin } from '../api';
import { ENTERPRISE_PLAN_COPY } from '../content';

function EnterprisePlanCard({ plan, mainOrigin }: { plan: EnterprisePlan; mainOrigin: string }) {
  const copy = ENTERPRISE_PLAN_COPY[plan.id];
  const perVerification = effectiveUsdMicrosPerVerification(plan);
  const uptime = formatUptime(uptimeTierFor(plan.id).basisPoints);
  const bonus = planBonusPercent(plan);
  const features = [...copy.features, ...(bonus > 0 ? [`${bonus}% bonus verifications`] : []), `${uptime} uptime target`];
  const figures =
    plan.priceUsdMicros !== null && plan.verifications !== null && perVerification !== null
      ? {
          price: formatUsd(plan.priceUsdMicros),
          notes: [
            <>
              <span className="font-medium text-foreground">{formatCount(plan.verifications)} verifications</span>
              {plan.bonusVerifications > 0 && plan.includedVerifications !== null && (
                <> ({formatCount(plan.includedVerifications)} + {formatCount(plan.bonusVerifications)} bonus)</>
              )}
            </>,
            <>{formatUsd(perVerification)} per verification</>,
          ],
        }
      : { price: 'Custom', notes: ['Priced for your volume'] };
  return (
    <PlanCard
      titleId={`enterprise-plan-${plan.id}`}
      name={plan.name}
      tagline={copy.tagline}
      featured={plan.featured}
      badge="Best value"
      price={figures.price}
      priceNotes={figures.notes}
      features={features}
      // Accounts and the contact desk live on the main site: a full page load, not a route here.
      cta={{ label: copy.cta, href: `${mainOrigin}${copy.ctaPath}`, reload: true }}
    />
  );
}

/** Developer, Business and Enterprise, from the pricing catalogue. */
export function PlanCards() {
  const mainOrigin = useMainSiteOrigin();
  return (
    <div className="grid gap-6 md:grid-cols-3">
      {ENTERPRISE_PLANS.map((plan) => (
        <EnterprisePlanCard key={plan.id} plan={plan} mainOrigin={mainOrigin} />
      ))}
    </div>
  );
}
