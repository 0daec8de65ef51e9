import { FlaskConical } from 'lucide-react';
import { cn } from '@/lib/utils';
import type { ApiMode } from '../api';

const MODES: Array<{ mode: ApiMode; label: string }> = [
  { mode: 'live', label: 'Live' },
  { mode: 'test', label: 'Test' },
];

/**
 * Live / Test: which key the API card shows and which data the statistics, lists, webhooks and
 * export read. A pair of radio buttons (one choice of two), so arrow keys and screen readers work.
 */
export function ModeSwitch({ mode, onChange, label = 'Data and keys shown', className }: { mode: ApiMode; onChange: (mode: ApiMode) => void; label?: string; className?: string }) {
  return (
    <div role="radiogroup" aria-label={label} className={cn('inline-flex rounded-lg border bg-muted/50 p-0.5', className)}>
      {MODES.map(({ mode: value, label: text }) => {
        const checked = value === mode;
        return (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            onClick={() => onChange(value)}
            onKeyDown={(e) => {
              if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) {
                e.preventDefault();
                onChange(mode === 'live' ? 'test' : 'live');
                (e.currentTarget.parentElement?.querySelector(`[data-mode="${mode === 'live' ? 'test' : 'live'}"]`) as HTMLElement | null)?.focus();
              }
            }}
            data-mode={value}
            className={cn(
              'inline-flex min-h-9 items-center gap-1.5 rounded-md px-3 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
              checked
                ? value === 'test'
                  ? 'bg-warning text-warning-foreground shadow-sm'
                  : 'bg-background text-foreground shadow-sm'
                : 'text-muted-foreground hover:text-foreground',
            )}
          >
            {value === 'test' && <FlaskConical className="size-4" aria-hidden="true" />}
            {text}
          </button>
        );
      })}
    </div>
  );
}

/** Shown above the dashboard while test data is on screen, so nobody mistakes it for live traffic. */
export function TestModeBanner({ onLeave }: { onLeave: () => void }) {
  return (
    <div role="status" className="flex flex-col gap-2 rounded-xl border-2 border-dashed border-warning bg-warning/10 p-4 text-sm sm:flex-row sm:items-center sm:justify-between" data-testid="test-mode-banner">
      <p className="flex items-start gap-2">
        <FlaskConical className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
        <span>
          <strong>Test mode.</strong> You are viewing test data: calls made with your <code className="font-mono">sk_test_</code> key. They
          are free, never touch your balance and are kept apart from live users, checks and webhooks.
        </span>
      </p>
      <button type="button" onClick={onLeave} className="self-start rounded-md px-2 py-1 font-medium text-primary underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none sm:self-auto">
        View live data
      </button>
    </div>
  );
}
