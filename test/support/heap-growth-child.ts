// Child process for the heap-growth test, started with --expose-gc --single-threaded-gc
// (marking then runs on this thread only, driven by allocation, so the same churn gives the
// same peak on a loaded machine): applies `applyHeapGrowth(<percent>)`, keeps a live set,
// churns objects that live long enough to reach the old generation and then die there, and
// prints the live set and the highest heap seen, in MB.
import { getHeapStatistics } from 'node:v8';
import { applyHeapGrowth } from '../../host/runtime/heap-growth.js';

const gc = (globalThis as unknown as { gc: () => void }).gc;
applyHeapGrowth(Number(process.argv[2]));
const live: number[][] = [];
for (let i = 0; i < 40_000; i++) live.push(new Array<number>(128).fill(i + 0.5));
const ring = new Array<number[]>(30_000);
let peak = 0;
for (let i = 0; i < 300_000; i++) {
  ring[i % ring.length] = new Array<number>(128).fill(i + 0.5);
  if (i % 250 === 0) peak = Math.max(peak, getHeapStatistics().used_heap_size);
}
gc();
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
process.stdout.write(
  JSON.stringify({ live_mb: mb(getHeapStatistics().used_heap_size), peak_mb: mb(peak), kept: live.length + ring.length }),
);
