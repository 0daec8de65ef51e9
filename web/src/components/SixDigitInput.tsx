import { cn } from '@/lib/utils';

/** A code from an authenticator app: digits only, six at most (SPEC §5), filled by the OS's one-time-code autofill. */
export function SixDigitInput({
  id,
  value,
  onChange,
  autoFocus,
  invalid,
  describedBy,
  className,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
  invalid?: boolean;
  describedBy?: string;
  className?: string;
}) {
  return (
    <input
      id={id}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      autoFocus={autoFocus}
      maxLength={6}
      value={value}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, 6))}
      className={cn(
        'h-12 w-full max-w-[13rem] rounded-md border border-input bg-background px-3 text-center font-mono text-2xl tracking-[0.4em] shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-invalid:border-destructive',
        className,
      )}
    />
  );
}
