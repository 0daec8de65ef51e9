import { useId } from 'react';
import { Download, KeyRound, Plus, RefreshCcw } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { TOP_UP_PACKS, formatRupees } from '@common/pricing';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import type { AutoRefillSettings } from '../api';
import { autoRefillSummary } from './AutoRefillDialog';

export type QuickAction = 'credits' | 'regenerate' | 'export' | 'refill';

function ActionButton({ icon: Icon, title, detail, onClick }: { icon: LucideIcon; title: string; detail: string; onClick: () => void }) {
  const titleId = useId();
  const detailId = useId();
  return (
    <button
      type="button"
      onClick={onClick}
      aria-labelledby={titleId}
      aria-describedby={detailId}
      className="flex w-full items-center gap-3 rounded-lg border bg-background p-3 text-left transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <span className="min-w-0">
        <span id={titleId} className="block text-sm font-medium">
          {title}
        </span>
        <span id={detailId} className="block truncate text-xs text-muted-foreground">
          {detail}
        </span>
      </span>
    </button>
  );
}

export function QuickActions({ autoRefill, onAction }: { autoRefill: AutoRefillSettings; onAction: (action: QuickAction) => void }) {
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Quick actions</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        <ActionButton icon={Plus} title="Add Credits" detail={`Top-up packs from ${formatRupees(Math.min(...TOP_UP_PACKS.map((p) => p.amountPaise)))}`} onClick={() => onAction('credits')} />
        <ActionButton icon={KeyRound} title="Regenerate API Key" detail="Revokes the current key at once" onClick={() => onAction('regenerate')} />
        <ActionButton icon={Download} title="Export Usage" detail="CSV of verifications by date" onClick={() => onAction('export')} />
        <ActionButton icon={RefreshCcw} title="Auto-refill" detail={autoRefillSummary(autoRefill)} onClick={() => onAction('refill')} />
      </CardContent>
    </Card>
  );
}
