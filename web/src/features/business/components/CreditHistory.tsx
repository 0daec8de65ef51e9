import { ReceiptIndianRupee } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import type { LedgerEntry } from '../api';
import { formatDate, rupeesFromDecimal } from '../format';

const KIND_WORDS: Record<string, string> = {
  top_up: 'Top-up',
  grant: 'Credit grant',
  refund: 'Refund',
  adjustment: 'Adjustment',
};

const SHOWN = 8;

/** Money added to the balance (the append-only ledger); verifications are listed separately. */
export function CreditHistory({ entries, isLoading }: { entries: LedgerEntry[] | undefined; isLoading: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Credit history</CardTitle>
        <CardDescription>Top-ups and other credits to your balance.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="space-y-3" aria-busy="true">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : !entries || entries.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            <ReceiptIndianRupee className="size-7" aria-hidden="true" />
            <p className="font-medium text-foreground">No credits added yet</p>
            <p>Your top-ups will be listed here.</p>
          </div>
        ) : (
          <ul className="divide-y">
            {entries.slice(0, SHOWN).map((e) => (
              <li key={e.id} className="flex items-start justify-between gap-3 py-2.5 text-sm">
                <div className="min-w-0">
                  <p className="font-medium">{KIND_WORDS[e.kind] ?? e.kind}</p>
                  <p className="truncate text-xs text-muted-foreground" title={e.reason ?? e.reference ?? undefined}>
                    {formatDate(e.createdAt)}
                    {(e.reason || e.reference) && ` · ${e.reason ?? e.reference}`}
                  </p>
                </div>
                <span className={`shrink-0 font-medium tabular-nums ${e.amount.startsWith('-') ? 'text-destructive' : 'text-success'}`}>
                  {e.amount.startsWith('-') ? `−${rupeesFromDecimal(e.amount.slice(1))}` : `+${rupeesFromDecimal(e.amount)}`}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
