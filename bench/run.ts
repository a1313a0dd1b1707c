// npm run bench [-- name... ] [--json] [--docs N]
// Runs the named benchmarks (all when none named): a table for people, or one JSON
// object per benchmark per line with --json.
import { storeBench, type BenchResult } from './store.js';

const benchmarks: Record<string, (opts: { docs?: number; progress: (line: string) => void }) => Promise<BenchResult>> = {
  store: storeBench,
};

const args = process.argv.slice(2);
const json = args.includes('--json');
const docsFlag = args.indexOf('--docs');
const docs = docsFlag >= 0 ? Number(args[docsFlag + 1]) : process.env.BENCH_DOCS ? Number(process.env.BENCH_DOCS) : undefined;
const names = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--docs');
const unknown = names.filter((n) => !benchmarks[n]);
if (unknown.length) {
  process.stderr.write(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benchmarks).join(', ')}\n`);
  process.exit(2);
}
if (docs !== undefined && !(Number.isInteger(docs) && docs > 0)) {
  process.stderr.write('--docs must be a positive integer\n');
  process.exit(2);
}

let failed = false;
for (const name of names.length ? names : Object.keys(benchmarks)) {
  const result = await benchmarks[name]!({ docs, progress: (line) => process.stderr.write(`[${name}] ${line}\n`) });
  failed ||= Object.values(result.targets).some((t) => !t.pass);
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    continue;
  }
  process.stdout.write(`\n${result.name} ${JSON.stringify(result.params)}\n`);
  const rows = Object.entries(result.metrics).map(([metric, value]) => {
    const target = result.targets[metric];
    return [metric, String(value), target ? `< ${target.limit} ${target.pass ? 'pass' : 'MISS'}` : ''];
  });
  const width = Math.max(...rows.map((r) => r[0]!.length));
  for (const [metric, value, target] of rows) process.stdout.write(`  ${metric!.padEnd(width)}  ${value!.padStart(10)}  ${target}\n`);
}
process.exitCode = failed ? 1 : 0;
