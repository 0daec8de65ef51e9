import { TOP_UP_PACKS, formatCountIndian, formatRupees, type TopUpPackId } from '@common/pricing';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

/** Accessible name of a pack's radio button, e.g. "Basic: ₹5,000 for 50,000 verifications". */
export function packLabel(packId: string): string {
  const pack = TOP_UP_PACKS.find((p) => p.id === packId);
  return pack ? `${pack.name}: ${formatRupees(pack.amountPaise)} for ${formatCountIndian(pack.verifications)} verifications` : packId;
}

interface PackPickerProps {
  name: string;
  value: TopUpPackId;
  onChange: (id: TopUpPackId) => void;
  legend?: string;
}

/** The four top-up packs as a radio group (SPEC §9). */
export function PackPicker({ name, value, onChange, legend = 'Choose a top-up pack' }: PackPickerProps) {
  return (
    <fieldset className="space-y-2">
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <div className="grid grid-cols-2 gap-2 sm:gap-3 lg:grid-cols-4">
        {TOP_UP_PACKS.map((pack) => (
          <label
            key={pack.id}
            className={cn(
              'relative flex cursor-pointer flex-col gap-0.5 rounded-lg border p-3 transition-colors hover:bg-accent/50',
              'has-[input:checked]:border-primary has-[input:checked]:bg-primary/5 has-[input:checked]:ring-1 has-[input:checked]:ring-primary',
              'has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring',
            )}
          >
            <input
              type="radio"
              name={name}
              value={pack.id}
              checked={value === pack.id}
              onChange={() => onChange(pack.id)}
              aria-label={packLabel(pack.id)}
              className="sr-only"
            />
            <span className="flex items-center justify-between gap-2 text-sm font-medium">
              {pack.name}
              {pack.popular && (
                <Badge variant="secondary" className="text-[10px]">
                  Popular
                </Badge>
              )}
            </span>
            <span className="text-lg font-semibold tabular-nums">{formatRupees(pack.amountPaise)}</span>
            <span className="text-xs text-muted-foreground tabular-nums">{formatCountIndian(pack.verifications)} verifications</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
