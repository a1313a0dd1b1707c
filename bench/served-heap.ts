import { defaultConfig } from '../host/config/schema.js';
import { applyHeapGrowth } from '../host/runtime/heap-growth.js';

/**
 * The heap `flowhost serve` runs with: its default heap growth between full collections.
 * The benchmarks host in their own process, so without this they would measure V8's
 * looser default, which a served host does not use. Answers the percent, for the record.
 */
export function servedHeap(): number {
  applyHeapGrowth(defaultConfig.heapGrowingPercent);
  return defaultConfig.heapGrowingPercent;
}
