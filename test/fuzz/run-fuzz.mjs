#!/usr/bin/env node
// Runs the compiled fuzz suites (dist/test/fuzz/*.test.js) one after the other, with no
// time limit, and ends with a summary per store: requests sent, 5xx answers, crashes,
// requests without an answer, malformed answers, distinct failures, duration.
//
//   npm run fuzz                                  default budget (4000 requests per store)
//   npm run fuzz -- --runs 20000                  FUZZ_RUNS=20000 for the suites
//   npm run fuzz -- --seed 42 --keep-going        a fixed seed; record every failure, do not stop
//   npm run fuzz -- --only 'POST /api/automation/v1/flows' --seed 42 --path '12:0:1'
//                                                 replay one property's counterexample
//   npm run fuzz -- --routes-only                 skip the regression suite
//
// MONGODB_URL set: every suite also runs on MongoDB (see test/support/test-stores.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const args = process.argv.slice(2);
const env = { ...process.env };
let routesOnly = false;

function value(i, flag) {
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) {
    console.error(`run-fuzz: ${flag} needs a value`);
    process.exit(2);
  }
  return v;
}

for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
  const take = () => inline ?? value(i++, flag);
  if (flag === '--runs') env.FUZZ_RUNS = take();
  else if (flag === '--seed') env.FUZZ_SEED = take();
  else if (flag === '--only') env.FUZZ_ONLY = take();
  else if (flag === '--path') env.FUZZ_PATH = take();
  else if (flag === '--keep-going') env.FUZZ_KEEP_GOING = '1';
  else if (flag === '--routes-only') routesOnly = true;
  else {
    console.error(`run-fuzz: unknown argument '${arg}' (--runs N, --seed S, --keep-going, --only TEXT, --path P, --routes-only)`);
    process.exit(2);
  }
}
// The deep run's budget (npm test's own default is smaller: fuzz-config.ts).
env.FUZZ_RUNS ??= '4000';
if (env.FUZZ_RUNS !== undefined && !/^\d+$/.test(env.FUZZ_RUNS)) {
  console.error(`run-fuzz: --runs must be a positive integer, got '${env.FUZZ_RUNS}'`);
  process.exit(2);
}

const suites = ['routes.fuzz.test.js', 'routes-mongo.fuzz.test.js', ...(routesOnly || env.FUZZ_ONLY ? [] : ['regressions.test.js'])].map(
  (f) => join(root, 'dist/test/fuzz', f),
);
const missing = suites.filter((f) => !existsSync(f));
if (missing.length) {
  console.error(`run-fuzz: not built: ${missing.join(', ')} (run npm run build)`);
  process.exit(2);
}

const summaries = [];
const results = [];

function run(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--enable-source-maps', file], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = '';
    let all = '';
    let lingerTimer;
    let lingered = false;
    const onOut = (chunk) => {
      process.stdout.write(chunk);
      all += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const at = line.indexOf('FUZZ_SUMMARY ');
        if (at >= 0) summaries.push(JSON.parse(line.slice(at + 'FUZZ_SUMMARY '.length)));
        // The suites exit by themselves; should a timer keep one alive after uvu's summary, stop it.
        if (/Duration:/.test(line) && !lingerTimer) {
          lingerTimer = setTimeout(() => {
            lingered = true;
            child.kill('SIGKILL');
          }, 10_000);
        }
      }
    };
    child.stdout.on('data', (d) => onOut(String(d)));
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code, signal) => {
      clearTimeout(lingerTimer);
      // uvu's own count decides when the process had to be stopped after its summary.
      const text = all.replace(/\x1b\[[0-9;]*m/g, '');
      const num = (label) => [...text.matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'gm'))].reduce((sum, m) => sum + Number(m[1]), 0);
      const uvuOk = num('Total') > 0 && num('Total') === num('Passed') + num('Skipped');
      results.push({ file, ok: code === 0 || (lingered && uvuOk), code, signal, secs: (Date.now() - started) / 1000 });
      resolve();
    });
  });
}

for (const file of suites) await run(file);

console.log('\n=== fuzz summary ===');
if (!summaries.length) console.log('no FUZZ_SUMMARY line: the route suite did not get as far as its report');
for (const s of summaries) {
  console.log(
    `${s.store.padEnd(9)} ${String(s.requests).padStart(7)} requests  ${String(s.server_errors).padStart(4)} 5xx  ${String(s.crashes).padStart(4)} crashes  ${String(s.no_answer).padStart(4)} unanswered  ${String(s.malformed).padStart(4)} malformed  ${String(s.distinct_failures).padStart(4)} distinct failures  ${(s.ms / 1000).toFixed(1)} s  (seed ${s.seed})`,
  );
  for (const f of s.failures) console.log(`    ✗ ${f.signature} (${f.seen}x)\n        ${f.input}`);
}
for (const r of results)
  console.log(
    `${r.ok ? 'ok  ' : 'FAIL'} ${r.file.slice(root.length)} (${r.secs.toFixed(1)} s${r.ok ? '' : `, exit ${r.code ?? r.signal}`})`,
  );
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
