/**
 * Preloaded into bench servers (bench/run.ts bundles it to dist/bench/gc-probe.js and passes `--import`): counts garbage collections by
 * kind and, on SIGUSR2, writes the running totals to BENCH_GC_FILE, so the bench can take the
 * difference over its measured window (GC counts per request, before/after a change).
 * With BENCH_HEAP_PROF=1 it also samples allocations over that window — garbage included, which
 * is what the young generation's scavenges cost — and writes a .heapprofile (Chrome DevTools)
 * to bench/results/profiles/; with BENCH_HEAP_PROF=survivors, only the allocations that outlived
 * a young-generation collection.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
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
  let signals = 0;
  const session = process.env.BENCH_HEAP_PROF ? new Session() : undefined;
  // `survivors`: only what outlived a young-generation collection, i.e. what is promoted and so
  // brings on the old generation's collections (whose pauses make the open loop's tail).
  const survivorsOnly = process.env.BENCH_HEAP_PROF === 'survivors';
  session?.connect();
  process.on('SIGUSR2', () => {
    signals++;
    if (session && signals === 1) {
      session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !survivorsOnly });
    } else if (session && signals === 2) {
      session.post('HeapProfiler.stopSampling', (err, result) => {
        if (err) return;
        mkdirSync('bench/results/profiles', { recursive: true });
        writeFileSync(`bench/results/profiles/heap-${process.pid}.heapprofile`, JSON.stringify(result.profile));
      });
    }
    writeFileSync(file, JSON.stringify(totals));
  });
}
