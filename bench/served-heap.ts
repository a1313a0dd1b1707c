import { loadConfig } from '../host/config/load-config.js';
import { applyHeapGrowth } from '../host/runtime/heap-growth.js';

/**
 * The heap `flowhost serve` would run with here: its heap growth between full collections
 * (FLOWHOST_HEAP_GROWING_PERCENT or the config file, else the default). The benchmarks
 * host in their own process, so without this they would measure V8's looser default,
 * which a served host does not use. Answers the percent, for the record.
 */
export function servedHeap(): number {
  const { heapGrowingPercent } = loadConfig();
  applyHeapGrowth(heapGrowingPercent);
  return heapGrowingPercent;
}
