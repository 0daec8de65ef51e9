import { useState } from 'react';
import { ArrowRight, Info } from 'lucide-react';
import { useNavigate } from 'react-router';
import {
  MIN_PAYMENT_PAISE,
  PAISE_PER_VERIFICATION,
  TOP_UP_PACKS,
  formatRupees,
  getTopUpPack,
  type TopUpPackId,
} from '@common/pricing';
import { Badge } from '@/components/ui/badge';
import { FormDialog, FormDialogBody } from '@/components/FormDialog';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { balanceRupees, count } from '../format';

/** Where a chosen pack is paid for (bank/UPI top-up page, payments issue). */
export function addCreditsUrl(packId: TopUpPackId): string {
  return `/business/add-credits?pack=${encodeURIComponent(packId)}`;
}

function defaultPack(preferred?: string | null): TopUpPackId {
  return (preferred && getTopUpPack(preferred)?.id) || TOP_UP_PACKS.find((p) => p.popular)?.id || TOP_UP_PACKS[0]!.id;
}

interface AddCreditsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  balancePaise: number;
  preferredPack?: string | null;
}

export function AddCreditsDialog({ open, onOpenChange, balancePaise, preferredPack }: AddCreditsDialogProps) {
  return (
    // Remounted on every open, so the selection starts from the preferred pack.
    <FormDialog open={open} onOpenChange={onOpenChange} className="sm:max-w-xl">
      <AddCreditsForm balancePaise={balancePaise} preferredPack={preferredPack} />
    </FormDialog>
  );
}

function AddCreditsForm({ balancePaise, preferredPack }: { balancePaise: number; preferredPack?: string | null }) {
  const navigate = useNavigate();
  const [packId, setPackId] = useState<TopUpPackId>(() => defaultPack(preferredPack));
  const pack = getTopUpPack(packId)!;

  return (
    <FormDialogBody
      title="Add Credits"
      description={
        <>
          Current balance {balanceRupees(balancePaise)}. 1 credit = {formatRupees(PAISE_PER_VERIFICATION)} = one
          verification, at every pack size.
        </>
      }
      actions={
        <Button type="button" onClick={() => void navigate(addCreditsUrl(pack.id))}>
          Continue with {pack.name} · {formatRupees(pack.amountPaise)}
          <ArrowRight aria-hidden="true" />
        </Button>
      }
    >
      <fieldset className="grid grid-cols-2 gap-3">
        <legend className="sr-only">Top-up pack</legend>
        {TOP_UP_PACKS.map((p) => (
          <label
            key={p.id}
            className={cn(
              'relative flex cursor-pointer flex-col gap-1 rounded-lg border p-3 transition-colors hover:bg-accent/50 sm:p-4',
              'has-[input:checked]:border-primary has-[input:checked]:bg-primary/5 has-[input:checked]:ring-1 has-[input:checked]:ring-primary',
              'has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring',
            )}
          >
            <input
              type="radio"
              name="pack"
              value={p.id}
              checked={packId === p.id}
              onChange={() => setPackId(p.id)}
              className="sr-only"
            />
            <span className="flex flex-wrap items-center justify-between gap-1">
              <span className="font-semibold">{p.name}</span>
              {p.popular && <Badge>Popular</Badge>}
            </span>
            <span className="text-xl font-semibold tracking-tight tabular-nums sm:text-2xl">{formatRupees(p.amountPaise)}</span>
            <span className="text-xs font-medium sm:text-sm">{count(p.verifications)} verifications</span>
            <span className="hidden text-xs text-muted-foreground sm:block">{p.description}</span>
          </label>
        ))}
      </fieldset>
      <p className="flex items-start gap-2 rounded-md bg-muted p-3 text-sm text-muted-foreground">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          Next you pay by bank transfer or UPI with the reference we give you; a financial manager checks it within
          2–4 business hours (Mon–Fri 9 AM–6 PM IST). Minimum payment {formatRupees(MIN_PAYMENT_PAISE)}.
        </span>
      </p>
    </FormDialogBody>
  );
}
