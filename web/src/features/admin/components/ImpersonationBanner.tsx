import { Eye, ShieldAlert, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import type { CurrentUser } from '@/features/auth/api';
import { formatDateTime } from '@/features/business/format';
import { errorMessage } from '@/lib/api';
import { useMarkNoticeRead, useNotices, useStopImpersonation } from '../api';

/** On every signed-in page while the administrator acts as someone: who, and the way out. */
export function ImpersonationBanner({ user }: { user: CurrentUser }) {
  const stop = useStopImpersonation();
  if (!user.impersonation) return null;
  const until = new Date(user.impersonation.expiresAt).toLocaleTimeString('en-IN', { hour: '2-digit', minute: '2-digit' });
  return (
    <div role="status" className="border-b border-warning/50 bg-warning/15 px-4 py-2 text-sm sm:px-6">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex items-start gap-2">
          <Eye className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            <strong>Active impersonation</strong> — acting as <strong className="break-all">{user.email}</strong> until {until}. Financial
            transactions are disabled and all actions are logged.
          </span>
        </p>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={stop.isPending}
          onClick={() =>
            stop.mutate(undefined, {
              onSuccess: () => toast({ title: 'Impersonation ended', description: 'You are yourself again.' }),
              onError: (error) => toast({ variant: 'destructive', title: 'Could not exit', description: errorMessage(error, 'Please try again.') }),
            })
          }
        >
          {stop.isPending && <Spinner label="Exiting" />}
          Exit impersonation
        </Button>
      </div>
    </div>
  );
}

/** "The administrator acted as you" notices, until the person dismisses them. */
export function UserNotices({ user }: { user: CurrentUser }) {
  const notices = useNotices(!user.impersonation);
  const markRead = useMarkNoticeRead();
  const unread = notices.data?.notices.filter((n) => !n.readAt) ?? [];
  if (user.impersonation || unread.length === 0) return null;
  return (
    <section aria-label="Account notices" className="mx-auto w-full max-w-6xl space-y-2 px-4 pt-4 sm:px-6">
      {unread.map((n) => (
        <div key={n.id} role="status" className="flex items-start gap-3 rounded-lg border border-warning/50 bg-warning/10 p-4 text-sm">
          <ShieldAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <div className="min-w-0 flex-1 space-y-1">
            <p className="font-semibold">An administrator signed in as you</p>
            <p className="break-words">
              {n.adminEmail ?? 'The administrator'} acted as you{n.startedAt ? ` from ${formatDateTime(n.startedAt)}` : ''} to {formatDateTime(n.endedAt)}.
              {n.reason ? ` Reason: ${n.reason}` : ''}
            </p>
            <p className="text-xs text-muted-foreground">Payments, API keys, webhooks and your secrets were off limits, and every action was logged.</p>
          </div>
          <Button type="button" variant="ghost" size="icon" className="size-8 shrink-0" aria-label="Dismiss notice" onClick={() => markRead.mutate(n.id)}>
            <X aria-hidden="true" />
          </Button>
        </div>
      ))}
    </section>
  );
}
