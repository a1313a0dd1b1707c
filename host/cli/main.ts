#!/usr/bin/env node
/**
 * The `flowhost` executable. On Node 22.1+ the module compile cache (V8 code cache on disk)
 * is switched on before anything else loads, which roughly halves the time a command spends
 * loading modules after its first run; on Node 20 the call does not exist and is skipped.
 * Everything else is in run-cli.ts, imported after the cache is on.
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./run-cli.js');
await main();
