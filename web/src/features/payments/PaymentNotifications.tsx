import { useEffect, useRef } from 'react';
import { CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/features/business/format';
import { cn } from '@/lib/utils';
import { refreshBusiness, useMarkNotificationRead, useNotifications } from './api';

/**
 * Unread payment decisions (approved / rejected) for the business dashboard, each with a
 * dismiss that marks it read. Nothing at all when there are none or they cannot be loaded.
 */
export function PaymentNotifications() {
  const client = useQueryClient();
  const notifications = useNotifications();
  const markRead = useMarkNotificationRead();
  const unread = notifications.data?.notifications.filter((n) => !n.read) ?? [];
  const approvedIds = unread.filter((n) => n.kind === 'payment.approved').map((n) => n.id).join(',');
  const seen = useRef(approvedIds);

  // A new approval changed the balance: refresh it without waiting for the next poll.
  useEffect(() => {
    if (approvedIds && approvedIds !== seen.current) refreshBusiness(client);
    seen.current = approvedIds;
  }, [approvedIds, client]);

  if (!unread.length) return null;

  return (
    <section aria-label="Payment notices" className="space-y-3">
      {unread.map((n) => {
        const approved = n.kind === 'payment.approved' || n.kind === 'payment.succeeded';
        // An auto-refill's bank/UPI request is something to do, not something that went wrong.
        const todo = n.kind === 'auto_refill.request';
        const Icon = approved ? CheckCircle2 : todo ? Info : XCircle;
        return (
          <div
            key={n.id}
            role="status"
            className={cn(
              'flex items-start gap-3 rounded-lg border p-4 text-sm',
              approved ? 'border-success/40 bg-success/10' : todo ? 'border-primary/40 bg-primary/5' : 'border-destructive/40 bg-destructive/10',
            )}
          >
            <Icon className={cn('mt-0.5 size-5 shrink-0', approved ? 'text-success' : todo ? 'text-primary' : 'text-destructive')} aria-hidden="true" />
            <div className="min-w-0 flex-1 space-y-1">
              <p className="font-semibold">{n.title}</p>
              <p className="break-words">{n.message}</p>
              <p className="text-xs text-muted-foreground">{formatDateTime(n.createdAt)}</p>
            </div>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8 shrink-0"
              aria-label={`Dismiss: ${n.title}`}
              onClick={() => markRead.mutate(n.id)}
            >
              <X aria-hidden="true" />
            </Button>
          </div>
        );
      })}
    </section>
  );
}
