import { useId } from 'react';
import { BarChart3 } from 'lucide-react';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { DailyCount } from '../api';
import { count, formatLongDay, formatShortDay, percent } from '../format';

const VERIFIED_COLOUR = 'var(--color-success)';
const FAILED_COLOUR = 'var(--color-destructive)';

interface ChartTooltipProps {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: unknown }>;
  label?: string | number;
}

function ChartTooltip({ active, payload, label }: ChartTooltipProps) {
  if (!active || !payload?.length) return null;
  const day = payload[0]?.payload as DailyCount | undefined;
  if (!day) return null;
  return (
    <div className="rounded-lg border bg-popover px-3 py-2 text-xs text-popover-foreground shadow-md">
      <p className="mb-1 font-medium">{formatLongDay(String(label))}</p>
      <p className="flex items-center gap-1.5">
        <span className="size-2 rounded-full bg-success" aria-hidden="true" />
        Verified: <span className="font-medium tabular-nums">{count(day.verified)}</span>
      </p>
      <p className="flex items-center gap-1.5">
        <span className="size-2 rounded-full bg-destructive" aria-hidden="true" />
        Failed: <span className="font-medium tabular-nums">{count(day.failed)}</span>
      </p>
      <p className="mt-1 text-muted-foreground">Total: {count(day.total)}</p>
    </div>
  );
}

/** Daily verifications over the last 30 days, verified and failed stacked; with a data table. */
export function DailyChart({ daily }: { daily: DailyCount[] }) {
  const titleId = useId();
  const total = daily.reduce((sum, d) => sum + d.total, 0);
  const verified = daily.reduce((sum, d) => sum + d.verified, 0);
  const failed = total - verified;

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>Daily verifications</CardTitle>
        <CardDescription>
          Last 30 days (UTC):{' '}
          <span className="font-medium text-foreground">{count(total)} requests</span>
          {total > 0 && (
            <>
              {' '}
              · {count(verified)} verified · {count(failed)} failed · {percent(Math.round((verified / total) * 1000) / 10)} success
            </>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {total === 0 ? (
          <div className="flex h-48 flex-col items-center justify-center gap-2 rounded-lg border border-dashed text-center text-sm text-muted-foreground">
            <BarChart3 className="size-8" aria-hidden="true" />
            <p className="font-medium text-foreground">No verifications in the last 30 days</p>
            <p>Your first call to the verify endpoint will show up here.</p>
          </div>
        ) : (
          <>
            <div aria-hidden="true" data-testid="daily-chart">
              <BarChart
                responsive
                accessibilityLayer={false}
                style={{ width: '100%', height: 240 }}
                data={daily}
                margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
              >
                <CartesianGrid vertical={false} stroke="var(--color-border)" />
                <XAxis
                  dataKey="date"
                  tickFormatter={formatShortDay}
                  tickLine={false}
                  axisLine={false}
                  minTickGap={24}
                  tick={{ fontSize: 12, fill: 'var(--color-muted-foreground)' }}
                />
                <YAxis
                  allowDecimals={false}
                  tickLine={false}
                  axisLine={false}
                  width={48}
                  tick={{ fontSize: 12, fill: 'var(--color-muted-foreground)' }}
                />
                <Tooltip
                  content={(props) => <ChartTooltip active={props.active} payload={props.payload} label={props.label} />} cursor={{ fill: 'var(--color-muted)', opacity: 0.6 }} />
                <Legend
                  itemSorter={(item) => (item.dataKey === 'verified' ? 0 : 1)}
                  iconType="circle"
                  iconSize={8}
                  wrapperStyle={{ fontSize: 12 }}
                  formatter={(value) => <span className="text-muted-foreground">{value}</span>}
                />
                <Bar dataKey="verified" name="Verified" stackId="day" fill={VERIFIED_COLOUR} maxBarSize={28} />
                <Bar dataKey="failed" name="Failed" stackId="day" fill={FAILED_COLOUR} radius={[3, 3, 0, 0]} maxBarSize={28} />
              </BarChart>
            </div>
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer rounded-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
                Show as a table
              </summary>
              <div className="mt-2 max-h-64 overflow-auto rounded-md border">
                <table className="w-full text-left text-sm" aria-labelledby={titleId}>
                  <thead className="sticky top-0 bg-muted">
                    <tr>
                      <th scope="col" className="px-3 py-1.5 font-medium">Day</th>
                      <th scope="col" className="px-3 py-1.5 text-right font-medium">Verified</th>
                      <th scope="col" className="px-3 py-1.5 text-right font-medium">Failed</th>
                      <th scope="col" className="px-3 py-1.5 text-right font-medium">Total</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...daily].reverse().map((d) => (
                      <tr key={d.date} className="border-t">
                        <th scope="row" className="px-3 py-1 font-normal">{formatLongDay(d.date)}</th>
                        <td className="px-3 py-1 text-right tabular-nums">{count(d.verified)}</td>
                        <td className="px-3 py-1 text-right tabular-nums">{count(d.failed)}</td>
                        <td className="px-3 py-1 text-right tabular-nums">{count(d.total)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </>
        )}
      </CardContent>
    </Card>
  );
}
