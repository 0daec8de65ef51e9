import { CheckCircle2, Clock, XCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import type { PaymentStatus } from '../api';

/** A payment's state in words (never colour alone), SPEC §4. */
export function StatusBadge({ status }: { status: PaymentStatus }) {
  if (status === 'approved') {
    return (
      <Badge variant="success">
        <CheckCircle2 aria-hidden="true" />
        Approved
      </Badge>
    );
  }
  if (status === 'rejected') {
    return (
      <Badge variant="destructive">
        <XCircle aria-hidden="true" />
        Rejected
      </Badge>
    );
  }
  if (status === 'pending') {
    return (
      <Badge variant="secondary">
        <Clock aria-hidden="true" />
        Pending
      </Badge>
    );
  }
  return <Badge variant="outline">{status}</Badge>;
}
