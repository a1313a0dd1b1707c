// Child process for the heap-growth test: applies `applyHeapGrowth(<percent>)` (unless no
// argument is given), keeps a live set, churns through objects that survive scavenges and
// then die (what a server's in-flight requests look like to the collector), and prints
// {"majors": full collections, "peakMb": largest heap seen} (the peak for the record only).
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { applyHeapGrowth } from '../../host/runtime/heap-growth.js';

const percent = process.argv[2];
if (percent !== undefined) applyHeapGrowth(Number(percent));
let majors = 0;
let peak = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
}).observe({ entryTypes: ['gc'] });
const live: Array<{ i: number; s: string }> = [];
for (let i = 0; i < 600_000; i++) live.push({ i, s: `x${i}` });
const ring = new Array<{ i: number; s: string }>(300_000);
for (let i = 0; i < 12_000_000; i++) {
  ring[i % ring.length] = { i, s: `y${i}` };
  if (i % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
}
// Let the observer deliver the last entries.
await new Promise((resolve) => setTimeout(resolve, 20));
process.stdout.write(`${JSON.stringify({ majors, peakMb: Math.round(peak / 1048576), live: live.length })}\n`);
