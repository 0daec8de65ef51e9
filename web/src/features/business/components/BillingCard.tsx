import { useId, useState, type FormEvent } from 'react';
import { Building2, Pencil } from 'lucide-react';
import { GSTIN_MESSAGES, GST_STATES, gstStateName, gstinProblem, normaliseGstin } from '@common/gst';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useBillingDetails, useUpdateBilling, type BillingDetails } from '../api';

const fieldClass = cn(
  'flex w-full rounded-md border border-input bg-background px-3 py-1 text-base shadow-xs outline-none md:text-sm',
  'focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50',
);

/** What is wrong with the form, field by field (the server checks the same rules: common/gst.ts). */
export function billingProblems(gstin: string, state: string, address: string): { gstin?: string; state?: string; address?: string } {
  const problems: { gstin?: string; state?: string; address?: string } = {};
  const normalised = normaliseGstin(gstin);
  if (normalised) {
    const problem = gstinProblem(normalised);
    if (problem) problems.gstin = GSTIN_MESSAGES[problem];
    else if (state && state !== normalised.slice(0, 2)) problems.state = `Your GSTIN is registered in ${gstStateName(normalised.slice(0, 2))}.`;
  }
  if (address.trim().length > 300) problems.address = 'The address can be at most 300 characters.';
  return problems;
}

/**
 * The buyer's details receipts are made out to: GSTIN, billing state (place of supply) and
 * address. Changes apply to receipts issued from now on; issued receipts keep theirs.
 */
export function BillingCard() {
  const billing = useBillingDetails(true);
  const [editing, setEditing] = useState(false);
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-3">
        <div className="space-y-1.5">
          <CardTitle>Billing details</CardTitle>
          <CardDescription>
            {billing.data?.taxInvoices ? 'Printed on your tax invoices. Add your GSTIN to claim input tax credit.' : 'Printed on your receipts.'}
          </CardDescription>
        </div>
        {billing.data && !editing && (
          <Button type="button" variant="outline" size="sm" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {billing.isPending ? (
          <Skeleton className="h-24" />
        ) : billing.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Couldn&apos;t load your billing details.
          </p>
        ) : editing ? (
          <BillingForm details={billing.data} onDone={() => setEditing(false)} />
        ) : (
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Name</dt>
            <dd className="flex items-center gap-1.5 font-medium break-words">
              <Building2 className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              {billing.data.companyName}
            </dd>
            <dt className="text-muted-foreground">GSTIN</dt>
            <dd className="font-mono break-all">{billing.data.gstin ?? <span className="font-sans text-muted-foreground">Not given</span>}</dd>
            <dt className="text-muted-foreground">State</dt>
            <dd>{gstStateName(billing.data.billingState) ?? <span className="text-muted-foreground">Not given</span>}</dd>
            <dt className="text-muted-foreground">Address</dt>
            <dd className="break-words">{billing.data.billingAddress ?? <span className="text-muted-foreground">Not given</span>}</dd>
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

function BillingForm({ details, onDone }: { details: BillingDetails; onDone: () => void }) {
  const id = useId();
  const update = useUpdateBilling();
  const [gstin, setGstin] = useState(details.gstin ?? '');
  const [state, setState] = useState(details.billingState ?? '');
  const [address, setAddress] = useState(details.billingAddress ?? '');
  const [submitted, setSubmitted] = useState(false);
  const problems = billingProblems(gstin, state, address);
  const shown = submitted ? problems : {};

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(problems).length > 0) return;
    update.mutate(
      { gstin: normaliseGstin(gstin) || null, billingState: state || null, billingAddress: address.trim() || null },
      {
        onSuccess: () => {
          toast({ title: 'Billing details saved', description: 'Receipts issued from now on show them.' });
          onDone();
        },
        onError: (error) => toast({ variant: 'destructive', title: 'Not saved', description: errorMessage(error, 'Your billing details could not be saved. Try again.') }),
      },
    );
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-gstin`}>GSTIN (optional)</Label>
        <Input
          id={`${id}-gstin`}
          value={gstin}
          onChange={(e) => {
            setGstin(e.target.value);
            const code = normaliseGstin(e.target.value).slice(0, 2);
            // The state follows a GSTIN typed in full.
            if (normaliseGstin(e.target.value).length === 15 && GST_STATES.some((s) => s.code === code)) setState(code);
          }}
          placeholder="29ABCDE1234F1Z5"
          autoComplete="off"
          spellCheck={false}
          className="font-mono uppercase"
          maxLength={20}
          aria-invalid={shown.gstin ? true : undefined}
          aria-describedby={shown.gstin ? `${id}-gstin-error` : undefined}
        />
        {shown.gstin && (
          <p id={`${id}-gstin-error`} className="text-xs text-destructive">
            {shown.gstin}
          </p>
        )}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-state`}>Billing state</Label>
        <select
          id={`${id}-state`}
          value={state}
          onChange={(e) => setState(e.target.value)}
          className={cn(fieldClass, 'h-9')}
          aria-invalid={shown.state ? true : undefined}
          aria-describedby={shown.state ? `${id}-state-error` : undefined}
        >
          <option value="">Not given</option>
          {GST_STATES.map((s) => (
            <option key={s.code} value={s.code}>
              {s.name}
            </option>
          ))}
        </select>
        {shown.state && (
          <p id={`${id}-state-error`} className="text-xs text-destructive">
            {shown.state}
          </p>
        )}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-address`}>Billing address</Label>
        <textarea
          id={`${id}-address`}
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          rows={3}
          className={cn(fieldClass, 'py-2')}
          autoComplete="street-address"
          aria-invalid={shown.address ? true : undefined}
          aria-describedby={shown.address ? `${id}-address-error` : undefined}
        />
        {shown.address && (
          <p id={`${id}-address-error`} className="text-xs text-destructive">
            {shown.address}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending && <Spinner label="Saving" className="text-primary-foreground" />}
          Save
        </Button>
        <Button type="button" variant="ghost" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
