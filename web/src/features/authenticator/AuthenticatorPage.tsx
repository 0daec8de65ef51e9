import { useCallback, useEffect, useMemo, useState } from 'react';
import { ArrowDownToLine, ArrowUpFromLine, ChevronDown, Clock, KeyRound, Plus, RotateCw, Search, TriangleAlert, WifiOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { PageSpinner } from '@/components/ui/spinner';
import { useCurrentUser } from '@/features/auth/api';
import { errorMessage, isUnauthorized } from '@/lib/api';
import { useClockSkew } from '@/lib/server-clock';
import { useCopy } from '@/lib/use-copy';
import { useDocumentTitle } from '@/lib/use-document-title';
import { sessionExpired, useAuthenticatorAccounts, type AuthenticatorAccount } from './api';
import { AccountCard } from './components/AccountCard';
import { AddAccountDialog } from './components/AddAccountDialog';
import { DeleteAccountDialog } from './components/DeleteAccountDialog';
import { ExportDialog } from './components/ExportDialog';
import { ImportDialog } from './components/ImportDialog';
import { matchesSearch } from './form';
import { useNow } from './use-now';

type OpenDialog = 'add' | 'import' | 'export' | null;

/**
 * The authenticator (/ and /multi-totp, SPEC §2): a card per third-party account with its
 * current code, computed in the browser every second (DESIGN.md §9) — the server is asked for
 * the list (every 30 s), never for codes.
 */
export function AuthenticatorPage() {
  const { user } = useCurrentUser();
  if (!user) return <PageSpinner label="Loading" />;
  return <Authenticator userId={user.id} />;
}

function Authenticator({ userId }: { userId: string }) {
  useDocumentTitle('Authenticator · Sixdigit');
  const query = useAuthenticatorAccounts(userId);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [deleting, setDeleting] = useState<AuthenticatorAccount | null>(null);
  const [search, setSearch] = useState('');
  const accounts = query.data?.accounts;
  const expired = query.isError && isUnauthorized(query.error);

  useEffect(() => {
    if (expired) sessionExpired();
  }, [expired]);

  const close = (open: boolean) => !open && setDialog(null);

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0 space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">Authenticator</h1>
          <p className="text-sm text-muted-foreground">Codes for your accounts, computed on this device.</p>
        </div>
        <div className="flex gap-2">
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger asChild>
              <Button type="button" variant="outline" disabled={!accounts}>
                Import / Export
                <ChevronDown aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => setDialog('import')} disabled={query.data?.offline}>
                <ArrowDownToLine aria-hidden="true" />
                Import accounts…
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setDialog('export')} disabled={!accounts?.length}>
                <ArrowUpFromLine aria-hidden="true" />
                Export accounts…
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
          <Button type="button" onClick={() => setDialog('add')} className="flex-1 sm:flex-none">
            <Plus aria-hidden="true" />
            Add Account
          </Button>
        </div>
      </header>

      <Notices offline={query.data?.offline ?? false} />

      {accounts ? (
        accounts.length === 0 ? (
          <EmptyState onAdd={() => setDialog('add')} />
        ) : (
          <AccountList accounts={accounts} search={search} onSearch={setSearch} onDelete={setDeleting} />
        )
      ) : query.isError ? (
        expired ? null : (
          <LoadError
            message={errorMessage(query.error, 'Check your connection and try again.')}
            retrying={query.isFetching}
            onRetry={() => void query.refetch()}
          />
        )
      ) : (
        <AccountsSkeleton />
      )}

      <AddAccountDialog userId={userId} open={dialog === 'add'} onOpenChange={close} />
      <ImportDialog userId={userId} open={dialog === 'import'} onOpenChange={close} existing={accounts ?? []} />
      <ExportDialog open={dialog === 'export'} onOpenChange={close} accounts={accounts ?? []} />
      <DeleteAccountDialog userId={userId} account={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

/** Offline copy in use; device clock corrected. Colour is not the only signal: both are words. */
function Notices({ offline }: { offline: boolean }) {
  const skew = useClockSkew();
  if (!offline && !skew.corrected) return null;
  const seconds = Math.round(Math.abs(skew.offsetMs) / 1000);
  return (
    <div className="flex flex-col gap-2" role="status">
      {offline && (
        <p className="flex items-center gap-2 rounded-md border border-warning/50 bg-warning/10 px-3 py-2 text-sm">
          <WifiOff className="size-4 shrink-0 text-warning" aria-hidden="true" />
          Offline — showing your saved accounts
        </p>
      )}
      {skew.corrected && (
        <p className="flex items-center gap-2 rounded-md border border-warning/50 bg-warning/10 px-3 py-2 text-sm">
          <Clock className="size-4 shrink-0 text-warning" aria-hidden="true" />
          Your device clock is off by {seconds} s; codes are corrected.
        </p>
      )}
    </div>
  );
}

interface AccountListProps {
  accounts: AuthenticatorAccount[];
  search: string;
  onSearch: (search: string) => void;
  onDelete: (account: AuthenticatorAccount) => void;
}

function AccountList({ accounts, search, onSearch, onDelete }: AccountListProps) {
  const now = useNow();
  const { copied, copy } = useCopy();
  const shown = useMemo(() => accounts.filter((account) => matchesSearch(account, search)), [accounts, search]);
  const onCopy = useCallback(
    (account: AuthenticatorAccount, code: string) => void copy(account.id, code, { title: 'Code Copied', description: 'The code is on your clipboard.' }),
    [copy],
  );

  return (
    <div className="space-y-4">
      <div className="relative max-w-sm">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder="Search by issuer or name"
          aria-label="Search accounts"
          className="pl-9"
        />
      </div>
      {shown.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-10 text-center text-sm text-muted-foreground" role="status">
          No accounts match “{search.trim()}”.
        </p>
      ) : (
        <>
          {search.trim() && (
            <p className="sr-only" role="status">
              {shown.length} of {accounts.length} accounts shown
            </p>
          )}
          <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Accounts">
            {shown.map((account) => (
              <li key={account.id} className="min-w-0">
                <AccountCard account={account} now={now} copied={copied === account.id} onCopy={onCopy} onDelete={onDelete} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Loading: a skeleton of three cards (SPEC §2). */
function AccountsSkeleton() {
  return (
    <div role="status" aria-label="Loading accounts" className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
      {[0, 1, 2].map((i) => (
        <Card key={i} className="space-y-4 p-5" data-testid="account-skeleton">
          <div className="flex items-center gap-3">
            <Skeleton className="size-10 rounded-full" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="h-3 w-1/3" />
            </div>
          </div>
          <Skeleton className="h-10 w-1/2" />
          <Skeleton className="h-2 w-full" />
        </Card>
      ))}
    </div>
  );
}

function EmptyState({ onAdd }: { onAdd: () => void }) {
  return (
    <Card className="border-dashed">
      <CardContent className="flex flex-col items-center gap-4 px-6 py-14 text-center">
        <div className="flex size-14 items-center justify-center rounded-full bg-primary/10">
          <KeyRound className="size-7 text-primary" aria-hidden="true" />
        </div>
        <div className="space-y-1">
          <h2 className="text-xl font-semibold">No TOTP Accounts</h2>
          <p className="max-w-md text-sm text-muted-foreground">
            Add the accounts you protect with two-factor authentication — GitHub, Google, AWS… — and their codes appear here,
            even offline.
          </p>
        </div>
        <Button type="button" onClick={onAdd}>
          <Plus aria-hidden="true" />
          Add Your First Account
        </Button>
      </CardContent>
    </Card>
  );
}

function LoadError({ message, retrying, onRetry }: { message: string; retrying: boolean; onRetry: () => void }) {
  return (
    <Card role="alert" className="mx-auto max-w-xl">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <TriangleAlert className="size-5 text-destructive" aria-hidden="true" />
          Couldn&apos;t load your accounts
        </CardTitle>
        <CardDescription>{message}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button type="button" onClick={onRetry} disabled={retrying}>
          <RotateCw aria-hidden="true" className={retrying ? 'animate-spin' : undefined} />
          Try again
        </Button>
      </CardContent>
    </Card>
  );
}
