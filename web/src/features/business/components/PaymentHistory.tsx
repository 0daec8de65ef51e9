import { Download, ReceiptText } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { receiptPdfUrl, type PaymentHistoryEntry } from '../api';
import { formatDate, rupeesFromDecimal } from '../format';

const STATUS: Record<PaymentHistoryEntry['status'], { label: string; variant: 'success' | 'secondary' | 'destructive' }> = {
  approved: { label: 'Approved', variant: 'success' },
  paid: { label: 'Paid', variant: 'success' },
  pending: { label: 'Awaiting review', variant: 'secondary' },
  rejected: { label: 'Rejected', variant: 'destructive' },
};

/**
 * Every payment the business made (bank/UPI claims in any state, card payments), newest first,
 * each credited one with a link to its receipt PDF.
 */
export function PaymentHistory({ entries, isLoading, isError }: { entries: PaymentHistoryEntry[] | undefined; isLoading: boolean; isError: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payments and receipts</CardTitle>
        <CardDescription>Each credited payment has a numbered receipt for your books.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="space-y-3" aria-busy="true">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : isError ? (
          <p role="alert" className="text-sm text-destructive">
            Couldn&apos;t load your payments. Reload the page to try again.
          </p>
        ) : !entries || entries.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            <ReceiptText className="size-7" aria-hidden="true" />
            <p className="font-medium text-foreground">No payments yet</p>
            <p>Your top-ups and their receipts will be listed here.</p>
          </div>
        ) : (
          <ul className="divide-y" aria-label="Payments">
            {entries.map((p) => {
              const status = STATUS[p.status];
              return (
                <li key={p.id} className="flex flex-col gap-2 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0 space-y-0.5">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="font-medium tabular-nums">{rupeesFromDecimal(p.amount)}</span>
                      <Badge variant={status.variant}>{status.label}</Badge>
                    </p>
                    <p className="text-xs break-words text-muted-foreground sm:truncate" title={p.transactionId ?? p.reference}>
                      {formatDate(p.date)} · {p.method} · {p.reference}
                      {p.transactionId && ` · ${p.transactionId}`}
                    </p>
                  </div>
                  {p.receipt ? (
                    <a
                      href={receiptPdfUrl(p.receipt.id)}
                      download
                      className="inline-flex shrink-0 items-center gap-1.5 self-start rounded-md border px-2.5 py-1.5 font-mono text-xs font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:self-auto"
                      aria-label={`Download receipt ${p.receipt.number} (PDF)`}
                    >
                      <Download className="size-3.5" aria-hidden="true" />
                      {p.receipt.number}
                    </a>
                  ) : (
                    <span className="shrink-0 text-xs text-muted-foreground">{p.status === 'pending' ? 'Receipt once approved' : 'No receipt'}</span>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
