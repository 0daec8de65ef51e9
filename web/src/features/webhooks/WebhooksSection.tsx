import { useState } from 'react';
import { Plus, RotateCw, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import type { ApiMode } from '@common/contract/business';
import { MAX_WEBHOOKS, useWebhookLogs, useWebhooks } from './api';
import { CreateWebhookDialog } from './components/CreateWebhookDialog';
import { DeliveryLog } from './components/DeliveryLog';
import { WebhookList } from './components/WebhookList';

/**
 * Webhook management for the business dashboard (SPEC §2): the endpoints with their events and
 * switches, "Add webhook", and the delivery log, refreshed every 5 s while this is on screen.
 */
export function WebhooksSection({ mode = 'live' }: { mode?: ApiMode }) {
  const webhooks = useWebhooks(mode);
  const logs = useWebhookLogs(mode);
  const test = mode === 'test';
  const [creating, setCreating] = useState(false);
  const full = (webhooks.data?.length ?? 0) >= MAX_WEBHOOKS;

  return (
    <section aria-labelledby="webhooks-title" className="grid min-w-0 grid-cols-1 gap-6">
      <Card className="min-w-0">
        <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="space-y-1.5">
            <CardTitle id="webhooks-title">{test ? 'Test webhooks' : 'Webhooks'}</CardTitle>
            <CardDescription>
              {test ? (
                <>Endpoints that receive only the events of your test key (<code className="font-mono">livemode: false</code>).</>
              ) : (
                <>
                  Signed (Standard Webhooks) POSTs for verification.success, verification.failed, credit.low and
                  credit.depleted.
                </>
              )}
            </CardDescription>
          </div>
          <Button
            type="button"
            onClick={() => setCreating(true)}
            disabled={full}
            title={full ? `At most ${MAX_WEBHOOKS} webhooks` : undefined}
            className="self-start"
          >
            <Plus aria-hidden="true" />
            {test ? 'Add test webhook' : 'Add webhook'}
          </Button>
        </CardHeader>
        <CardContent>
          {webhooks.isPending ? (
            <div role="status" aria-label="Loading webhooks" className="grid gap-3">
              <Skeleton className="h-24" />
              <Skeleton className="h-24" />
            </div>
          ) : webhooks.isError ? (
            <LoadError what="webhooks" onRetry={() => void webhooks.refetch()} retrying={webhooks.isFetching} />
          ) : (
            <WebhookList webhooks={webhooks.data} />
          )}
          {test && webhooks.data?.length === 0 && (
            <p className="mt-3 text-sm text-muted-foreground">Test endpoints are separate from live ones: add one here to receive test events.</p>
          )}
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>{test ? 'Test delivery log' : 'Delivery log'}</CardTitle>
          <CardDescription>Every attempt, newest first. Refreshes every few seconds.</CardDescription>
        </CardHeader>
        <CardContent>
          {logs.isPending ? (
            <div role="status" aria-label="Loading delivery log" className="grid gap-2">
              <Skeleton className="h-9" />
              <Skeleton className="h-9" />
              <Skeleton className="h-9" />
            </div>
          ) : logs.isError ? (
            <LoadError what="the delivery log" onRetry={() => void logs.refetch()} retrying={logs.isFetching} />
          ) : (
            <DeliveryLog entries={logs.data} inactiveWebhookIds={new Set((webhooks.data ?? []).filter((w) => !w.isActive).map((w) => w.id))} />
          )}
        </CardContent>
      </Card>

      <CreateWebhookDialog open={creating} onOpenChange={setCreating} mode={mode} />
    </section>
  );
}

function LoadError({ what, onRetry, retrying }: { what: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm">
      <p className="flex items-center gap-2 font-medium">
        <TriangleAlert className="size-4 text-destructive" aria-hidden="true" />
        Couldn&apos;t load {what}.
      </p>
      <Button type="button" variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
        <RotateCw aria-hidden="true" className={retrying ? 'animate-spin' : undefined} />
        Try again
      </Button>
    </div>
  );
}
