import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { formatCount, formatUsd, roiSavings } from '@common/pricing';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EnterprisePlaceholder } from './EnterprisePlaceholder';

/** The fixed calculator example on the enterprise landing page (SPEC §2). */
export const LANDING_EXAMPLE_VERIFICATIONS = 1_000_000;

export function EnterpriseLandingPage() {
  const roi = roiSavings(LANDING_EXAMPLE_VERIFICATIONS);
  const best = roi.competitors.reduce((a, b) => (b.monthlySavingsUsdMicros > a.monthlySavingsUsdMicros ? b : a));

  return (
    <EnterprisePlaceholder
      eyebrow="Sixdigit Enterprise"
      title="TOTP verification at $0.0038 per verification"
      description="Replace SMS and WhatsApp one-time codes with standard RFC 6238 authenticator codes — verified by one API call, billed per verification, with no carrier in the loop."
      actions={
        <>
          <Button asChild size="lg">
            <Link to="/pricing">
              See pricing <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/docs">Read the API docs</Link>
          </Button>
        </>
      }
      planned={[
        'Feature cards: security, speed, uptime, compliance, analytics and support',
        `A worked cost example at ${formatCount(LANDING_EXAMPLE_VERIFICATIONS)} monthly verifications`,
        'How Sixdigit compares with two leading SMS verification providers',
        'Plans from Developer to custom Enterprise',
      ]}
    >
      <Card>
        <CardHeader>
          <CardTitle>
            <span>At {formatCount(LANDING_EXAMPLE_VERIFICATIONS)} verifications a month</span>
          </CardTitle>
          <CardDescription>Monthly cost at list prices.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="divide-y text-sm">
            <div className="flex items-center justify-between gap-4 py-2">
              <dt className="font-medium">Sixdigit</dt>
              <dd className="font-semibold text-primary tabular-nums">{formatUsd(roi.sixdigitMonthlyUsdMicros)}</dd>
            </div>
            {roi.competitors.map(({ competitor, monthlyCostUsdMicros }) => (
              <div key={competitor.id} className="flex items-center justify-between gap-4 py-2">
                <dt className="text-muted-foreground">{competitor.name}</dt>
                <dd className="tabular-nums">{formatUsd(monthlyCostUsdMicros)}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-4 rounded-md bg-success/10 px-3 py-2 text-sm font-medium text-success">
            Save {best.savingsPercent}% — {formatUsd(best.monthlySavingsUsdMicros)} a month.
          </p>
        </CardContent>
      </Card>
    </EnterprisePlaceholder>
  );
}
