import { CircleCheck, CircleHelp, CircleX, Clock, ServerCrash, Unplug } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { deliveryBadge, type DeliveryBadgeKind } from '../format';

const ICONS: Record<DeliveryBadgeKind, typeof Clock> = {
  pending: Clock,
  success: CircleCheck,
  'client-error': CircleX,
  'server-error': ServerCrash,
  unknown: CircleHelp,
  'no-response': Unplug,
};

/** SPEC §4's badge, in words and colour, with the status code beside it when there is one. */
export function DeliveryStatusBadge({ responseStatus, error }: { responseStatus: number | null; error?: string | null }) {
  const badge = deliveryBadge(responseStatus, error);
  const Icon = ICONS[badge.kind];
  return (
    <span className="inline-flex items-center gap-1.5">
      <Badge variant={badge.variant} className={cn(badge.className)} data-kind={badge.kind}>
        <Icon aria-hidden="true" />
        {badge.label}
      </Badge>
      {responseStatus !== null && <span className="font-mono text-xs text-muted-foreground">{responseStatus}</span>}
    </span>
  );
}
