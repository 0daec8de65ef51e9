import { Link } from 'react-router';
import { cn } from '@/lib/utils';

/** The Sixdigit mark: six dots, one per digit of a code, on the brand colour. */
const DOTS = [
  [9, 12],
  [16, 12],
  [23, 12],
  [9, 20],
  [16, 20],
  [23, 20],
] as const;

export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={cn('size-7 shrink-0', className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      {DOTS.map(([cx, cy]) => (
        <circle key={`${cx}-${cy}`} cx={cx} cy={cy} r="2.6" className="fill-primary-foreground" />
      ))}
    </svg>
  );
}

export function Brand({
  to,
  suffix,
  className,
}: {
  to: string;
  /** Shown after the name, e.g. "Enterprise". */
  suffix?: string;
  className?: string;
}) {
  return (
    <Link
      to={to}
      className={cn(
        'flex shrink-0 items-center gap-2 rounded-md font-semibold tracking-tight focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        className,
      )}
    >
      <BrandMark />
      <span className="text-lg">Sixdigit</span>
      {suffix && (
        <span className="hidden rounded-md bg-primary/10 px-1.5 py-0.5 text-xs font-medium text-primary sm:inline">
          {suffix}
        </span>
      )}
    </Link>
  );
}
