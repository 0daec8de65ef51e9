import { formatCount, formatUsd, USD_MICROS_PER_VERIFICATION, type RoiResult } from '@common/pricing';

/** Monthly cost at one volume: Sixdigit against each competitor, with the saving in $ and %. */
export function CostTable({ roi, caption }: { roi: RoiResult; caption: string }) {
  return (
    // Focusable so keyboard users can scroll it when a phone is too narrow for four columns.
    <div role="group" aria-label={caption} tabIndex={0} className="overflow-x-auto rounded-lg border outline-none focus-visible:ring-2 focus-visible:ring-ring">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/60 text-muted-foreground">
          <tr>
            <th scope="col" className="px-2 py-2 font-medium sm:px-4">Provider</th>
            <th scope="col" className="hidden px-2 py-2 text-right font-medium sm:table-cell sm:px-4">Per verification</th>
            <th scope="col" className="px-2 py-2 text-right font-medium sm:px-4">Monthly cost</th>
            <th scope="col" className="px-2 py-2 text-right font-medium sm:px-4">You save</th>
          </tr>
        </thead>
        <tbody className="divide-y">
          <tr className="bg-primary/5">
            <th scope="row" className="px-2 py-2.5 font-semibold sm:px-4">Sixdigit</th>
            <td className="hidden px-2 py-2.5 text-right tabular-nums sm:table-cell sm:px-4">{formatUsd(USD_MICROS_PER_VERIFICATION)}</td>
            <td className="px-2 py-2.5 text-right font-semibold text-primary tabular-nums sm:px-4" data-testid="sixdigit-monthly">
              {formatUsd(roi.sixdigitMonthlyUsdMicros)}
            </td>
            <td className="px-2 py-2.5 text-right text-muted-foreground sm:px-4">—</td>
          </tr>
          {roi.competitors.map((c) => (
            <tr key={c.competitor.id}>
              <th scope="row" className="px-2 py-2.5 font-normal sm:px-4">{c.competitor.name}</th>
              <td className="hidden px-2 py-2.5 text-right tabular-nums sm:table-cell sm:px-4">{formatUsd(c.competitor.usdMicrosPerVerification)}</td>
              <td className="px-2 py-2.5 text-right tabular-nums sm:px-4">{formatUsd(c.monthlyCostUsdMicros)}</td>
              <td className="px-2 py-2.5 text-right font-medium text-success tabular-nums sm:px-4">
                {formatUsd(c.monthlySavingsUsdMicros)} ({c.savingsPercent}%)
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="border-t px-3 py-2 text-xs text-muted-foreground sm:px-4">
        {formatCount(roi.monthlyVerifications)} verifications a month at list prices.
      </p>
    </div>
  );
}
