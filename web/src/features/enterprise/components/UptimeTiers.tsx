import { ENTERPRISE_PLANS, formatDuration, formatUptime, monthlyDowntimeSeconds, uptimeTierFor } from '@common/pricing';

/** 99.9 / 99.95 / 99.99 % by plan, with what each allows in a 30-day month. */
export function UptimeTiers() {
  return (
    <ul className="grid gap-4 sm:grid-cols-3">
      {ENTERPRISE_PLANS.map((plan) => {
        const { basisPoints } = uptimeTierFor(plan.id);
        return (
          <li key={plan.id} className="rounded-xl border bg-card p-5 text-center">
            <p className="text-sm font-medium text-muted-foreground">{plan.name}</p>
            <p className="mt-1 text-3xl font-semibold tracking-tight tabular-nums">{formatUptime(basisPoints)}</p>
            <p className="mt-1 text-xs text-muted-foreground">
              at most {formatDuration(monthlyDowntimeSeconds(basisPoints))} of downtime in a 30-day month
            </p>
          </li>
        );
      })}
    </ul>
  );
}
