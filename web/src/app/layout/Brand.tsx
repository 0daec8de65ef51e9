import { Link } from 'react-router';
import { cn } from '@/lib/utils';

/** The Sixdigit mark: a shield holding three dots (six digits, two groups of three). */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-7 shrink-0', className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path
        d="M16 6.5 8.5 9.5v6c0 4.6 3.1 8.6 7.5 10 4.4-1.4 7.5-5.4 7.5-10v-6z"
        fill="none"
        className="stroke-primary-foreground"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <g className="fill-primary-foreground">
        <circle cx="12.5" cy="15.5" r="1.4" />
        <circle cx="16" cy="15.5" r="1.4" />
        <circle cx="19.5" cy="15.5" r="1.4" />
      </g>
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
        <span className="rounded-md bg-primary/10 px-1.5 py-0.5 text-xs font-medium text-primary">{suffix}</span>
      )}
    </Link>
  );
}
