import { useId, useState, type FormEvent } from 'react';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { KeyRound, Pencil, Plus, Trash2, TriangleAlert } from 'lucide-react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { loginUrl } from '@/features/auth/api';
import { formatDate, timeAgo } from '@/features/business/format';
import { ApiError } from '@/lib/api';
import { isCancelled, passkeyErrorMessage, useAddPasskey, useDeletePasskey, usePasskeys, useRenamePasskey, type Passkey } from './api';

/** A first name for a new passkey: what kind of device this is, which the person can change. */
function suggestedName(): string {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  if (/iPhone/.test(ua)) return 'iPhone';
  if (/iPad/.test(ua)) return 'iPad';
  if (/Android/.test(ua)) return 'Android phone';
  if (/Mac OS X/.test(ua)) return 'Mac';
  if (/Windows/.test(ua)) return 'Windows PC';
  if (/Linux/.test(ua)) return 'Linux computer';
  return 'My passkey';
}

/** The server wants a recent sign-in before a passkey is added or deleted. */
const needsSignIn = (error: unknown) => error instanceof ApiError && error.code === 'reauthentication_required';

const sessionsNote = (ended: number) => (ended > 0 ? ` ${ended} other signed-in ${ended === 1 ? 'session was' : 'sessions were'} signed out.` : '');

/**
 * The security page's passkeys: the list (name, added, last used, PRF), add one (named), rename,
 * delete with a confirmation. Adding or removing one signs out every other session (the server
 * does it; the toast says so).
 */
export function PasskeysCard() {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const [name, setName] = useState(suggestedName);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const remove = useDeletePasskey();
  const supported = typeof window !== 'undefined' && browserSupportsWebAuthn();
  const nameId = useId();

  function onAdd(event: FormEvent) {
    event.preventDefault();
    setError(null);
    add.mutate(name.trim(), {
      onSuccess: (added) => {
        toast({ title: 'Passkey added', description: `“${added.passkey.name}” can now sign you in.${sessionsNote(added.otherSessionsEnded)}` });
        setName(suggestedName());
      },
      onError: (err) => setError(passkeyErrorMessage(err)),
    });
  }

  function onDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: (removed) => {
        toast({ title: 'Passkey deleted', description: `“${deleting.name}” no longer signs you in.${sessionsNote(removed.otherSessionsEnded)}` });
        setDeleting(null);
      },
      onError: (err) => {
        toast({ variant: 'destructive', title: 'Could not delete the passkey', description: passkeyErrorMessage(err) });
        setDeleting(null);
      },
    });
  }

  return (
    <Card data-testid="passkeys-card">
      <CardHeader>
        {/* A section of the security page: h2 under the page's h1. */}
        <h2 className="flex items-center gap-2 text-lg font-semibold leading-tight tracking-tight">
          <KeyRound className="size-5 text-primary" aria-hidden="true" />
          Passkeys
        </h2>
        <CardDescription>
          Sign in with your fingerprint, face or device PIN — no code to type. A passkey works only on Sixdigit&apos;s own
          site, so a look-alike page cannot use it, and it is both steps of sign-in at once.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {passkeys.isPending ? (
          <div className="space-y-2" role="status" aria-label="Loading your passkeys">
            <Skeleton className="h-14 w-full" />
          </div>
        ) : passkeys.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Couldn&apos;t load your passkeys.{' '}
            <button type="button" className="underline" onClick={() => void passkeys.refetch()}>
              Try again
            </button>
          </p>
        ) : passkeys.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No passkeys yet. Add one for this device below.</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Your passkeys">
            {passkeys.data.map((p) => (
              <PasskeyRow key={p.id} passkey={p} onDelete={() => setDeleting(p)} />
            ))}
          </ul>
        )}

        <form onSubmit={onAdd} className="space-y-2" aria-describedby={error ? `${nameId}-error` : undefined}>
          <Label htmlFor={nameId}>Name for a new passkey</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input id={nameId} value={name} onChange={(e) => setName(e.target.value)} maxLength={60} required disabled={!supported || add.isPending} autoComplete="off" />
            <Button type="submit" disabled={!supported || add.isPending || name.trim() === ''} className="shrink-0">
              {add.isPending ? <Spinner label="Waiting for your device" className="size-4 text-primary-foreground" /> : <Plus aria-hidden="true" />}
              {add.isPending ? 'Waiting for your device…' : 'Add a passkey'}
            </Button>
          </div>
          {!supported && <p className="text-sm text-muted-foreground">This browser cannot create passkeys.</p>}
          {error && (
            <p id={`${nameId}-error`} role="alert" className={`flex items-start gap-2 text-sm ${isCancelled(add.error) ? 'text-muted-foreground' : 'text-destructive'}`}>
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>
                {error}
                {needsSignIn(add.error) && (
                  <>
                    {' '}
                    <a className="font-medium underline" href={loginUrl()}>
                      Sign in again
                    </a>
                  </>
                )}
              </span>
            </p>
          )}
        </form>

        <ConfirmDialog
          open={deleting !== null}
          onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}
          title={`Delete the passkey “${deleting?.name ?? ''}”?`}
          description="It will no longer sign you in. Every other signed-in session is signed out too."
          warning="Also remove it from the device or password manager that holds it, or it will keep offering a passkey that no longer works."
          confirmLabel="Delete passkey"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          onConfirm={onDelete}
        />
      </CardContent>
    </Card>
  );
}

function PasskeyRow({ passkey, onDelete }: { passkey: Passkey; onDelete: () => void }) {
  const rename = useRenamePasskey();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const inputId = useId();

  function onSave(event: FormEvent) {
    event.preventDefault();
    rename.mutate(
      { id: passkey.id, name: name.trim() },
      {
        onSuccess: () => setEditing(false),
        onError: (err) => toast({ variant: 'destructive', title: 'Could not rename the passkey', description: passkeyErrorMessage(err) }),
      },
    );
  }

  return (
    <li className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between" data-testid="passkey-row">
      {editing ? (
        <form onSubmit={onSave} className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-center">
          <Label htmlFor={inputId} className="sr-only">
            New name for {passkey.name}
          </Label>
          <Input id={inputId} value={name} onChange={(e) => setName(e.target.value)} maxLength={60} required autoFocus />
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={rename.isPending || name.trim() === ''}>
              Save
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => (setEditing(false), setName(passkey.name))}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            <span className="break-all">{passkey.name}</span>
            {passkey.deviceType === 'multiDevice' && <Badge variant="secondary">Synced</Badge>}
            <Badge variant={passkey.prfSupported ? 'success' : 'outline'} title="PRF: the passkey can also unlock an encrypted vault">
              PRF {passkey.prfSupported ? 'yes' : 'no'}
            </Badge>
          </p>
          <p className="text-sm text-muted-foreground">
            Added <time dateTime={passkey.createdAt}>{formatDate(passkey.createdAt)}</time> · Last used{' '}
            {passkey.lastUsedAt ? <time dateTime={passkey.lastUsedAt}>{timeAgo(passkey.lastUsedAt)}</time> : 'never'}
          </p>
        </div>
      )}
      {!editing && (
        <div className="flex shrink-0 gap-2">
          <Button type="button" size="sm" variant="outline" onClick={() => setEditing(true)} aria-label={`Rename ${passkey.name}`}>
            <Pencil aria-hidden="true" />
            Rename
          </Button>
          <Button type="button" size="sm" variant="outline" className="text-destructive" onClick={onDelete} aria-label={`Delete ${passkey.name}`}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        </div>
      )}
    </li>
  );
}
