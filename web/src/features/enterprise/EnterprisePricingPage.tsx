import { USD_MICROS_PER_VERIFICATION, bestSavingsPercent, formatUsd } from '@common/pricing';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ENTERPRISE_CONTAINER, EnterpriseHero, EnterpriseSection } from './components/EnterpriseSection';
import { PlanCards } from './components/PlanCards';
import { RoiCalculator } from './components/RoiCalculator';
import { UptimeTiers } from './components/UptimeTiers';

const PRICE = formatUsd(USD_MICROS_PER_VERIFICATION);

export function EnterprisePricingPage() {
  useDocumentTitle(`Pricing and ROI calculator · Sixdigit Enterprise — ${PRICE} per verification`);
  return (
    <>
      <EnterpriseHero
        eyebrow="Pricing"
        title={`${PRICE} per verification. Nothing else.`}
        description={
          <p>
            Prepaid, per-verification pricing with no monthly minimum — up to {bestSavingsPercent()}% less than SMS
            verification. See what you would save at your volume.
          </p>
        }
      />
      <div className={`${ENTERPRISE_CONTAINER} -mt-6 sm:-mt-10`}>
        <div className="mx-auto max-w-4xl">
          <RoiCalculator />
        </div>
      </div>
      <EnterpriseSection id="plans" eyebrow="Plans" title="Choose a plan">
        <PlanCards />
      </EnterpriseSection>
      <EnterpriseSection
        id="uptime"
        eyebrow="Reliability"
        title="Uptime for every tier"
        description="What each tier is built and monitored for, and the most downtime it allows in a 30-day month."
        className="bg-muted/40"
      >
        <UptimeTiers />
      </EnterpriseSection>
    </>
  );
}
