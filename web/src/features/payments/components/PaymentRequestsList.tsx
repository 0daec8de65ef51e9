import { Receipt } from 'lucide-react';
import { formatCountIndian, formatRupees, parseRupeesToPaise } from '@common/pricing';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/features/business/format';
import type { PaymentRequest } from '../api';
import { StatusBadge } from './StatusBadge';

export function rupeesText(decimal: string): string {
  const paise = parseRupeesToPaise(decimal);
  return paise === null ? `₹${decimal}` : formatRupees(paise);
}

export function PaymentRequestsList({ requests, isLoading, isError }: { requests: PaymentRequest[] | undefined; isLoading: boolean; isError: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Receipt className="size-5" aria-hidden="true" />
          Your payment requests
        </CardTitle>
        <CardDescription>Bank and UPI payments you reported, and what the finance team decided.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div role="status" aria-label="Loading payment requests" className="space-y-2">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : isError ? (
          <p role="alert" className="text-sm text-destructive">
            Couldn&apos;t load your payment requests.
          </p>
        ) : !requests?.length ? (
          <p className="text-sm text-muted-foreground">
            No payment requests yet. After you pay, submit the UTR and it shows here until it is approved.
          </p>
        ) : (
          <ul className="divide-y" aria-label="Payment requests">
            {requests.map((r) => (
              <li key={r.id} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
                <div className="min-w-0 space-y-0.5 text-sm">
                  <p className="font-medium">
                    <span className="tabular-nums">{rupeesText(r.amount)}</span>
                    {r.verifications !== null && (
                      <span className="font-normal text-muted-foreground"> · {formatCountIndian(r.verifications)} verifications</span>
                    )}
                  </p>
                  <p className="break-all text-muted-foreground">
                    Ref <code className="font-mono">{r.paymentReference}</code> · UTR <code className="font-mono">{r.utr}</code>
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {r.paymentMethod} · submitted {formatDateTime(r.createdAt)}
                    {r.processedAt && ` · decided ${formatDateTime(r.processedAt)}`}
                  </p>
                  {r.status === 'rejected' && r.reason && <p className="text-destructive">Reason: {r.reason}</p>}
                </div>
                <div className="shrink-0">
                  <StatusBadge status={r.status} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
