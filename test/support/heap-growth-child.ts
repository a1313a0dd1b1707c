// Child process for the heap-growth test, started with --expose-gc --trace-gc-verbose:
// applies `applyHeapGrowth(<percent>)` and runs one full collection, after which V8 sets
// the next collection's limit and, with the trace on, prints the growing factor it used.
import { applyHeapGrowth } from '../../host/runtime/heap-growth.js';

applyHeapGrowth(Number(process.argv[2]));
(globalThis as unknown as { gc: () => void }).gc();
