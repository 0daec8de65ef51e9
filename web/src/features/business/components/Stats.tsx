import { useId } from 'react';
import { Activity, CircleCheck, CircleX, Clock, IndianRupee, Percent } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import type { BusinessDashboard } from '../api';
import { count, milliseconds, percent, rupeesFromDecimal } from '../format';

interface Tile {
  label: string;
  value: string;
  icon: LucideIcon;
  hint?: string;
}

function StatGroup({ title, description, tiles }: { title: string; description: string; tiles: Tile[] }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h2 id={id} className="text-lg font-semibold tracking-tight">
          {title}
        </h2>
        <p className="text-xs text-muted-foreground">{description}</p>
      </div>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {tiles.map(({ label, value, icon: Icon, hint }) => (
          <div key={label} className="rounded-xl border bg-card p-4 shadow-sm">
            <dt className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground sm:text-sm">
              <Icon className="size-4 shrink-0" aria-hidden="true" />
              {label}
            </dt>
            <dd className="mt-2 text-2xl font-semibold tracking-tight tabular-nums">{value}</dd>
            {hint && <dd className="mt-0.5 text-xs text-muted-foreground">{hint}</dd>}
          </div>
        ))}
      </dl>
    </section>
  );
}

export function TodayStats({ today }: { today: BusinessDashboard['stats']['today'] }) {
  return (
    <StatGroup
      title="Today"
      description="Since midnight UTC"
      tiles={[
        { label: 'Requests', value: count(today.totalRequests), icon: Activity },
        {
          label: 'Success rate',
          value: today.totalRequests === 0 ? '—' : percent(today.successRate),
          icon: Percent,
          hint: today.totalRequests === 0 ? 'No requests yet' : undefined,
        },
        { label: 'Avg response', value: today.totalRequests === 0 ? '—' : milliseconds(today.avgResponseTime), icon: Clock },
        { label: 'Failed', value: count(today.failedVerifications), icon: CircleX },
      ]}
    />
  );
}

export function MonthStats({ month }: { month: BusinessDashboard['stats']['month'] }) {
  return (
    <StatGroup
      title="This month"
      description="Since the 1st, UTC"
      tiles={[
        { label: 'Requests', value: count(month.totalRequests), icon: Activity },
        { label: 'Successful', value: count(month.successfulVerifications), icon: CircleCheck },
        { label: 'Total cost', value: rupeesFromDecimal(month.totalCost), icon: IndianRupee },
        { label: 'Avg response', value: month.totalRequests === 0 ? '—' : milliseconds(month.avgResponseTime), icon: Clock },
      ]}
    />
  );
}
