import { useId, useState } from 'react';
import { ROI_SLIDER, formatCount, formatUsd, roiSavings, snapRoiVolume } from '@common/pricing';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CostTable } from './CostTable';

/** The pricing page's ROI calculator: a native range input, so keyboard and screen readers just work. */
export function RoiCalculator() {
  const [volume, setVolume] = useState<number>(ROI_SLIDER.defaultValue);
  const roi = roiSavings(volume);
  const sliderId = useId();
  const best = roi.competitors.reduce((a, b) => (b.monthlySavingsUsdMicros > a.monthlySavingsUsdMicros ? b : a));
  return (
    <Card>
      <CardHeader className="px-4 sm:px-6">
        <h2 className="text-xl font-semibold tracking-tight">ROI calculator</h2>
        <CardDescription>Move the slider to your monthly verification volume.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6 px-4 sm:px-6">
        <div>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <label htmlFor={sliderId} className="text-sm font-medium">
              Monthly verifications
            </label>
            <output htmlFor={sliderId} className="text-2xl font-semibold tabular-nums" data-testid="roi-volume">
              {formatCount(volume)}
            </output>
          </div>
          <input
            id={sliderId}
            type="range"
            min={ROI_SLIDER.min}
            max={ROI_SLIDER.max}
            step={ROI_SLIDER.step}
            value={volume}
            aria-valuetext={`${formatCount(volume)} verifications a month`}
            onChange={(event) => setVolume(snapRoiVolume(Number(event.target.value)))}
            className="mt-3 h-2 w-full cursor-pointer accent-primary"
          />
          <div className="mt-1 flex justify-between text-xs text-muted-foreground" aria-hidden="true">
            <span>{formatCount(ROI_SLIDER.min)}</span>
            <span>{formatCount(ROI_SLIDER.max)}</span>
          </div>
        </div>
        <div className="grid gap-3 sm:grid-cols-3" aria-live="polite">
          <div className="rounded-lg border p-4">
            <p className="text-sm text-muted-foreground">Sixdigit, monthly</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid="roi-ours">{formatUsd(roi.sixdigitMonthlyUsdMicros)}</p>
          </div>
          <div className="rounded-lg border border-success/40 bg-success/10 p-4 sm:col-span-2">
            <p className="text-sm text-muted-foreground">You save each month</p>
            <p className="mt-1 text-2xl font-semibold text-success tabular-nums" data-testid="roi-savings">
              {formatUsd(best.monthlySavingsUsdMicros)} ({best.savingsPercent}%)
            </p>
            <p className="mt-1 text-sm text-muted-foreground">
              <span data-testid="roi-annual">{formatUsd(best.annualSavingsUsdMicros)} a year</span> compared with {best.competitor.name}
            </p>
          </div>
        </div>
        <CostTable roi={roi} caption={`Monthly cost at ${formatCount(volume)} verifications`} />
      </CardContent>
    </Card>
  );
}
