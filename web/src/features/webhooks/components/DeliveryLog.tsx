import { History, RotateCcw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useResendDelivery, type WebhookLogEntry } from '../api';
import { formatDateTime, formatMs } from '../format';
import { toastWebhookError } from '../toasts';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';

/** A delivery can be sent again once it is finished (not while it is queued or being sent). */
const RESENDABLE = new Set(['succeeded', 'exhausted', 'cancelled']);

/** Newest first, whatever order the server used. */
export function newestFirst(entries: WebhookLogEntry[]): WebhookLogEntry[] {
  return [...entries].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

/**
 * Every delivery attempt: event, endpoint, status badge, retries, response time, time,
 * verification, and on each delivery's latest attempt a Resend button (same webhook-id).
 * `inactiveWebhookIds`: endpoints that are off, which cannot be resent to.
 */
export function DeliveryLog({ entries, inactiveWebhookIds = new Set() }: { entries: WebhookLogEntry[]; inactiveWebhookIds?: ReadonlySet<string> }) {
  const resend = useResendDelivery();
  if (entries.length === 0) {
    return (
      <div className="flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">
        <History className="size-8" aria-hidden="true" />
        <p className="font-medium text-foreground">No deliveries yet</p>
        <p className="max-w-sm">Each attempt to reach your endpoints appears here. Send a test event to see one.</p>
      </div>
    );
  }
  const rows = newestFirst(entries);
  // What happens next is said once per delivery, on its latest attempt.
  const latest = new Set<string>();
  const seen = new Set<string>();
  for (const row of rows) {
    if (!seen.has(row.deliveryId)) latest.add(row.id);
    seen.add(row.deliveryId);
  }
  return (
    <div className="overflow-x-auto rounded-lg border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none" tabIndex={0} role="region" aria-label="Delivery log table">
      <table className="w-full min-w-[56rem] text-left text-sm">
        <caption className="sr-only">Webhook delivery log, newest first</caption>
        <thead className="bg-muted/50 text-xs whitespace-nowrap text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Event</th>
            <th scope="col" className="px-3 py-2 font-medium">URL</th>
            <th scope="col" className="px-3 py-2 font-medium">Status</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Retries</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Response time</th>
            <th scope="col" className="px-3 py-2 font-medium">Time</th>
            <th scope="col" className="px-3 py-2 font-medium">Verification</th>
            <th scope="col" className="px-3 py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {rows.map((entry) => (
            <tr key={entry.id} data-testid="delivery-row" className="align-top">
              <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">{entry.event}</td>
              <td className="max-w-64 min-w-48 px-3 py-2 font-mono text-xs break-all">{entry.webhookUrl}</td>
              <td className="min-w-40 px-3 py-2">
                <DeliveryStatusBadge responseStatus={entry.responseStatus} error={entry.error} />
                {entry.error && <p className="mt-1 max-w-56 text-xs break-words text-muted-foreground">{entry.error}</p>}
                {latest.has(entry.id) && <NextStep entry={entry} />}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{entry.retryCount}</td>
              <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">{formatMs(entry.responseTime)}</td>
              <td className="px-3 py-2 whitespace-nowrap">
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
              </td>
              <td className="px-3 py-2 font-mono text-xs break-all">{entry.verificationId ?? '—'}</td>
              <td className="px-3 py-2">
                {latest.has(entry.id) && RESENDABLE.has(entry.deliveryStatus) && (
                  <ResendButton
                    entry={entry}
                    off={inactiveWebhookIds.has(entry.webhookId)}
                    pending={resend.isPending && resend.variables === entry.deliveryId}
                    onResend={() =>
                      resend.mutate(entry.deliveryId, {
                        onSuccess: () => toast({ title: 'Delivery queued again', description: `${entry.event} to ${entry.webhookUrl}, with its original webhook-id.` }),
                        onError: (error) => toastWebhookError(error, 'Failed to resend the delivery'),
                      })
                    }
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function NextStep({ entry }: { entry: WebhookLogEntry }) {
  const text =
    entry.attemptNumber === 0
      ? null
      : entry.deliveryStatus === 'exhausted'
        ? 'Given up: no more retries'
        : entry.deliveryStatus === 'pending'
          ? 'Retry scheduled'
          : entry.deliveryStatus === 'cancelled'
            ? 'Cancelled: webhook switched off'
            : null;
  return text ? <p className="mt-1 text-xs text-muted-foreground">{text}</p> : null;
}

function ResendButton({ entry, off, pending, onResend }: { entry: WebhookLogEntry; off: boolean; pending: boolean; onResend: () => void }) {
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={pending || off}
      title={off ? 'Turn the webhook on to resend' : 'Send this delivery again (same webhook-id)'}
      onClick={onResend}
      aria-label={`Resend ${entry.event} to ${entry.webhookUrl}`}
    >
      {pending ? <Spinner label="Resending" /> : <RotateCcw aria-hidden="true" />}
      <span aria-hidden="true">Resend</span>
    </Button>
  );
}
