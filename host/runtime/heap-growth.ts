import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far the V8 heap grows between full collections: the next one runs once the
 * heap is `percent`% above what the last one kept.
 *
 * Left to itself, V8 grows a busy heap up to fourfold between full collections. Under the
 * webhook load that let 30-35 MB of live objects sit in 130-170 MB of heap, nearly all of
 * it garbage waiting, and put the process over 300 MB resident. At 50% the heap peaked at
 * 80-90 MB (resident 215-230 MB) for no measurable loss of throughput: a full collection
 * of a 35 MB heap takes about 10 ms, mostly incremental, and now comes every second or so
 * instead of every five (docs/performance.md, "Memory under load").
 *
 * V8 reads this flag each time it sets the next collection's limit, so setting it at run
 * time takes effect from the next full collection. It is process-wide: only the process
 * owner (`flowhost serve`, the benchmarks that stand in for it) calls this, never a host
 * embedded in someone else's process.
 */
export function applyHeapGrowth(percent: number): void {
  if (!Number.isSafeInteger(percent) || percent < 0)
    throw new RangeError(`heapGrowingPercent must be a non-negative integer, not ${String(percent)}`);
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
