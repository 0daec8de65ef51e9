import { useId, useState, type FormEvent } from 'react';
import { Loader2 } from 'lucide-react';
import { formatCountIndian, parseRupeesToPaise, verificationsForPaise } from '@common/pricing';
import { FormDialog, FormDialogBody } from '@/components/FormDialog';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { rupeesText } from '@/features/payments/components/PaymentRequestsList';
import { Textarea } from '@/features/payments/components/Textarea';
import { errorMessage } from '@/lib/api';
import { useApprovePayment, useRejectPayment, type DeskPayment } from '../api';

interface DecisionDialogProps {
  payment: DeskPayment | null;
  onOpenChange: (open: boolean) => void;
}

function Summary({ payment }: { payment: DeskPayment }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 rounded-md bg-muted/50 p-3 text-sm">
      <dt className="text-muted-foreground">Business</dt>
      <dd className="break-words">{payment.companyName}</dd>
      <dt className="text-muted-foreground">Amount</dt>
      <dd className="font-medium tabular-nums">{rupeesText(payment.amount)}</dd>
      <dt className="text-muted-foreground">Reference</dt>
      <dd className="font-mono break-all">{payment.paymentReference}</dd>
      <dt className="text-muted-foreground">UTR</dt>
      <dd className="font-mono break-all">{payment.utr}</dd>
    </dl>
  );
}

export function ApproveDialog({ payment, onOpenChange }: DecisionDialogProps) {
  return (
    <FormDialog open={payment !== null} onOpenChange={onOpenChange} className="sm:max-w-lg">
      {payment && <ApproveForm payment={payment} onDone={() => onOpenChange(false)} />}
    </FormDialog>
  );
}

function ApproveForm({ payment, onDone }: { payment: DeskPayment; onDone: () => void }) {
  const id = useId();
  const approve = useApprovePayment();
  const [notes, setNotes] = useState('');
  const paise = parseRupeesToPaise(payment.amount) ?? 0;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    approve.mutate(
      { id: payment.id, ...(notes.trim() ? { notes: notes.trim() } : {}) },
      {
        onSuccess: () => {
          toast({
            title: 'Payment Approved',
            description: `${payment.companyName}: ${rupeesText(payment.amount)} added — ${formatCountIndian(verificationsForPaise(paise))} verifications.`,
          });
          onDone();
        },
        onError: (error) => {
          toast({ variant: 'destructive', title: 'Approval Failed', description: errorMessage(error, 'Failed to approve the payment. Please try again.') });
        },
      },
    );
  }

  return (
    <FormDialogBody
      title="Approve payment"
      description={
        <>
          Approve only after the money shows on the bank statement with this UTR. This adds{' '}
          {formatCountIndian(verificationsForPaise(paise))} verifications to the business’s balance and cannot be undone.
        </>
      }
      onSubmit={onSubmit}
      actions={
        <Button type="submit" disabled={approve.isPending}>
          {approve.isPending && <Loader2 aria-hidden="true" className="animate-spin" />}
          Approve and add credits
        </Button>
      }
    >
      <Summary payment={payment} />
      <div className="space-y-2">
        <Label htmlFor={`${id}-notes`}>Notes (optional)</Label>
        <Textarea id={`${id}-notes`} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={1000} rows={2} />
      </div>
    </FormDialogBody>
  );
}

export function RejectDialog({ payment, onOpenChange }: DecisionDialogProps) {
  return (
    <FormDialog open={payment !== null} onOpenChange={onOpenChange} className="sm:max-w-lg">
      {payment && <RejectForm payment={payment} onDone={() => onOpenChange(false)} />}
    </FormDialog>
  );
}

function RejectForm({ payment, onDone }: { payment: DeskPayment; onDone: () => void }) {
  const id = useId();
  const reject = useRejectPayment();
  const [reason, setReason] = useState('');
  const blank = reason.trim() === '';

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (blank) return;
    reject.mutate(
      { id: payment.id, reason: reason.trim() },
      {
        onSuccess: () => {
          toast({ title: 'Payment Rejected', description: `${payment.companyName} has been told why.` });
          onDone();
        },
        onError: (error) => {
          toast({ variant: 'destructive', title: 'Rejection Failed', description: errorMessage(error, 'Failed to reject the payment. Please try again.') });
        },
      },
    );
  }

  return (
    <FormDialogBody
      title="Reject payment"
      description="Nothing is credited. The business sees your reason on its dashboard."
      onSubmit={onSubmit}
      actions={
        <Button type="submit" variant="destructive" disabled={blank || reject.isPending}>
          {reject.isPending && <Loader2 aria-hidden="true" className="animate-spin" />}
          Reject payment
        </Button>
      }
    >
      <Summary payment={payment} />
      <div className="space-y-2">
        <Label htmlFor={`${id}-reason`}>Reason for rejection</Label>
        <Textarea
          id={`${id}-reason`}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={500}
          rows={3}
          required
          aria-describedby={`${id}-hint`}
          placeholder="e.g. No payment with this UTR on our statement"
        />
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          Required. Be specific — the business reads it.
        </p>
      </div>
    </FormDialogBody>
  );
}
