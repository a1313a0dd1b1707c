// npm run bench [-- name...] [--json] [--docs N]
//   node dist/bench/run.js                 every registered benchmark, as a table
//   node dist/bench/run.js store --json    one JSON object per benchmark per line
//   --docs N (or BENCH_DOCS=N)             a smaller (or larger) data set
// Exit code 1 when a benchmark misses one of its targets, 2 on bad arguments, 3 when a
// benchmark breaks. BENCH_SMOKE=1: each runs for a second or so (CI keeps them alive).
import { logsBench } from './logs.js';
import { triggerBench } from './trigger.js';
import { storeBench, type BenchOptions, type BenchResult } from './store.js';
import { executeBench, runsBench } from './runs.js';
import { startupBench } from './startup.js';
import { eventsBench } from './events.js';
import { schedulerBench } from './scheduler.js';
import { workersBench } from './workers.js';
import { retentionBench } from './retention.js';
import { recoveryBench } from './recovery.js';

const benchmarks: Record<string, (options: BenchOptions) => Promise<BenchResult>> = {
  store: storeBench,
  logs: logsBench,
  trigger: triggerBench,
  runs: runsBench,
  execute: executeBench,
  startup: startupBench,
  events: eventsBench,
  scheduler: schedulerBench,
  workers: workersBench,
  retention: retentionBench,
  recovery: recoveryBench,
};

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function parseArgs(args: string[]): { names: string[]; json: boolean; docs?: number } {
  const names: string[] = [];
  let json = false;
  let docsText = process.env.BENCH_DOCS;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--docs') docsText = args[++i];
    else if (arg.startsWith('--docs=')) docsText = arg.slice('--docs='.length);
    else if (arg.startsWith('--')) fail(`Unknown option ${arg} (known: --json, --docs N)`);
    else names.push(arg);
  }
  const unknown = names.filter((n) => !Object.hasOwn(benchmarks, n));
  if (unknown.length) fail(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benchmarks).join(', ')}`);
  if (docsText === undefined || docsText === '') return { names, json };
  const docs = Number(docsText);
  if (!Number.isInteger(docs) || docs <= 0) fail('--docs (or BENCH_DOCS) must be a positive integer');
  return { names, json, docs };
}

function printTable(result: BenchResult): void {
  process.stdout.write(`\n${result.name} ${JSON.stringify(result.params)}\n`);
  const rows = Object.entries(result.metrics).map(([metric, value]) => {
    const target = result.targets[metric];
    return [
      metric,
      String(value),
      target ? `target ${target.atLeast ? '>=' : '<'} ${target.limit}: ${target.pass ? 'pass' : 'MISS'}` : '',
    ] as const;
  });
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [metric, value, target] of rows) process.stdout.write(`  ${metric.padEnd(width)}  ${value.padStart(12)}  ${target}\n`);
}

const { names, json, docs } = parseArgs(process.argv.slice(2));
let missed = false;
for (const name of names.length ? names : Object.keys(benchmarks)) {
  let result: BenchResult;
  try {
    result = await benchmarks[name]!({ docs, progress: (line) => process.stderr.write(`[${name}] ${line}\n`) });
  } catch (error) {
    // A benchmark that breaks is not a missed target: exit 3, naming it.
    process.stderr.write(`benchmark ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(3);
  }
  missed ||= Object.values(result.targets).some((t) => !t.pass);
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else printTable(result);
}
// Agenda's watchdog leaves a timer behind stopped hosts (docs/architecture.md): exit explicitly.
process.exit(missed ? 1 : 0);
