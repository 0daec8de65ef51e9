import { useState } from 'react';
import { BadgeIndianRupee, CheckCircle2, Clock, Inbox, Timer, XCircle } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import type { DeskPayment } from '@/features/financial/api';
import { ApproveDialog, RejectDialog } from '@/features/financial/components/DecisionDialogs';
import { PendingCard, RecentList } from '@/features/financial/FinancialDeskPage';
import { rupeesText } from '@/features/payments/components/PaymentRequestsList';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAdminPayments } from './api';
import { AdminGate, AdminLoadError, AdminPage } from './components/AdminShell';

/** "2 h 24 min", "18 min", "40 s" — how long a payment waited for its decision. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function AdminPaymentsPage() {
  useDocumentTitle('Payment approvals · Sixdigit');
  return (
    <AdminGate>
      <Payments />
    </AdminGate>
  );
}

function Payments() {
  const payments = useAdminPayments();
  const [approving, setApproving] = useState<DeskPayment | null>(null);
  const [rejecting, setRejecting] = useState<DeskPayment | null>(null);

  return (
    <AdminPage title="Payment approvals" description="Bank and UPI payments: approve once the money is on the statement (credits are added once), or reject with a reason.">
      {payments.isPending ? (
        <Skeleton className="h-28" />
      ) : payments.isError ? (
        <AdminLoadError error={payments.error} what="payments" onRetry={() => void payments.refetch()} />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
            {[
              { label: 'Pending Approval', value: String(payments.data.counts.pending), icon: Clock },
              { label: 'Pending Amount', value: rupeesText(payments.data.pendingAmount), icon: BadgeIndianRupee },
              { label: 'Approved', value: String(payments.data.counts.approved), icon: CheckCircle2 },
              { label: 'Rejected', value: String(payments.data.counts.rejected), icon: XCircle },
              { label: 'Avg Processing Time', value: formatDuration(payments.data.avgProcessingSeconds), icon: Timer },
            ].map(({ label, value, icon: Icon }) => (
              <Card key={label} className="gap-1 py-4">
                <CardContent className="space-y-1 px-4">
                  <dt className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground sm:text-sm">
                    <Icon className="size-4 shrink-0" aria-hidden="true" />
                    {label}
                  </dt>
                  <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
                </CardContent>
              </Card>
            ))}
          </dl>

          <section aria-labelledby="pending-heading" className="space-y-3">
            <h2 id="pending-heading" className="text-xl font-semibold">
              Pending Approvals
            </h2>
            {payments.data.pending.length === 0 ? (
              <Card>
                <CardContent className="flex flex-col items-center gap-2 py-10 text-center text-sm text-muted-foreground">
                  <Inbox className="size-8" aria-hidden="true" />
                  No payments are waiting for approval.
                </CardContent>
              </Card>
            ) : (
              <ul className="grid gap-4" aria-label="Pending approvals">
                {payments.data.pending.map((p) => (
                  <li key={p.id}>
                    <PendingCard payment={p} onApprove={() => setApproving(p)} onReject={() => setRejecting(p)} />
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="recent-heading" className="space-y-3">
            <h2 id="recent-heading" className="text-xl font-semibold">
              Recently Processed
            </h2>
            <RecentList items={payments.data.recent} isLoading={false} isError={false} />
          </section>
        </>
      )}
      <ApproveDialog payment={approving} onOpenChange={(open) => !open && setApproving(null)} />
      <RejectDialog payment={rejecting} onOpenChange={(open) => !open && setRejecting(null)} />
    </AdminPage>
  );
}
