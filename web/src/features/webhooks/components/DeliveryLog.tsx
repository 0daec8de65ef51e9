import { History } from 'lucide-react';
import type { WebhookLogEntry } from '../api';
import { formatDateTime, formatMs } from '../format';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';

/** Newest first, whatever order the server used. */
export function newestFirst(entries: WebhookLogEntry[]): WebhookLogEntry[] {
  return [...entries].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

/** Every delivery attempt: event, endpoint, status badge, retries, response time, time, verification. */
export function DeliveryLog({ entries }: { entries: WebhookLogEntry[] }) {
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
