import { useId, useState, type FormEvent } from 'react';
import { Info } from 'lucide-react';
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
import { useUpdateAutoRefill, type AutoRefillSettings } from '../api';
import { count } from '../format';

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

/** "On · below ₹500 → Basic" / "Off" for the quick-actions card. */
export function autoRefillSummary(settings: AutoRefillSettings): string {
  if (!settings.enabled) return 'Off';
  const pack = settings.packId ? getTopUpPack(settings.packId) : undefined;
  const threshold = settings.thresholdPaise !== null ? formatRupees(settings.thresholdPaise) : '—';
  return `On · below ${threshold}${pack ? ` → ${pack.name} pack` : ''}`;
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
  const save = useUpdateAutoRefill();
  const [enabled, setEnabled] = useState(settings.enabled);
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

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    const thresholdRupees = thresholdProblem(threshold) ? DEFAULT_THRESHOLD_RUPEES : Number(threshold.trim());
    save.mutate(
      { enabled, thresholdRupees, packId: pack },
      {
        onSuccess: () => {
          onSaved();
          const chosen = getTopUpPack(pack)!;
          toast({
            title: 'Auto-refill Saved',
            description: enabled
              ? `We'll remind you to buy the ${chosen.name} pack when your balance falls below ₹${count(thresholdRupees)}.`
              : 'Auto-refill reminders are off.',
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
      description="Choose when to be reminded to top up, and with which pack."
      onSubmit={submit}
      noValidate
      cancelDisabled={save.isPending}
      actions={
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Spinner label="Saving" className="text-primary-foreground" />}
          {save.isPending ? 'Saving…' : 'Save settings'}
        </Button>
      }
    >

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

      <p className="flex items-start gap-2 rounded-md bg-muted p-3 text-sm text-muted-foreground">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          These settings drive the low-credit reminder: when your balance falls below the threshold, you are reminded
          to top up with this pack. Nothing is charged automatically — top-ups are paid by bank transfer or UPI.
        </span>
      </p>
    </FormDialogBody>
  );
}
