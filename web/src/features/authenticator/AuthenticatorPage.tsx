import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { ArrowDownToLine, ArrowUpFromLine, ChevronDown, Clock, KeyRound, Lock, Plus, RotateCw, Search, TriangleAlert, WifiOff } from 'lucide-react';
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
import { toast } from '@/components/ui/use-toast';
import { sessionExpired, useVault, type AuthenticatorAccount } from './api';
import { AccountCard } from './components/AccountCard';
import { AddAccountDialog } from './components/AddAccountDialog';
import { DeleteAccountDialog } from './components/DeleteAccountDialog';
import { ExportDialog } from './components/ExportDialog';
import { ImportDialog } from './components/ImportDialog';
import { matchesSearch } from './form';
import { vaultErrorMessage } from './messages';
import { AUTO_LOCK_CHOICES, useAutoLock, type AutoLockMinutes } from './vault/auto-lock';
import { vaultSession } from './vault/session';
import { CreateVault, UnlockVault } from './vault/VaultScreens';
import { VaultSettings } from './vault/VaultSettings';
import { useNow } from './use-now';

type OpenDialog = 'add' | 'import' | 'export' | null;

/**
 * The authenticator (/ and /multi-totp, SPEC §2): a card per third-party account with its
 * current code, computed in the browser every second (DESIGN.md §9). The accounts are in the
 * person's end-to-end encrypted vault: created, unlocked and decrypted here; the server syncs
 * ciphertext only.
 */
export function AuthenticatorPage() {
  const { user } = useCurrentUser();
  if (!user) return <PageSpinner label="Loading" />;
  return <Authenticator userId={user.id} />;
}

function Authenticator({ userId }: { userId: string }) {
  useDocumentTitle('Authenticator · Sixdigit');
  const { view, session, retry } = useVault(userId);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [deleting, setDeleting] = useState<AuthenticatorAccount | null>(null);
  const [search, setSearch] = useState('');
  const unlocked = view.status === 'unlocked';
  const accounts = unlocked ? view.accounts : undefined;
  const offline = 'offline' in view && view.offline;
  const expired = view.status === 'error' && isUnauthorized(view.error);
  const autoLock = useAutoLock(session, unlocked);

  useEffect(() => {
    if (expired) sessionExpired();
  }, [expired]);

  const close = (open: boolean) => !open && setDialog(null);

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0 space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">Authenticator</h1>
          <p className="text-sm text-muted-foreground">Codes for your accounts, end-to-end encrypted and computed on this device.</p>
        </div>
        {unlocked && (
          <div className="flex flex-wrap gap-2">
            <DropdownMenu modal={false}>
              <DropdownMenuTrigger asChild>
                <Button type="button" variant="outline">
                  Import / Export
                  <ChevronDown aria-hidden="true" />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuItem onSelect={() => setDialog('import')} disabled={offline}>
                  <ArrowDownToLine aria-hidden="true" />
                  Import accounts…
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => setDialog('export')} disabled={!accounts?.length}>
                  <ArrowUpFromLine aria-hidden="true" />
                  Export accounts…
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
            <Button type="button" variant="outline" onClick={() => session.lock()}>
              <Lock aria-hidden="true" />
              Lock
            </Button>
            <Button type="button" onClick={() => setDialog('add')} className="flex-1 sm:flex-none" disabled={offline}>
              <Plus aria-hidden="true" />
              Add Account
            </Button>
          </div>
        )}
      </header>

      <Notices offline={offline} unreadable={unlocked ? view.unreadable : 0} />

      {view.status === 'unlocked' ? (
        <>
          {view.accounts.length === 0 ? (
            <EmptyState onAdd={() => setDialog('add')} />
          ) : (
            <AccountList userId={userId} accounts={view.accounts} search={search} onSearch={setSearch} onDelete={setDeleting} offline={offline} />
          )}
          <AutoLockChoice minutes={autoLock.minutes} onChange={autoLock.setMinutes} />
          <VaultSettings session={session} offline={offline} passkeys={view.passkeys} />
        </>
      ) : view.status === 'locked' ? (
        <UnlockVault session={session} hasRecoverySlot={view.hasRecoverySlot} hasPasskeySlot={view.hasPasskeySlot} offline={view.offline} />
      ) : view.status === 'none' ? (
        view.offline ? (
          <LoadError message="You are offline and this device has no copy of your vault yet." retrying={false} onRetry={() => void retry()} />
        ) : (
          <CreateVault session={session} legacyAccounts={view.legacyAccounts} />
        )
      ) : view.status === 'error' ? (
        expired ? null : <LoadError message={errorMessage(view.error, 'Check your connection and try again.')} retrying={false} onRetry={() => void retry()} />
      ) : (
        <AccountsSkeleton />
      )}

      {unlocked && (
        <>
          <AddAccountDialog userId={userId} open={dialog === 'add'} onOpenChange={close} />
          <ImportDialog userId={userId} open={dialog === 'import'} onOpenChange={close} existing={accounts ?? []} />
          <ExportDialog open={dialog === 'export'} onOpenChange={close} accounts={accounts ?? []} />
          <DeleteAccountDialog userId={userId} account={deleting} onClose={() => setDeleting(null)} />
        </>
      )}
    </div>
  );
}

function AutoLockChoice({ minutes, onChange }: { minutes: AutoLockMinutes; onChange: (minutes: AutoLockMinutes) => void }) {
  const id = useId();
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
      <label htmlFor={id}>Lock the vault after</label>
      <select
        id={id}
        className="h-9 rounded-md border bg-background px-2 text-foreground"
        value={minutes}
        onChange={(event) => onChange(Number(event.target.value) as AutoLockMinutes)}
      >
        {AUTO_LOCK_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {choice === 0 ? 'never while open' : choice === 60 ? '1 hour idle' : `${choice} min idle`}
          </option>
        ))}
      </select>
      <span>— and always on sign-out or when this page closes.</span>
    </p>
  );
}

/** Offline copy in use; device clock corrected. Colour is not the only signal: both are words. */
function Notices({ offline, unreadable }: { offline: boolean; unreadable: number }) {
  const skew = useClockSkew();
  if (!offline && !skew.corrected && unreadable === 0) return null;
  const seconds = Math.round(Math.abs(skew.offsetMs) / 1000);
  return (
    <div className="flex flex-col gap-2" role="status">
      {offline && (
        <p className="flex items-center gap-2 rounded-md border border-warning/50 bg-warning/10 px-3 py-2 text-sm">
          <WifiOff className="size-4 shrink-0 text-warning" aria-hidden="true" />
          Offline — showing the vault saved on this device; changes need a connection
        </p>
      )}
      {unreadable > 0 && (
        <p className="flex items-center gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm">
          <TriangleAlert className="size-4 shrink-0 text-destructive" aria-hidden="true" />
          {unreadable} {unreadable === 1 ? 'entry' : 'entries'} of your vault did not decrypt: changed or replaced by someone other than you.
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
  userId: string;
  offline: boolean;
  accounts: AuthenticatorAccount[];
  search: string;
  onSearch: (search: string) => void;
  onDelete: (account: AuthenticatorAccount) => void;
}

function AccountList({ userId, offline, accounts, search, onSearch, onDelete }: AccountListProps) {
  const now = useNow();
  const { copied, copy } = useCopy();
  const session = vaultSession(userId);
  const onMove = useCallback(
    (account: AuthenticatorAccount, direction: -1 | 1) =>
      void session.move(account.id, direction).catch((error: unknown) => toast({ variant: 'destructive', title: 'Not moved', description: vaultErrorMessage(error, 'Try again.') })),
    [session],
  );
  const onUsed = useCallback(
    (account: AuthenticatorAccount) =>
      void session.advanceCounter(account.id).catch((error: unknown) => toast({ variant: 'destructive', title: 'Counter not moved', description: vaultErrorMessage(error, 'Try again.') })),
    [session],
  );
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
            {shown.map((account, i) => (
              <li key={account.id} className="min-w-0">
                <AccountCard
                  account={account}
                  now={now}
                  copied={copied === account.id}
                  onCopy={onCopy}
                  onDelete={onDelete}
                  onMove={search.trim() || offline ? undefined : onMove}
                  canMoveUp={i > 0}
                  canMoveDown={i < shown.length - 1}
                  onUsed={offline ? undefined : onUsed}
                />
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
