import { useState, type ReactNode } from 'react';
import { BadgeIndianRupee, CheckCircle2, Clock, Inbox, Landmark, LogIn, MessageSquare, RotateCw, ShieldX, TriangleAlert, XCircle } from 'lucide-react';
import { GateCard } from '@/components/GateCard';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { Skeleton } from '@/components/ui/skeleton';
import { loginUrl, useCurrentUser, type UserRole } from '@/features/auth/api';
import { formatDateTime } from '@/features/business/format';
import { StatusBadge } from '@/features/payments/components/StatusBadge';
import { rupeesText } from '@/features/payments/components/PaymentRequestsList';
import { useDocumentTitle } from '@/lib/use-document-title';
import { isForbidden, useDeskStats, usePendingApprovals, useRecentlyProcessed, type DeskPayment, type DeskStats } from './api';
import { isMfaRequired } from '@/features/admin/api';
import { MfaVerificationRequired } from '@/features/admin/components/AdminShell';
import { ContactMessages } from './components/ContactMessages';
import { ApproveDialog, RejectDialog } from './components/DecisionDialogs';

export const ACCESS_DENIED = "Access Denied: You don't have permission to access this area.";
const DESK_ROLES: readonly UserRole[] = ['financial_manager', 'admin'];

/** /financial-manager (SPEC §2): bank/UPI approvals for financial managers and the admin. */
export function FinancialDeskPage() {
  useDocumentTitle('Financial manager · Sixdigit');
  const { user, isLoading } = useCurrentUser();

  if (isLoading) return <PageSpinner label="Loading" />;
  if (!user) {
    return (
      <GateCard icon={LogIn} title="Authentication Required">
        <p className="text-sm text-muted-foreground">Please log in with a financial manager account.</p>
        <Button asChild>
          <a href={loginUrl('/financial-manager')}>Log In</a>
        </Button>
      </GateCard>
    );
  }
  if (!DESK_ROLES.includes(user.role)) return <AccessDenied />;
  return <Desk />;
}

function AccessDenied() {
  return (
    <GateCard icon={ShieldX} title="Access Denied" alert>
      <p className="text-sm">{ACCESS_DENIED}</p>
    </GateCard>
  );
}

function Desk() {
  const pending = usePendingApprovals(true);
  const stats = useDeskStats(true);
  const recent = useRecentlyProcessed(true);
  const [approving, setApproving] = useState<DeskPayment | null>(null);
  const [rejecting, setRejecting] = useState<DeskPayment | null>(null);

  const errors = [pending.error, stats.error, recent.error];
  // The administrator reads the desk only with MFA verified in the last 30 minutes.
  if (errors.some(isMfaRequired)) return <MfaVerificationRequired />;
  // The role was taken away while the page was open (or never matched the server's view).
  if (errors.some(isForbidden)) return <AccessDenied />;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-1">
        <p className="text-sm font-medium text-primary">Finance</p>
        <h1 className="text-3xl font-bold tracking-tight">Financial manager desk</h1>
        <p className="text-sm text-muted-foreground">
          Check each payment against the bank statement, then approve it (credits are added once) or reject it with a reason.
        </p>
      </header>

      <StatsGrid stats={stats.data} isLoading={stats.isPending} />

      <section aria-labelledby="pending-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="pending-heading" className="text-xl font-semibold">
            Pending approvals
          </h2>
          <Button type="button" variant="outline" size="sm" onClick={() => void pending.refetch()} disabled={pending.isFetching}>
            <RotateCw aria-hidden="true" className={pending.isFetching ? 'animate-spin' : undefined} />
            Refresh
          </Button>
        </div>
        {pending.isPending ? (
          <div role="status" aria-label="Loading pending approvals" className="space-y-3">
            <Skeleton className="h-40" />
            <Skeleton className="h-40" />
          </div>
        ) : pending.isError ? (
          <LoadFailed what="pending approvals" onRetry={() => void pending.refetch()} />
        ) : pending.data.length === 0 ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-2 py-10 text-center text-sm text-muted-foreground">
              <Inbox className="size-8" aria-hidden="true" />
              No payments are waiting for approval.
            </CardContent>
          </Card>
        ) : (
          <ul className="grid gap-4" aria-label="Pending approvals">
            {pending.data.map((p) => (
              <li key={p.id}>
                <PendingCard payment={p} onApprove={() => setApproving(p)} onReject={() => setRejecting(p)} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <ContactMessages />

      <section aria-labelledby="recent-heading" className="space-y-3">
        <h2 id="recent-heading" className="text-xl font-semibold">
          Recently processed
        </h2>
        <RecentList items={recent.data} isLoading={recent.isPending} isError={recent.isError} />
      </section>

      <ApproveDialog payment={approving} onOpenChange={(open) => !open && setApproving(null)} />
      <RejectDialog payment={rejecting} onOpenChange={(open) => !open && setRejecting(null)} />
    </div>
  );
}

function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Card role="alert">
      <CardContent className="flex flex-col items-start gap-3 pt-6 text-sm">
        <p className="flex items-center gap-2">
          <TriangleAlert className="size-4 text-destructive" aria-hidden="true" />
          Couldn&apos;t load the {what}.
        </p>
        <Button type="button" variant="outline" size="sm" onClick={onRetry}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </CardContent>
    </Card>
  );
}

function StatsGrid({ stats, isLoading }: { stats: DeskStats | undefined; isLoading: boolean }) {
  const items: { label: string; value: string | undefined; icon: typeof Clock }[] = [
    { label: 'Pending approvals', value: stats && String(stats.pendingApprovals), icon: Clock },
    { label: 'Open messages', value: stats && String(stats.openMessages), icon: MessageSquare },
    { label: 'Approved today', value: stats && String(stats.todayApprovals), icon: CheckCircle2 },
    { label: 'Awaiting approval', value: stats && rupeesText(stats.totalAmount), icon: BadgeIndianRupee },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-busy={isLoading || undefined}>
      {items.map(({ label, value, icon: Icon }) => (
        // The card itself is the <dl> group: a <dt>/<dd> pair may sit in one <div>, no deeper.
        <Card key={label} className="gap-1 px-4 py-4">
          <dt className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground sm:text-sm">
            <Icon className="size-4 shrink-0" aria-hidden="true" />
            {label}
          </dt>
          <dd className="text-2xl font-semibold tabular-nums">{value ?? <Skeleton className="h-8 w-16" />}</dd>
        </Card>
      ))}
    </dl>
  );
}

export function PendingCard({ payment: p, onApprove, onReject }: { payment: DeskPayment; onApprove: () => void; onReject: () => void }) {
  const amount = rupeesText(p.amount);
  const duplicates = p.duplicateUtr ?? [];
  const credited = duplicates.find((d) => d.status === 'approved');
  return (
    <Card>
      <CardHeader className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <CardTitle className="flex items-center gap-2 text-lg break-words">
            <Landmark className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            {p.companyName}
          </CardTitle>
          <CardDescription className="break-all">{p.businessEmail ?? 'No e-mail on file'}</CardDescription>
        </div>
        <p className="text-2xl font-semibold tabular-nums">{amount}</p>
      </CardHeader>
      <CardContent className="space-y-4">
        {duplicates.length > 0 && <DuplicateUtrNote utr={p.utr} duplicates={duplicates} />}
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <Field term="Method">{p.paymentMethod}</Field>
          <Field term="Submitted">{formatDateTime(p.createdAt)}</Field>
          <Field term="Reference">
            <code className="font-mono break-all">{p.paymentReference}</code>
          </Field>
          <Field term="UTR">
            <code className="font-mono break-all">{p.utr}</code>
          </Field>
          {p.verificationCode && (
            <Field term="Verification code">
              <code className="font-mono">{p.verificationCode}</code>
            </Field>
          )}
          <Field term="Paid to">{p.bankAccountDetails}</Field>
          <Field term="Notes" wide>
            {p.notes ?? <span className="text-muted-foreground">None</span>}
          </Field>
        </dl>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button type="button" onClick={onApprove} disabled={Boolean(credited)} aria-label={`Approve ${amount} from ${p.companyName}`}>
            <CheckCircle2 aria-hidden="true" />
            Approve
          </Button>
          <Button type="button" variant="outline" onClick={onReject} aria-label={`Reject ${amount} from ${p.companyName}`}>
            <XCircle aria-hidden="true" />
            Reject
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** Two businesses quoted one UTR: say so on the card, and which claim already holds the credit. */
function DuplicateUtrNote({ utr, duplicates }: { utr: string; duplicates: NonNullable<DeskPayment['duplicateUtr']> }) {
  const credited = duplicates.find((d) => d.status === 'approved');
  return (
    <div role="note" aria-label="Duplicate UTR" className="space-y-1 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
      <p className="flex flex-wrap items-center gap-2 font-medium">
        <Badge variant="destructive">
          <TriangleAlert aria-hidden="true" />
          Duplicate UTR
        </Badge>
        <span>
          UTR <code className="font-mono break-all">{utr}</code> is also quoted by {duplicates.length === 1 ? 'another payment request' : `${duplicates.length} other payment requests`}.
        </span>
      </p>
      <p className="text-muted-foreground">
        {credited ? (
          <>
            It was already credited to {credited.companyName} (<code className="font-mono">{credited.id}</code>): reject this claim with a reason.
          </>
        ) : (
          <>
            Only one can be approved. Check which business the bank statement shows before approving (
            {duplicates.map((d, i) => (
              <span key={d.id}>
                {i > 0 && '; '}
                {d.companyName}, <code className="font-mono">{d.id}</code>, {d.status}
              </span>
            ))}
            ).
          </>
        )}
      </p>
    </div>
  );
}

function Field({ term, children, wide = false }: { term: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'min-w-0 sm:col-span-2' : 'min-w-0'}>
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

export function RecentList({ items, isLoading, isError }: { items: DeskPayment[] | undefined; isLoading: boolean; isError: boolean }) {
  if (isLoading) return <Skeleton className="h-24" />;
  if (isError) return <p role="alert" className="text-sm text-destructive">Couldn&apos;t load the recently processed payments.</p>;
  if (!items?.length) return <p className="text-sm text-muted-foreground">Nothing processed yet.</p>;
  return (
    <Card>
      <CardContent className="pt-2">
        <ul className="divide-y" aria-label="Recently processed">
          {items.map((p) => (
            <li key={p.id} className="flex flex-col gap-1 py-3 text-sm sm:flex-row sm:items-start sm:justify-between sm:gap-4">
              <div className="min-w-0 space-y-0.5">
                <p className="font-medium break-words">
                  {p.companyName} · <span className="tabular-nums">{rupeesText(p.amount)}</span>
                </p>
                <p className="break-all text-muted-foreground">
                  Ref <code className="font-mono">{p.paymentReference}</code> · UTR <code className="font-mono">{p.utr}</code>
                </p>
                <p className="text-xs text-muted-foreground">
                  {p.processedBy ? `by ${p.processedBy}` : ''}
                  {p.processedAt ? ` · ${formatDateTime(p.processedAt)}` : ''}
                </p>
                {p.reason && <p className="text-destructive">Reason: {p.reason}</p>}
                {p.decisionNotes && <p className="text-muted-foreground">Notes: {p.decisionNotes}</p>}
              </div>
              <div className="shrink-0">
                <StatusBadge status={p.status} />
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
