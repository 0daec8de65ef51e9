import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { CheckCircle2, Loader2, RotateCw, Send, Smartphone, TriangleAlert } from 'lucide-react';
import { formatCountIndian, formatRupees, parseRupeesToPaise, type TopUpPackId } from '@common/pricing';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { CopyButton } from '@/features/business/components/CopyButton';
import { ApiError, errorMessage } from '@/lib/api';
import { useCopy } from '@/lib/use-copy';
import { qrOptionList, useQrOptions, useSubmitPaymentRequest, type QrOption } from '../api';
import { PackPicker } from './PackPicker';
import { Textarea } from './Textarea';

export const LOAD_OPTIONS_FAILED = 'Unable to load payment options. Please try again later.';
export const SUBMITTED_MESSAGE = 'Payment submitted — we’ll verify it within 2–4 business hours';

function rupees(decimal: string): string {
  const paise = parseRupeesToPaise(decimal);
  return paise === null ? `₹${decimal}` : formatRupees(paise);
}

/** Errors worth showing as the server words them (set-up missing, impersonation). */
function loadErrorText(error: unknown): string {
  if (error instanceof ApiError && (error.code === 'not_configured' || error.code === 'impersonation_forbidden')) {
    return errorMessage(error, LOAD_OPTIONS_FAILED);
  }
  return LOAD_OPTIONS_FAILED;
}

export function BankQrPanel({ packId, onPackChange }: { packId: TopUpPackId; onPackChange: (id: TopUpPackId) => void }) {
  const options = useQrOptions(true);

  if (options.isPending) {
    return (
      <div role="status" aria-label="Loading payment options" className="space-y-4">
        <Skeleton className="h-24" />
        <Skeleton className="h-64" />
      </div>
    );
  }

  if (options.isError) {
    return (
      <div role="alert" className="space-y-3 rounded-lg border border-destructive/40 bg-destructive/5 p-4">
        <p className="flex items-start gap-2 text-sm">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
          {loadErrorText(options.error)}
        </p>
        <Button type="button" variant="outline" size="sm" onClick={() => void options.refetch()} disabled={options.isFetching}>
          <RotateCw aria-hidden="true" className={options.isFetching ? 'animate-spin' : undefined} />
          Try again
        </Button>
      </div>
    );
  }

  const list = qrOptionList(options.data);
  const option = list.find((o) => o.packId === packId) ?? list[0];

  return (
    <div className="space-y-6">
      <PackPicker name="bank-pack" value={packId} onChange={onPackChange} />
      {option ? <QrOptionDetails key={option.paymentReference} option={option} /> : <p className="text-sm text-muted-foreground">No payment options are available.</p>}
    </div>
  );
}

function QrOptionDetails({ option }: { option: QrOption }) {
  const { copied, copy } = useCopy();
  const amount = rupees(option.amount);

  return (
    <section aria-label={`Pay ${amount} by UPI or bank transfer`} className="space-y-5">
      {option.demo && (
        <div role="note" className="flex items-start gap-2 rounded-lg border-2 border-destructive bg-destructive/10 p-3 text-sm">
          <TriangleAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
          <p>
            <strong className="font-semibold">Demo payee — do not pay.</strong> This server still uses made-up payee details, so
            money sent to this UPI id would not reach Sixdigit. You can still try the flow with a made-up UTR.
          </p>
        </div>
      )}

      <div className="grid gap-5 sm:grid-cols-[auto_minmax(0,1fr)]">
        <figure className="mx-auto flex w-full max-w-56 flex-col items-center gap-2 sm:mx-0">
          <img
            src={option.qrCodeImageUrl}
            alt={`UPI QR code: pay ${amount} to ${option.merchantName}`}
            className="aspect-square w-full rounded-lg border bg-white p-2"
          />
          <figcaption className="text-center text-xs text-muted-foreground">Scan with any UPI app</figcaption>
          <Button asChild variant="outline" size="sm" className="sm:hidden">
            <a href={option.upiUri}>
              <Smartphone aria-hidden="true" />
              Open in a UPI app
            </a>
          </Button>
        </figure>

        <dl className="grid min-w-0 grid-cols-1 gap-3 text-sm">
          <Detail term="Amount">
            <span className="text-lg font-semibold tabular-nums">{amount}</span>{' '}
            <span className="text-muted-foreground">· {formatCountIndian(option.verifications)} verifications</span>
          </Detail>
          <Detail term="UPI ID">
            <span className="flex flex-wrap items-center gap-2">
              <code className="font-mono break-all">{option.upiId}</code>
              <CopyButton
                label="Copy UPI ID"
                copied={copied === 'upi'}
                onCopy={() => void copy('upi', option.upiId, { title: 'UPI ID copied', description: option.upiId })}
              />
            </span>
          </Detail>
          <Detail term="Merchant name">{option.merchantName}</Detail>
          {option.bankAccountDetails && <Detail term="Bank account">{option.bankAccountDetails}</Detail>}
          <Detail term="Verification code">
            <code className="font-mono text-base font-semibold tracking-widest">{option.verificationCode}</code>
          </Detail>
          <Detail term="Payment reference">
            <span className="flex flex-wrap items-center gap-2">
              <code className="font-mono font-semibold break-all" data-testid="payment-reference">
                {option.paymentReference}
              </code>
              <CopyButton
                label="Copy payment reference"
                copied={copied === 'reference'}
                onCopy={() =>
                  void copy('reference', option.paymentReference, { title: 'Payment reference copied', description: option.paymentReference })
                }
              />
            </span>
          </Detail>
        </dl>
      </div>

      <p className="rounded-lg border border-primary/30 bg-primary/5 p-3 text-sm">
        <strong className="font-semibold">Put the payment reference in the transaction note</strong> (remarks) of your payment:{' '}
        <code className="font-mono font-semibold">{option.paymentReference}</code>. Pay exactly {amount}. Scanning the QR fills both in
        for you.
      </p>

      <UtrForm option={option} />
    </section>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[9rem_minmax(0,1fr)] sm:items-center sm:gap-3">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/** "I paid": the UTR for one issued reference (the QR options here, or an auto-refill request). */
export function UtrForm({ option }: { option: Pick<QrOption, 'paymentReference' | 'amount' | 'verifications'> }) {
  const id = useId();
  const submit = useSubmitPaymentRequest();
  const [utr, setUtr] = useState('');
  const [notes, setNotes] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const cleaned = utr.replace(/\s+/g, '').toUpperCase();
    if (!cleaned) {
      setProblem('Enter the bank transaction id (UTR) from your bank or UPI app.');
      return;
    }
    setProblem(null);
    setDone(false);
    submit.mutate(
      { paymentReference: option.paymentReference, utr: cleaned, amount: option.amount, ...(notes.trim() ? { notes: notes.trim() } : {}) },
      {
        onSuccess: () => {
          setDone(true);
          setUtr('');
          setNotes('');
          toast({ title: 'Payment Submitted', description: SUBMITTED_MESSAGE });
        },
        onError: (error) => {
          const message = errorMessage(error, 'Failed to submit your payment. Please try again.');
          setProblem(message);
          toast({ variant: 'destructive', title: 'Submission Failed', description: message });
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-lg border p-4">
      <div className="space-y-1">
        <h3 className="font-semibold">Already paid? Tell us the transaction id</h3>
        <p className="text-sm text-muted-foreground">
          We match it with our bank statement and add {formatCountIndian(option.verifications)} verifications to your balance.
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-utr`}>Bank transaction ID (UTR)</Label>
        <Input
          id={`${id}-utr`}
          value={utr}
          onChange={(e) => setUtr(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          placeholder="e.g. 412345678901"
          aria-describedby={`${id}-utr-hint${problem ? ` ${id}-problem` : ''}`}
          aria-invalid={problem ? true : undefined}
          className="font-mono"
        />
        <p id={`${id}-utr-hint`} className="text-xs text-muted-foreground">
          12 to 22 letters and digits, shown as UTR, RRN or transaction id in your bank or UPI app.
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-notes`}>Notes (optional)</Label>
        <Textarea id={`${id}-notes`} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={500} rows={2} />
      </div>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="flex items-start gap-2 text-sm text-destructive">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {problem}
        </p>
      )}
      {done && (
        <p role="status" className="flex items-start gap-2 rounded-md bg-success/10 p-3 text-sm text-success">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {SUBMITTED_MESSAGE}
        </p>
      )}
      <Button type="submit" disabled={submit.isPending} className="w-full sm:w-auto">
        {submit.isPending ? <Loader2 aria-hidden="true" className="animate-spin" /> : <Send aria-hidden="true" />}
        Submit payment for verification
      </Button>
    </form>
  );
}
