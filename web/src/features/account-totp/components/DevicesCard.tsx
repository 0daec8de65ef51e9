import { LogOut, Monitor, Smartphone } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRevokeOtherSessions, useRevokeSession, useSessions, type UserSession } from '../api';
import { formatWhen } from '../format';

const isPhone = (s: UserSession) => /^(Android|iOS|iPadOS)/.test(s.os);

/** "Signed-in devices": every session of this account, this one marked; sign out one or all others. */
export function DevicesCard() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current).length;

  return (
    <Card data-testid="devices-card">
      <CardHeader>
        <CardTitle className="text-xl">Signed-in devices</CardTitle>
        <CardDescription>Where your account is signed in now. Sign out any you do not recognise.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {sessions.isPending ? (
          <div className="space-y-2" role="status" aria-label="Loading your devices">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : sessions.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Could not load your devices.{' '}
            <Button type="button" variant="link" className="h-auto p-0" onClick={() => void sessions.refetch()}>
              Try again
            </Button>
          </p>
        ) : (
          <ul className="divide-y rounded-lg border">
            {list.map((s) => {
              const Icon = isPhone(s) ? Smartphone : Monitor;
              return (
                <li key={s.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between" data-testid="device">
                  <div className="flex min-w-0 items-start gap-3">
                    <Icon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <div className="min-w-0 space-y-0.5 text-sm">
                      <p className="flex flex-wrap items-center gap-2 font-medium">
                        {s.browser} on {s.os}
                        {s.current && <Badge variant="success">This device</Badge>}
                        {s.secondFactorPending && <Badge variant="outline">Waiting for the second step</Badge>}
                      </p>
                      <p className="text-muted-foreground">
                        {s.ipAddress || 'Address unknown'} · signed in {formatWhen(s.signedInAt)} · last seen {formatWhen(s.lastSeenAt)}
                      </p>
                    </div>
                  </div>
                  {!s.current && (
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      className="self-start sm:self-auto"
                      disabled={revoke.isPending}
                      aria-label={`Sign out ${s.browser} on ${s.os}`}
                      onClick={() =>
                        revoke.mutate(s.id, {
                          onSuccess: () => toast({ title: 'Signed out', description: `${s.browser} on ${s.os} is signed out.` }),
                          onError: (error) => toast({ variant: 'destructive', title: 'Could not sign out', description: errorMessage(error, 'Try again.') }),
                        })
                      }
                    >
                      <LogOut aria-hidden="true" />
                      Sign out
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        <Button
          type="button"
          variant="outline"
          disabled={others === 0 || revokeOthers.isPending}
          onClick={() =>
            revokeOthers.mutate(undefined, {
              onSuccess: ({ signedOut }) => toast({ title: 'Signed out everywhere else', description: `${signedOut} other ${signedOut === 1 ? 'session' : 'sessions'} signed out.` }),
              onError: (error) => toast({ variant: 'destructive', title: 'Could not sign out', description: errorMessage(error, 'Try again.') }),
            })
          }
        >
          <LogOut aria-hidden="true" />
          Sign out all other devices
        </Button>
      </CardContent>
    </Card>
  );
}
