import {
  ENTERPRISE_COMPETITORS,
  ENTERPRISE_PLANS,
  formatCount,
  formatUsd,
  roiSavings,
  USD_MICROS_PER_VERIFICATION,
} from '@common/pricing';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EnterprisePlaceholder } from './EnterprisePlaceholder';

/** ROI slider range (SPEC §5). */
export const ROI_SLIDER = { min: 10_000, max: 10_000_000, step: 10_000, defaultValue: 1_000_000 } as const;

function planSummary(): string {
  return ENTERPRISE_PLANS.map((plan) =>
    plan.priceUsdMicros === null || plan.verifications === null
      ? `${plan.name} (custom)`
      : `${plan.name} (${formatUsd(plan.priceUsdMicros)} for ${formatCount(plan.verifications)})`,
  ).join(', ');
}

export function EnterprisePricingPage() {
  const atDefault = roiSavings(ROI_SLIDER.defaultValue);
  return (
    <EnterprisePlaceholder
      eyebrow="Pricing"
      title={`Pay ${formatUsd(USD_MICROS_PER_VERIFICATION)} per verification. Nothing else.`}
      description="Prepaid, per-verification pricing with no monthly minimum. See exactly what you would save against the providers you use today."
      planned={[
        `An ROI calculator: slide from ${formatCount(ROI_SLIDER.min)} to ${formatCount(ROI_SLIDER.max)} monthly verifications in steps of ${formatCount(ROI_SLIDER.step)} (default ${formatCount(ROI_SLIDER.defaultValue)})`,
        'Your monthly and annual savings against each provider',
        `Plans: ${planSummary()}`,
        'Uptime commitments per plan',
      ]}
    >
      <Card>
        <CardHeader>
          <CardTitle>
            <span>Price per verification</span>
          </CardTitle>
          <CardDescription>List prices, in US dollars.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="divide-y text-sm">
            <div className="flex items-center justify-between gap-4 py-2">
              <dt className="font-medium">Sixdigit</dt>
              <dd className="font-semibold text-primary tabular-nums">{formatUsd(USD_MICROS_PER_VERIFICATION)}</dd>
            </div>
            {ENTERPRISE_COMPETITORS.map((c) => (
              <div key={c.id} className="flex items-center justify-between gap-4 py-2">
                <dt className="text-muted-foreground">{c.name}</dt>
                <dd className="tabular-nums">{formatUsd(c.usdMicrosPerVerification)}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-4 text-sm text-muted-foreground">
            At {formatCount(ROI_SLIDER.defaultValue)} verifications a month that is{' '}
            <span className="font-medium text-foreground">{formatUsd(atDefault.sixdigitMonthlyUsdMicros)}</span> with
            Sixdigit.
          </p>
        </CardContent>
      </Card>
    </EnterprisePlaceholder>
  );
}
