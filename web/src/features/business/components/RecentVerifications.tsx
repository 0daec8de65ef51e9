import { CircleCheck, CircleX, Clock, History, RotateCcw } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import type { RecentVerification } from '../api';
import { formatDateTime, milliseconds, rupeesFromDecimal, statusLabel, timeAgo } from '../format';

export function StatusBadge({ status }: { status: string }) {
  const label = statusLabel(status);
  if (status === 'verified') {
    return (
      <Badge variant="success">
        <CircleCheck aria-hidden="true" />
        {label}
      </Badge>
    );
  }
  if (status === 'invalid_code') {
    return (
      <Badge variant="outline" className="border-destructive/40 bg-destructive/10 text-destructive">
        <CircleX aria-hidden="true" />
        {label}
      </Badge>
    );
  }
  if (status === 'expired') {
    return (
      <Badge variant="outline" className="border-warning/50 bg-warning/10 text-foreground">
        <Clock aria-hidden="true" className="text-warning" />
        {label}
      </Badge>
    );
  }
  return (
    <Badge variant="outline">
      <RotateCcw aria-hidden="true" />
      {label}
    </Badge>
  );
}

export function RecentVerifications({ items }: { items: RecentVerification[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent verifications</CardTitle>
        <CardDescription>The latest {items.length > 0 ? items.length : ''} checks made with your API key.</CardDescription>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <div className="flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">
            <History className="size-8" aria-hidden="true" />
            <p className="font-medium text-foreground">No verifications yet</p>
            <p className="max-w-sm">
              Enrol a user with <code className="font-mono text-xs">POST /generate</code>, then check their code with{' '}
              <code className="font-mono text-xs">POST /verify</code>. Each check appears here.
            </p>
          </div>
        ) : (
          <div>
            <div
              aria-hidden="true"
              className="hidden grid-cols-[7.5rem_minmax(0,1.2fr)_minmax(0,1fr)_6.5rem_4.5rem_3.5rem] gap-3 border-b px-2 pb-2 text-xs font-medium text-muted-foreground md:grid"
            >
              <span>Status</span>
              <span>User</span>
              <span>Purpose</span>
              <span>Time</span>
              <span className="text-right">Response</span>
              <span className="text-right">Cost</span>
            </div>
            <ul className="divide-y" aria-label="Recent verifications">
              {items.map((v) => (
                <li
                  key={v.id}
                  className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-1 px-2 py-3 text-sm md:grid-cols-[7.5rem_minmax(0,1.2fr)_minmax(0,1fr)_6.5rem_4.5rem_3.5rem]"
                >
                  <span>
                    <StatusBadge status={v.status} />
                  </span>
                  <span className="min-w-0 truncate font-mono text-xs" title={v.userId ?? undefined}>
                    <span className="sr-only">User </span>
                    {v.userId ?? <span className="font-sans text-muted-foreground">stateless check</span>}
                  </span>
                  <span className="col-span-2 flex min-w-0 flex-wrap gap-x-3 text-xs text-muted-foreground md:contents">
                    <span className={cn('min-w-0 truncate md:text-sm', v.purpose && 'font-medium text-foreground md:font-normal')}>
                      <span className="sr-only">Purpose: </span>
                      {v.purpose || 'No purpose'}
                    </span>
                    <time dateTime={v.createdAt} title={formatDateTime(v.createdAt)} className="md:text-sm">
                      {timeAgo(v.createdAt)}
                    </time>
                    <span className="tabular-nums md:text-right md:text-sm">
                      <span className="sr-only">Response time </span>
                      {milliseconds(v.responseTime)}
                    </span>
                    <span className="tabular-nums md:text-right md:text-sm">
                      <span className="sr-only">Cost </span>
                      {rupeesFromDecimal(v.cost)}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
