/**
 * Preloaded into bench servers (`--import ./bench/gc-probe.ts`): counts garbage collections by
 * kind and, on SIGUSR2, writes the running totals to BENCH_GC_FILE, so the bench can take the
 * difference over its measured window (GC counts per request, before/after a change).
 */
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';

const file = process.env.BENCH_GC_FILE;
if (file) {
  const totals = { minor: 0, major: 0, other: 0, ms: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) totals.minor++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) totals.major++;
      else totals.other++;
      totals.ms += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => writeFileSync(file, JSON.stringify(totals)));
}
