import { Skeleton } from '@/components/ui/skeleton';

/** Stat tiles while the dashboard figures load. */
export function StatsSkeleton() {
  return (
    <div className="space-y-8" aria-hidden="true">
      {[0, 1].map((group) => (
        <div key={group} className="space-y-3">
          <Skeleton className="h-6 w-32" />
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} className="h-24 rounded-xl" />
            ))}
          </div>
        </div>
      ))}
      <Skeleton className="h-80 rounded-xl" />
      <Skeleton className="h-64 rounded-xl" />
    </div>
  );
}

/** The whole page while the business profile loads. */
export function DashboardSkeleton() {
  return (
    <div className="mx-auto w-full max-w-6xl space-y-8 px-4 py-8 sm:px-6" role="status" aria-label="Loading business dashboard">
      <div className="space-y-2" aria-hidden="true">
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]" aria-hidden="true">
        <Skeleton className="h-56 rounded-xl" />
        <Skeleton className="h-56 rounded-xl" />
      </div>
      <StatsSkeleton />
    </div>
  );
}
