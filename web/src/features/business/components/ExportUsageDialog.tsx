import { useId, useState } from 'react';
import { Download } from 'lucide-react';
import { FormDialog, FormDialogBody } from '@/components/FormDialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { usageCsvUrl, type ApiMode } from '../api';
import { last30Days } from '../format';

const DAY_MS = 86_400_000;
/** The server exports at most a year at a time. */
export const MAX_EXPORT_DAYS = 366;

/** Why a from/to pair cannot be exported, or null when it can. */
export function rangeProblem(from: string, to: string): string | null {
  const isDay = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));
  if (!isDay(from) || !isDay(to)) return 'Choose both dates.';
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (span < 1) return '“From” must be on or before “To”.';
  if (span > MAX_EXPORT_DAYS) return 'Export at most one year at a time.';
  return null;
}

export function ExportUsageDialog({ open, onOpenChange, mode = 'live' }: { open: boolean; onOpenChange: (open: boolean) => void; mode?: ApiMode }) {
  return (
    <FormDialog open={open} onOpenChange={onOpenChange}>
      <ExportForm onDone={() => onOpenChange(false)} mode={mode} />
    </FormDialog>
  );
}

function ExportForm({ onDone, mode }: { onDone: () => void; mode: ApiMode }) {
  const fromId = useId();
  const toId = useId();
  const problemId = useId();
  const [range, setRange] = useState(() => last30Days());
  const problem = rangeProblem(range.from, range.to);

  return (
    <FormDialogBody
      title={mode === 'test' ? 'Export Test Usage' : 'Export Usage'}
      description={
        <>
          Download every verification in a date range as CSV: id, time, user, mode, method, purpose, status, cost and
          response time. Days are UTC and both ends are included.
          {mode === 'test' && ' Test mode: only the checks made with your test key (cost 0.00).'}
        </>
      }
      actions={
        // The link stays in the page until the browser has started the download.
        problem ? (
          <Button type="button" disabled>
            <Download aria-hidden="true" />
            Download CSV
          </Button>
        ) : (
          <Button asChild>
            <a href={usageCsvUrl(range.from, range.to, mode)} download onClick={() => setTimeout(onDone, 100)}>
              <Download aria-hidden="true" />
              Download CSV
            </a>
          </Button>
        )
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={fromId}>From</Label>
          <Input
            id={fromId}
            type="date"
            value={range.from}
            max={range.to || undefined}
            onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? problemId : undefined}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor={toId}>To</Label>
          <Input
            id={toId}
            type="date"
            value={range.to}
            min={range.from || undefined}
            onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? problemId : undefined}
          />
        </div>
      </div>
      {problem && (
        <p id={problemId} role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
    </FormDialogBody>
  );
}
