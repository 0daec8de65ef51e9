import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Info, TriangleAlert } from 'lucide-react';
import {
  LOW_BALANCE_THRESHOLD_PAISE,
  MIN_PAYMENT_PAISE,
  PAISE_PER_RUPEE,
  TOP_UP_PACKS,
  formatRupees,
  getTopUpPack,
  type TopUpPackId,
} from '@common/pricing';
import { FormDialog, FormDialogBody } from '@/components/FormDialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { loadRazorpay } from '@/features/payments/razorpay';
import { businessQueryKeys, confirmMandate, startMandate, useRemoveMandate, useUpdateAutoRefill, type AutoRefillSettings } from '../api';
import { count } from '../format';
import { autoRefillModeText } from './AutoRefillCard';

/** The server accepts whole rupees from ₹100 up to ₹1 crore. */
export const MIN_THRESHOLD_RUPEES = MIN_PAYMENT_PAISE / PAISE_PER_RUPEE;
export const MAX_THRESHOLD_RUPEES = 10_000_000;
const DEFAULT_THRESHOLD_RUPEES = 500;

export function thresholdProblem(text: string): string | null {
  if (!/^\d+$/.test(text.trim())) return `Enter a whole number of rupees, at least ₹${MIN_THRESHOLD_RUPEES}.`;
  const value = Number(text.trim());
  if (value < MIN_THRESHOLD_RUPEES) return `The threshold must be at least ₹${MIN_THRESHOLD_RUPEES}.`;
  if (value > MAX_THRESHOLD_RUPEES) return 'That threshold is too high.';
  return null;
}

/** "On · charges your card below ₹500 → Basic" / "Off" for the quick-actions card: says which auto-refill it is. */
export function autoRefillSummary(settings: AutoRefillSettings): string {
  if (settings.mode === 'unavailable') return 'Not available on this server';
  if (!settings.enabled) return settings.offReason ? 'Off · the last charge failed' : 'Off';
  const pack = settings.packId ? getTopUpPack(settings.packId) : undefined;
  const threshold = settings.thresholdPaise !== null ? formatRupees(settings.thresholdPaise) : '—';
  const action = settings.mode === 'razorpay' ? `charges your ${settings.mandate?.method === 'upi' ? 'UPI mandate' : 'card'}` : 'bank/UPI request';
  return `On · ${action} below ${threshold}${pack ? ` → ${pack.name} pack` : ''}`;
}

const selectClass = cn(
  'flex h-9 w-full rounded-md border border-input bg-background px-3 py-1 text-base shadow-xs outline-none md:text-sm',
  'focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50',
);

interface AutoRefillDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  settings: AutoRefillSettings;
}

export function AutoRefillDialog({ open, onOpenChange, settings }: AutoRefillDialogProps) {
  return (
    <FormDialog open={open} onOpenChange={onOpenChange}>
      <AutoRefillForm settings={settings} onSaved={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function AutoRefillForm({ settings, onSaved }: { settings: AutoRefillSettings; onSaved: () => void }) {
  const enabledId = useId();
  const thresholdId = useId();
  const thresholdHelpId = useId();
  const thresholdErrorId = useId();
  const packId = useId();
  const packHelpId = useId();
  const methodId = useId();
  const save = useUpdateAutoRefill();
  const remove = useRemoveMandate();
  const client = useQueryClient();
  const [authorising, setAuthorising] = useState(false);
  const [method, setMethod] = useState<'card' | 'upi'>(settings.mandate?.method ?? 'card');
  const [enabled, setEnabled] = useState(settings.enabled || (settings.mode === 'razorpay' && settings.mandate?.status !== 'active'));
  const [threshold, setThreshold] = useState(
    String(settings.thresholdPaise !== null ? Math.round(settings.thresholdPaise / PAISE_PER_RUPEE) : DEFAULT_THRESHOLD_RUPEES),
  );
  const [pack, setPack] = useState<TopUpPackId>(
    (settings.packId && getTopUpPack(settings.packId)?.id) || TOP_UP_PACKS.find((p) => p.popular)!.id,
  );
  const [touched, setTouched] = useState(false);
  // A disabled threshold is not checked: the server still gets a valid one.
  const problem = enabled ? thresholdProblem(threshold) : null;
  const showProblem = touched && problem;

  // With Razorpay, switching on needs a saved mandate: its first payment (the pack) authorises it.
  const needsMandate = settings.mode === 'razorpay' && settings.mandate?.status !== 'active' && enabled;
  const busy = save.isPending || authorising || remove.isPending;

  async function authoriseMandate(thresholdRupees: number) {
    setAuthorising(true);
    try {
      const order = await startMandate({ method, packId: pack, thresholdRupees });
      const Razorpay = await loadRazorpay();
      const checkout = new Razorpay({
        key: order.keyId,
        amount: order.amount,
        currency: order.currency,
        name: 'Sixdigit',
        description: order.description,
        order_id: order.orderId,
        customer_id: order.customerId,
        recurring: '1',
        modal: { ondismiss: () => setAuthorising(false) },
        handler: (result) => {
          confirmMandate(result)
            .then((profile) => {
              client.setQueryData(businessQueryKeys.profile, profile);
              toast({
                title: profile.autoRefill.mandate?.status === 'active' ? 'Auto-refill On' : 'Mandate Pending',
                description:
                  profile.autoRefill.mandate?.status === 'active'
                    ? `Your ${method === 'card' ? 'card' : 'UPI mandate'} is saved and ${formatRupees(order.amount)} was added. We charge it when your balance falls below ₹${count(thresholdRupees)}.`
                    : 'Paid and credited. Auto-refill switches on when your bank confirms the mandate.',
              });
              onSaved();
            })
            .catch((error: unknown) => toast({ variant: 'destructive', title: 'Mandate Not Saved', description: errorMessage(error, 'The mandate could not be confirmed. Please contact support.') }))
            .finally(() => setAuthorising(false));
        },
      });
      checkout.on('payment.failed', () => {
        toast({ variant: 'destructive', title: 'Payment Failed', description: 'The authorising payment failed; nothing was saved.' });
        setAuthorising(false);
      });
      checkout.open();
    } catch (error) {
      toast({ variant: 'destructive', title: 'Mandate Not Started', description: errorMessage(error, 'Could not start saving the mandate. Please try again.') });
      setAuthorising(false);
    }
  }

  function removeMandate() {
    remove.mutate(undefined, {
      onSuccess: () => {
        toast({ title: 'Mandate Removed', description: 'Nothing will be charged; auto-refill is off.' });
        onSaved();
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Remove Failed', description: errorMessage(error, 'Could not remove the mandate. Please try again.') }),
    });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    const thresholdRupees = thresholdProblem(threshold) ? DEFAULT_THRESHOLD_RUPEES : Number(threshold.trim());
    if (needsMandate) {
      void authoriseMandate(thresholdRupees);
      return;
    }
    save.mutate(
      { enabled, thresholdRupees, packId: pack },
      {
        onSuccess: () => {
          onSaved();
          const chosen = getTopUpPack(pack)!;
          toast({
            title: 'Auto-refill Saved',
            description: enabled
              ? settings.mode === 'razorpay'
                ? `We'll charge the ${chosen.name} pack to your saved ${settings.mandate?.method === 'upi' ? 'UPI mandate' : 'card'} when your balance falls below ₹${count(thresholdRupees)}.`
                : `We'll send you a bank/UPI request for the ${chosen.name} pack when your balance falls below ₹${count(thresholdRupees)}.`
              : 'Auto-refill is off.',
          });
        },
        onError: (error) => {
          toast({ variant: 'destructive', title: 'Save Failed', description: errorMessage(error, 'Failed to save auto-refill settings. Please try again.') });
        },
      },
    );
  }

  return (
    <FormDialogBody
      title="Auto-refill settings"
      description={settings.mode === 'razorpay' ? 'Choose when to charge your saved card or UPI mandate, and for which pack.' : 'Choose when to get a bank/UPI top-up request, and for which pack.'}
      onSubmit={submit}
      noValidate
      cancelDisabled={busy}
      actions={
        <Button type="submit" disabled={busy || settings.mode === 'unavailable'}>
          {busy && <Spinner label="Saving" className="text-primary-foreground" />}
          {busy ? 'Saving…' : needsMandate ? `Save ${method === 'card' ? 'card' : 'UPI mandate'} and pay ${formatRupees(getTopUpPack(pack)!.amountPaise)}` : 'Save settings'}
        </Button>
      }
    >
      {settings.offReason && (
        <p role="alert" className="flex items-start gap-2 rounded-md bg-destructive/10 p-3 text-sm text-destructive">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Auto-refill was switched off: {settings.offReason} Turning it on again clears this.</span>
        </p>
      )}

      <label htmlFor={enabledId} className="flex cursor-pointer items-start gap-3 rounded-lg border p-3">
        <input
          id={enabledId}
          type="checkbox"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
          className="mt-0.5 size-4 shrink-0 accent-(--color-primary)"
        />
        <span className="space-y-0.5">
          <span className="block text-sm font-medium">Enable auto-refill</span>
          <span className="block text-xs text-muted-foreground">Off by default. You can change this at any time.</span>
        </span>
      </label>

      <div className="space-y-2">
        <Label htmlFor={thresholdId}>Threshold (₹)</Label>
        <Input
          id={thresholdId}
          type="number"
          inputMode="numeric"
          min={MIN_THRESHOLD_RUPEES}
          step={1}
          value={threshold}
          onChange={(e) => setThreshold(e.target.value)}
          onBlur={() => setTouched(true)}
          disabled={!enabled}
          aria-invalid={showProblem ? true : undefined}
          aria-describedby={showProblem ? `${thresholdErrorId} ${thresholdHelpId}` : thresholdHelpId}
        />
        {showProblem && (
          <p id={thresholdErrorId} className="text-sm text-destructive">
            {problem}
          </p>
        )}
        <p id={thresholdHelpId} className="text-xs text-muted-foreground">
          Whole rupees, at least ₹{MIN_THRESHOLD_RUPEES}. The low-balance alert always shows under{' '}
          {formatRupees(LOW_BALANCE_THRESHOLD_PAISE)}.
        </p>
      </div>

      <div className="space-y-2">
        <Label htmlFor={packId}>Pack</Label>
        <select
          id={packId}
          value={pack}
          onChange={(e) => setPack(e.target.value as TopUpPackId)}
          aria-describedby={packHelpId}
          disabled={!enabled}
          className={selectClass}
        >
          {TOP_UP_PACKS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} — {formatRupees(p.amountPaise)}
            </option>
          ))}
        </select>
        <p id={packHelpId} className="text-xs text-muted-foreground">
          {count(getTopUpPack(pack)!.verifications)} verifications.
        </p>
      </div>

      {settings.mode === 'razorpay' && settings.mandate?.status === 'active' && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3 text-sm">
          <span>
            Saved {settings.mandate.method === 'card' ? 'card' : 'UPI mandate'}: <strong>{settings.mandate.label ?? '—'}</strong>
          </span>
          <Button type="button" variant="outline" size="sm" onClick={removeMandate} disabled={busy}>
            Remove
          </Button>
        </div>
      )}
      {needsMandate && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Pay with</legend>
          <div className="flex gap-4 text-sm">
            {(['card', 'upi'] as const).map((m) => (
              <label key={m} htmlFor={`${methodId}-${m}`} className="flex cursor-pointer items-center gap-2">
                <input id={`${methodId}-${m}`} type="radio" name="mandate-method" value={m} checked={method === m} onChange={() => setMethod(m)} className="accent-(--color-primary)" />
                {m === 'card' ? 'Card' : 'UPI Autopay'}
              </label>
            ))}
          </div>
          <p className="text-xs text-muted-foreground">
            Razorpay saves it with your first payment, which buys the chosen pack now. Later charges are made only when your balance crosses the threshold, one at a time.
          </p>
        </fieldset>
      )}

      <p className="flex items-start gap-2 rounded-md bg-muted p-3 text-sm text-muted-foreground">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>{autoRefillModeText(settings.mode, settings.mandate?.method ?? method)}</span>
      </p>
    </FormDialogBody>
  );
}
