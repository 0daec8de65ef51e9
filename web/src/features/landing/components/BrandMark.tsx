import { cn } from '@/lib/utils';

/** Sixdigit's mark: six dots, one per digit of a code, on the brand colour. */
export function BrandMark({ className }: { className?: string }) {
  const dots = [
    [9, 12],
    [16, 12],
    [23, 12],
    [9, 20],
    [16, 20],
    [23, 20],
  ] as const;
  return (
    <svg
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      className={cn('size-8 shrink-0 text-primary', className)}
    >
      <rect width="32" height="32" rx="8" fill="currentColor" />
      {dots.map(([cx, cy]) => (
        <circle key={`${cx}-${cy}`} cx={cx} cy={cy} r="2.6" className="fill-primary-foreground" />
      ))}
    </svg>
  );
}
