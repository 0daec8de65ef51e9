import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Ban, Building2, CircleCheck, Gauge, IndianRupee, PauseCircle, Search } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime, timeAgo } from '@/features/business/format';
import { rupeesText } from '@/features/payments/components/PaymentRequestsList';
import { apiSend, errorMessage } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAdminAction, useAdminBusiness, useAdminBusinesses, type AdminBusiness } from './api';
import { AdminGate, AdminLoadError, AdminPage } from './components/AdminShell';

export function AdminBusinessesPage() {
  useDocumentTitle('Businesses · Sixdigit');
  return (
    <AdminGate>
      <Businesses />
    </AdminGate>
  );
}

function Businesses() {
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const list = useAdminBusinesses(query);
  const searchId = useId();

  return (
    <AdminPage title="Businesses" description="Find a business, see its balance, ledger and key; grant credit, set its rate limit, suspend its API access. Everything here is audited.">
      <form
        role="search"
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(draft.trim());
        }}
      >
        <div className="flex-1 space-y-1">
          <Label htmlFor={searchId}>Company name, business id or owner e-mail</Label>
          <Input id={searchId} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-label="Businesses found" className="space-y-2">
          {list.isPending ? (
            <Skeleton className="h-40" />
          ) : list.isError ? (
            <AdminLoadError error={list.error} what="businesses" onRetry={() => void list.refetch()} />
          ) : list.data.businesses.length === 0 ? (
            <p className="text-sm text-muted-foreground">No businesses match.</p>
          ) : (
            <ul className="space-y-2">
              {list.data.businesses.map((b) => (
                <li key={b.id}>
                  <button
                    type="button"
                    onClick={() => setSelected(b.id)}
                    aria-pressed={selected === b.id}
                    className="flex w-full items-center justify-between gap-3 rounded-lg border bg-card p-3 text-left text-sm shadow-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-pressed:border-primary"
                  >
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{b.companyName}</span>
                      <span className="block truncate text-muted-foreground">{b.ownerEmail}</span>
                    </span>
                    <span className="flex shrink-0 flex-col items-end gap-1">
                      <span className="tabular-nums">{rupeesText(b.balance)}</span>
                      {(b.suspended || b.ownerStatus === 'banned') && <Badge variant="destructive">{b.suspended ? 'Suspended' : 'Owner banned'}</Badge>}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        {selected ? <BusinessDetail id={selected} /> : <p className="text-sm text-muted-foreground">Choose a business to see its details.</p>}
      </div>
    </AdminPage>
  );
}

function ActionForm({ title, icon: Icon, children, onSubmit, pending, submit, variant = 'default' }: {
  title: string;
  icon: typeof Gauge;
  children: ReactNode;
  onSubmit: () => void;
  pending: boolean;
  submit: string;
  variant?: 'default' | 'destructive' | 'outline';
}) {
  return (
    <form
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
      className="space-y-2 rounded-md border p-3"
    >
      <p className="flex items-center gap-2 text-sm font-medium">
        <Icon className="size-4 text-primary" aria-hidden="true" />
        {title}
      </p>
      {children}
      <Button type="submit" size="sm" variant={variant} disabled={pending}>
        {pending && <Spinner label="Saving" />}
        {submit}
      </Button>
    </form>
  );
}

function BusinessDetail({ id }: { id: string }) {
  const detail = useAdminBusiness(id);
  const ids = { amount: useId(), grantReason: useId(), limit: useId(), suspendReason: useId(), banReason: useId() };
  const [amount, setAmount] = useState('');
  const [grantReason, setGrantReason] = useState('');
  const [limit, setLimit] = useState('');
  const [suspendReason, setSuspendReason] = useState('');
  const [banReason, setBanReason] = useState('');
  const action = useAdminAction(({ url, body }: { url: string; body: unknown }) => apiSend('POST', url, body));

  if (detail.isPending) return <Skeleton className="h-96" />;
  if (detail.isError) return <AdminLoadError error={detail.error} what="the business" onRetry={() => void detail.refetch()} />;
  const b: AdminBusiness = detail.data.business;
  const base = `/api/admin/businesses/${encodeURIComponent(b.id)}`;

  function run(url: string, body: unknown, success: string, reset: () => void) {
    action.mutate(
      { url, body },
      {
        onSuccess: () => {
          reset();
          toast({ title: success });
        },
        onError: (error) => toast({ variant: 'destructive', title: 'Not saved', description: errorMessage(error, 'Please try again.') }),
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2 text-lg">
          <Building2 className="size-5 text-muted-foreground" aria-hidden="true" />
          {b.companyName}
          {b.suspended ? <Badge variant="destructive">API suspended</Badge> : <Badge variant="success">API active</Badge>}
          {b.ownerStatus === 'banned' && <Badge variant="destructive">Owner banned</Badge>}
        </CardTitle>
        <CardDescription className="break-all">
          {b.ownerEmail} · <span className="font-mono text-xs">{b.id}</span>
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5 text-sm">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <div>
            <dt className="text-muted-foreground">Balance</dt>
            <dd className="text-lg font-semibold tabular-nums">{rupeesText(b.balance)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Verifications left</dt>
            <dd className="text-lg font-semibold tabular-nums">{b.verificationsLeft.toLocaleString('en-IN')}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Rate limit</dt>
            <dd className="text-lg font-semibold tabular-nums">{b.rateLimitPerMinute}/min</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">API key</dt>
            <dd className="font-mono">{b.apiKey ? `${b.apiKey.prefix}…` : 'none'}</dd>
            {b.apiKey && <dd className="text-xs text-muted-foreground">{b.apiKey.lastUsedAt ? `used ${timeAgo(b.apiKey.lastUsedAt)}` : 'never used'}</dd>}
          </div>
        </dl>
        {b.suspended && (
          <p role="status" className="rounded-md border border-destructive/40 bg-destructive/10 p-3">
            Suspended {formatDateTime(b.suspended.at)}: {b.suspended.reason}
          </p>
        )}

        <div className="grid gap-3 md:grid-cols-2">
          <ActionForm
            title="Grant credit"
            icon={IndianRupee}
            submit="Grant"
            pending={action.isPending}
            onSubmit={() => run(`${base}/grant`, { amountRupees: Number(amount), reason: grantReason.trim() }, `Granted ₹${amount} to ${b.companyName}`, () => (setAmount(''), setGrantReason('')))}
          >
            <Label htmlFor={ids.amount}>Amount (₹)</Label>
            <Input id={ids.amount} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value.replace(/[^\d.]/g, ''))} />
            <Label htmlFor={ids.grantReason}>Reason</Label>
            <Input id={ids.grantReason} value={grantReason} onChange={(e) => setGrantReason(e.target.value)} />
          </ActionForm>
          <ActionForm title="Rate limit" icon={Gauge} submit="Set limit" pending={action.isPending} onSubmit={() => run(`${base}/rate-limit`, { perMinute: Number(limit) }, `Rate limit set to ${limit}/min`, () => setLimit(''))}>
            <Label htmlFor={ids.limit}>Requests per minute per key</Label>
            <Input id={ids.limit} inputMode="numeric" value={limit} placeholder={String(b.rateLimitPerMinute)} onChange={(e) => setLimit(e.target.value.replace(/\D/g, ''))} />
          </ActionForm>
          {b.suspended ? (
            <ActionForm title="Restore API access" icon={CircleCheck} submit="Restore" pending={action.isPending} onSubmit={() => run(`${base}/restore`, {}, 'API access restored', () => undefined)}>
              <p className="text-muted-foreground">The key works again at once.</p>
            </ActionForm>
          ) : (
            <ActionForm title="Suspend API access" icon={PauseCircle} submit="Suspend" variant="destructive" pending={action.isPending} onSubmit={() => run(`${base}/suspend`, { reason: suspendReason.trim() }, 'API access suspended', () => setSuspendReason(''))}>
              <Label htmlFor={ids.suspendReason}>Reason</Label>
              <Input id={ids.suspendReason} value={suspendReason} onChange={(e) => setSuspendReason(e.target.value)} />
            </ActionForm>
          )}
          {b.ownerStatus === 'banned' ? (
            <ActionForm title="Unban the owner" icon={CircleCheck} submit="Unban" pending={action.isPending} onSubmit={() => run(`/api/admin/users/${encodeURIComponent(b.ownerUserId)}/unban`, {}, 'Owner unbanned', () => undefined)}>
              <p className="text-muted-foreground">They can sign in again and the key works.</p>
            </ActionForm>
          ) : (
            <ActionForm title="Ban the owner" icon={Ban} submit="Ban" variant="destructive" pending={action.isPending} onSubmit={() => run(`/api/admin/users/${encodeURIComponent(b.ownerUserId)}/ban`, { reason: banReason.trim() }, 'Owner banned and signed out', () => setBanReason(''))}>
              <Label htmlFor={ids.banReason}>Reason</Label>
              <Input id={ids.banReason} value={banReason} onChange={(e) => setBanReason(e.target.value)} />
            </ActionForm>
          )}
        </div>

        <section aria-labelledby="ledger-heading" className="space-y-2">
          <h3 id="ledger-heading" className="font-medium">
            Ledger (latest 50 credits)
          </h3>
          {detail.data.ledger.length === 0 ? (
            <p className="text-muted-foreground">No credits yet.</p>
          ) : (
            <ul className="divide-y rounded-md border">
              {detail.data.ledger.map((l) => (
                <li key={l.id} className="flex flex-col gap-0.5 p-2 sm:flex-row sm:justify-between">
                  <span className="min-w-0 break-words">
                    <Badge variant="secondary">{l.kind}</Badge> {l.reason ?? l.reference ?? ''} <span className="text-muted-foreground">· {l.actor}</span>
                  </span>
                  <span className="shrink-0 tabular-nums">
                    +{rupeesText(l.amount)} · <time dateTime={l.createdAt}>{formatDateTime(l.createdAt)}</time>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}
