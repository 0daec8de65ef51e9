import { useId, useState, type FormEvent } from 'react';
import { Radio, Search, UserRoundSearch, Users } from 'lucide-react';
import { FormDialog, FormDialogBody } from '@/components/FormDialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime, timeAgo } from '@/features/business/format';
import { rupeesText } from '@/features/payments/components/PaymentRequestsList';
import { ApiError, errorMessage } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAdminUsers, useLiveImpersonation, useStartImpersonation, type AdminUser } from './api';
import type { ImpersonationView } from '@common/contract/admin';
import { AdminGate, AdminLoadError, AdminPage } from './components/AdminShell';

export function AdminImpersonationPage() {
  useDocumentTitle('Impersonation · Sixdigit');
  return (
    <AdminGate>
      <Impersonation />
    </AdminGate>
  );
}

const ROLE_LABEL: Record<AdminUser['role'], string> = { admin: 'Admin', financial_manager: 'Financial Manager', user: 'User' };

function Impersonation() {
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [target, setTarget] = useState<AdminUser | null>(null);
  const users = useAdminUsers(query);
  const live = useLiveImpersonation();
  const running = live.data?.live ?? null;
  const searchId = useId();

  return (
    <AdminPage title="User impersonation" description="See the product exactly as a customer does. Payments, key regeneration, webhooks and secrets stay off, and every action is logged.">
      <div role="note" className="rounded-lg border border-warning/50 bg-warning/10 p-4 text-sm">
        An impersonation lasts at most 30 minutes, and only one can run at a time. The user is told afterwards who acted as them, when and why.
      </div>
      {live.isPending ? (
        <Skeleton role="status" aria-label="Loading the live impersonation" className="h-12" />
      ) : live.isError ? (
        <AdminLoadError error={live.error} what="the live impersonation" onRetry={() => void live.refetch()} />
      ) : running ? (
        <LiveImpersonationCard impersonation={running} />
      ) : (
        <p className="text-sm text-muted-foreground">No impersonation is running.</p>
      )}
      <form
        role="search"
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          setQuery(draft.trim());
        }}
      >
        <div className="flex-1 space-y-1">
          <Label htmlFor={searchId}>Search by e-mail, business name or user ID</Label>
          <Input id={searchId} value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="owner@company.com" />
        </div>
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>

      {users.isPending ? (
        <div role="status" aria-label="Loading users" className="grid gap-3 md:grid-cols-2">
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
        </div>
      ) : users.isError ? (
        <AdminLoadError error={users.error} what="users" onRetry={() => void users.refetch()} />
      ) : users.data.users.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-10 text-center text-sm text-muted-foreground">
            <UserRoundSearch className="size-8" aria-hidden="true" />
            <p className="font-medium text-foreground">No Users Found</p>
            Try another e-mail, business name or ID.
          </CardContent>
        </Card>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-label="Users">
          {users.data.users.map((u) => (
            <li key={u.id}>
              <UserCard user={u} blocked={running !== null} onImpersonate={() => setTarget(u)} />
            </li>
          ))}
        </ul>
      )}
      <StartDialog target={target} onClose={() => setTarget(null)} onRefused={() => void live.refetch()} />
    </AdminPage>
  );
}

/** The impersonation acting now, from this or another admin session: who, since when, until when, why. */
function LiveImpersonationCard({ impersonation: i }: { impersonation: ImpersonationView }) {
  return (
    <Card role="region" aria-labelledby="live-impersonation" className="border-primary/60">
      <CardHeader className="gap-2">
        <CardTitle id="live-impersonation" className="flex flex-wrap items-center gap-2 text-base">
          <Radio className="size-4 shrink-0 text-primary" aria-hidden="true" />
          Impersonation in progress
          <Badge>Live</Badge>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
          <dt className="text-muted-foreground">Acting as</dt>
          <dd className="break-all font-medium">{i.userEmail}</dd>
          <dt className="text-muted-foreground">By</dt>
          <dd className="break-all">{i.adminEmail}</dd>
          <dt className="text-muted-foreground">Since</dt>
          <dd>
            {formatDateTime(i.startedAt)} <span className="text-muted-foreground">({timeAgo(i.startedAt)})</span>
          </dd>
          <dt className="text-muted-foreground">Expires</dt>
          <dd>{formatDateTime(i.expiresAt)}</dd>
          <dt className="text-muted-foreground">Reason</dt>
          <dd className="break-words">{i.reason}</dd>
        </dl>
        <p className="text-muted-foreground">A new impersonation can start once this one exits, signs out or expires.</p>
      </CardContent>
    </Card>
  );
}

function UserCard({ user: u, blocked, onImpersonate }: { user: AdminUser; blocked: boolean; onImpersonate: () => void }) {
  return (
    <Card className="h-full">
      <CardHeader className="gap-2">
        <CardTitle className="flex flex-wrap items-center gap-2 text-base break-all">
          <Users className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {u.name || u.email}
        </CardTitle>
        <div className="flex flex-wrap gap-2">
          <Badge variant={u.role === 'user' ? 'secondary' : 'default'}>{ROLE_LABEL[u.role]}</Badge>
          <Badge variant={u.status === 'active' ? 'success' : 'destructive'}>{u.status === 'active' ? 'Active' : 'Banned'}</Badge>
        </div>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
          <dt className="text-muted-foreground">E-mail</dt>
          <dd className="break-all">{u.email}</dd>
          <dt className="text-muted-foreground">Business</dt>
          <dd className="break-words">{u.business?.companyName ?? '—'}</dd>
          <dt className="text-muted-foreground">Credits</dt>
          <dd className="tabular-nums">{u.business ? rupeesText(u.business.balance) : '—'}</dd>
          <dt className="text-muted-foreground">API key</dt>
          <dd className="font-mono">{u.business?.apiKeyPrefix ? `${u.business.apiKeyPrefix}…` : '—'}</dd>
          <dt className="text-muted-foreground">Last active</dt>
          <dd>{u.lastActiveAt ? timeAgo(u.lastActiveAt) : 'never'}</dd>
          <dt className="text-muted-foreground">User ID</dt>
          <dd className="font-mono text-xs break-all">{u.id}</dd>
        </dl>
        <Button type="button" variant="outline" onClick={onImpersonate} disabled={u.role === 'admin' || blocked} aria-label={`Impersonate ${u.email}`}>
          Impersonate
        </Button>
      </CardContent>
    </Card>
  );
}

function StartDialog({ target, onClose, onRefused }: { target: AdminUser | null; onClose: () => void; onRefused: () => void }) {
  const start = useStartImpersonation();
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const ready = reason.trim().length >= 3;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!target || !ready) return;
    start.mutate(
      { userId: target.id, reason: reason.trim(), landing: target.business ? '/business' : '/home' },
      {
        onSuccess: () => {
          toast({ title: 'Impersonation started', description: `You are acting as ${target.email} for up to 30 minutes.` });
          setReason('');
          onClose();
        },
        onError: (error) => {
          toast({ variant: 'destructive', title: 'Impersonation failed', description: errorMessage(error, 'Could not start the impersonation.') });
          // Another admin session got there first: show the one that is running.
          if (error instanceof ApiError && error.code === 'impersonation_active') {
            onRefused();
            onClose();
          }
        },
      },
    );
  }

  return (
    <FormDialog open={target !== null} onOpenChange={(open) => !open && !start.isPending && onClose()}>
      <FormDialogBody
        title={<>Impersonate {target?.email}?</>}
        description="Say why: the reason is logged and shown to the user afterwards."
        onSubmit={submit}
        cancelDisabled={start.isPending}
        actions={
          <Button type="submit" disabled={!ready || start.isPending}>
            {start.isPending && <Spinner label="Starting" className="text-primary-foreground" />}
            Start impersonation
          </Button>
        }
      >
        <div className="space-y-1">
          <Label htmlFor={reasonId}>Reason</Label>
          <Input id={reasonId} value={reason} onChange={(e) => setReason(e.target.value.slice(0, 500))} placeholder="Support ticket #…" autoFocus />
        </div>
      </FormDialogBody>
    </FormDialog>
  );
}
