import type { BadgeProps } from '@/components/ui/badge';

export type DeliveryBadgeKind = 'pending' | 'success' | 'client-error' | 'server-error' | 'unknown' | 'no-response';

export interface DeliveryBadge {
  kind: DeliveryBadgeKind;
  /** The words on the badge: colour is never the only signal. */
  label: string;
  variant: NonNullable<BadgeProps['variant']>;
  className?: string;
}

/**
 * SPEC §4's delivery badge: null → Pending; 200–299 → Success; 400–499 → Client Error;
 * 500 and above → Server Error; anything else (1xx, 3xx such as an unfollowed redirect) → Unknown.
 *
 * One refinement: an attempt that got no answer at all (timed out, refused, connection reset)
 * also has no status, but it is not pending — the server sends its error, and the badge says
 * "No response" instead of pretending it is still waiting.
 */
export function deliveryBadge(responseStatus: number | null, error?: string | null): DeliveryBadge {
  if (responseStatus === null) {
    return error
      ? { kind: 'no-response', label: 'No response', variant: 'outline', className: 'border-destructive/40 bg-destructive/10 text-destructive' }
      : { kind: 'pending', label: 'Pending', variant: 'secondary' };
  }
  if (responseStatus >= 200 && responseStatus <= 299) return { kind: 'success', label: 'Success', variant: 'success' };
  if (responseStatus >= 400 && responseStatus <= 499) {
    return { kind: 'client-error', label: 'Client Error', variant: 'outline', className: 'border-warning/50 bg-warning/10 text-foreground' };
  }
  if (responseStatus >= 500) return { kind: 'server-error', label: 'Server Error', variant: 'destructive' };
  return { kind: 'unknown', label: 'Unknown', variant: 'outline' };
}

const dateTime = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'medium' });

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export function formatMs(value: number | null): string {
  if (value === null) return '—';
  return `${value >= 100 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1)} ms`;
}
