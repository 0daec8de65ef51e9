import { useCallback, useState } from 'react';
import { Clock, CopyIcon, CheckIcon, RotateCw, TriangleAlert } from 'lucide-react';
import { generateCode, secondsRemaining } from '@common/otpauth';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { serverNow } from '@/lib/server-clock';
import { useCopy } from '@/lib/use-copy';
import { cn } from '@/lib/utils';
import { codeExpiresOnDevice, useServerCode, type TotpSetupResult } from '../api';
import { useTick } from '../use-tick';

/** The badge turns destructive, and says so, at this many seconds or fewer (SPEC §2). */
export const URGENT_SECONDS = 5;

type LocalSecret = Pick<TotpSetupResult, 'secret' | 'algorithm' | 'digits' | 'period'>;

/**
 * The current code. Computed here when the page holds the secret (right after setup), otherwise
 * asked of the server once per period.
 */
export function CodeCard({ local }: { local: LocalSecret | null }) {
  return local ? <LocalCode secret={local} /> : <ServerCode />;
}

const deviceNow = () => Date.now();

function LocalCode({ secret }: { secret: LocalSecret }) {
  const tick = useTick(serverNow);
  // Refresh re-reads the clock at once instead of waiting for the next second.
  const [refreshedAt, setRefreshedAt] = useState(0);
  const now = Math.max(tick, refreshedAt);
  const code = generateCode({ type: 'totp', counter: null, ...secret }, now);
  const remaining = secondsRemaining(secret.period, now);
  return (
    <CodeView
      code={code}
      remaining={remaining}
      period={secret.period}
      onRefresh={() => setRefreshedAt(serverNow())}
      refreshing={false}
    />
  );
}

function ServerCode() {
  const query = useServerCode(true);
  const now = useTick(deviceNow);
  const refetch = query.refetch;
  const refresh = useCallback(() => void refetch(), [refetch]);

  if (query.isPending) {
    return (
      <Card aria-busy="true">
        <CardHeader>
          <CardTitle>Current code</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4" role="status" aria-label="Loading your code">
          <Skeleton className="mx-auto h-16 w-72 max-w-full" />
          <Skeleton className="h-2 w-full" />
        </CardContent>
      </Card>
    );
  }

  if (query.isError) {
    return (
      <Card role="alert">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <TriangleAlert className="size-5 text-destructive" aria-hidden="true" />
            Failed to generate TOTP code
          </CardTitle>
          <CardDescription>Check your connection and try again.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button type="button" onClick={refresh} disabled={query.isFetching}>
            <RotateCw aria-hidden="true" className={query.isFetching ? 'animate-spin' : undefined} />
            Try Again
          </Button>
        </CardContent>
      </Card>
    );
  }

  const { data, dataUpdatedAt } = query;
  // The tick may predate the answer; the answer's own arrival time is a later "now".
  const at = Math.max(now, dataUpdatedAt);
  const remaining = Math.max(0, Math.ceil((codeExpiresOnDevice(data, dataUpdatedAt) - at) / 1000));
  return (
    <CodeView
      code={data.code}
      remaining={Math.min(remaining, data.period)}
      period={data.period}
      onRefresh={refresh}
      refreshing={query.isFetching}
    />
  );
}

interface CodeViewProps {
  code: string;
  remaining: number;
  period: number;
  onRefresh: () => void;
  refreshing: boolean;
}

function CodeView({ code, remaining, period, onRefresh, refreshing }: CodeViewProps) {
  const { copied, copy } = useCopy();
  const urgent = remaining <= URGENT_SECONDS;
  const half = Math.ceil(code.length / 2);
  const expired = remaining === 0;

  return (
    <Card data-testid="code-card">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <div className="space-y-1">
          <CardTitle>Current code</CardTitle>
          <CardDescription>Your authenticator app should show the same code now.</CardDescription>
        </div>
        <Badge
          variant={urgent ? 'destructive' : 'secondary'}
          className="text-sm"
          data-testid="time-remaining"
          data-urgent={urgent}
        >
          {urgent ? <TriangleAlert aria-hidden="true" /> : <Clock aria-hidden="true" />}
          {expired ? 'Expired — refreshing' : urgent ? `Expiring soon: ${remaining}s left` : `${remaining}s remaining`}
        </Badge>
      </CardHeader>
      <CardContent className="space-y-6">
        <p
          className={cn(
            'text-center font-mono text-5xl font-semibold tracking-[0.12em] tabular-nums sm:text-6xl',
            expired && 'text-muted-foreground',
          )}
          aria-label={`Current code ${code.split('').join(' ')}`}
          aria-live="polite"
          data-testid="current-code"
        >
          <span aria-hidden="true">
            {code.slice(0, half)}
            <span className="inline-block w-[0.4em]" />
            {code.slice(half)}
          </span>
        </p>
        <Progress
          value={(remaining / period) * 100}
          aria-label="Time until the next code"
          aria-valuetext={`${remaining} seconds left`}
          indicatorClassName={urgent ? 'bg-destructive' : undefined}
          className={urgent ? 'bg-destructive/15' : undefined}
        />
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-center">
          <Button
            type="button"
            size="lg"
            onClick={() => void copy('code', code, { title: 'Code Copied', description: 'Paste it where you are signing in.' })}
          >
            {copied === 'code' ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
            {copied === 'code' ? 'Copied' : 'Copy Code'}
          </Button>
          <Button type="button" size="lg" variant="outline" onClick={onRefresh} disabled={refreshing}>
            <RotateCw aria-hidden="true" className={refreshing ? 'animate-spin' : undefined} />
            Refresh
          </Button>
        </div>
        <p className="text-center text-sm text-muted-foreground">Codes refresh every {period} seconds.</p>
      </CardContent>
    </Card>
  );
}
