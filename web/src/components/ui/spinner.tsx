import * as React from 'react';
import { Loader2Icon } from 'lucide-react';
import { cn } from '@/lib/utils';

export interface SpinnerProps extends React.ComponentProps<'svg'> {
  /** Accessible name announced to screen readers. */
  label?: string;
}

export function Spinner({ className, label = 'Loading', ...props }: SpinnerProps) {
  return (
    <Loader2Icon
      role="status"
      aria-label={label}
      className={cn('size-4 animate-spin text-muted-foreground', className)}
      {...props}
    />
  );
}

/** A spinner centred in the available space, for whole-page loading states. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex flex-1 items-center justify-center p-10">
      <Spinner label={label} className="size-8 text-primary" />
    </div>
  );
}
