// Workers benchmark: `flowhost serve --workers 1` against `--workers 2` on MongoDB (the
// built CLI, real processes, one fresh database each), POST /trigger/{flow_id} on an HMAC
// flow driven by autocannon at 100 connections, as bench/trigger.ts does in-process. The
// figure is the ratio of the two throughputs; with it, the CPU the serving processes
// spent per accepted request (steadier than req/s on a shared machine). Target: every
// request accepted (no non-2xx, no errors); the ratio is recorded, not held to a number,
// since on a 2-core machine the load generator and the database share the cores.
// Needs MONGODB_URL (e.g. the stand-in server, test/support/mongo-server). Without it the
// benchmark reports `skipped: 1` and passes, so `npm run bench` works on a machine without
// MongoDB (CI's smoke run passes no MONGODB_URL: it only keeps the skip path alive).
// BENCH_SECONDS (default 10; 1 under BENCH_SMOKE=1) is the length of each measured run.
import autocannon from 'autocannon';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readHostFile } from '../host/runtime/data-dir-files.js';
import type { BenchOptions, BenchResult } from './store.js';

const root = resolve(new URL('../..', import.meta.url).pathname);
const cli = join(root, 'dist/bundle/main.js');
const CONNECTIONS = 100;
const SECRET = 'bench-secret-0123456789abcdef';
const BODY = JSON.stringify({ event: 'push', repository: { full_name: 'acme/site' }, commits: [{ id: 'abc123', message: 'Update post' }] });
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const round = (n: number) => Math.round(n * 1000) / 1000;

/** The same server, a database of its own (the URL's path names the database). */
function freshDatabase(url: string): string {
  return url.replace(/^(mongodb(?:\+srv)?:\/\/[^/?#]*)(\/[^?#]*)?/i, `$1/flowhost_bench_workers_${randomBytes(6).toString('hex')}`);
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['--ppid', String(pid), '-o', 'pid='], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** CPU ms (user + system) a process has used so far, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

type Served = { child: ChildProcess; url: string; token: string; dir: string };

async function serve(workers: number, mongoUrl: string): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-bench-workers-'));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    MONGODB_URL: freshDatabase(mongoUrl),
    FLOWHOST_DATA_DIR: dir,
    FLOWHOST_SECRET_KEY: 'ab'.repeat(32),
    FLOWHOST_LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, [cli, 'serve', '--workers', String(workers), '--port', '0'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const info = readHostFile(dir);
    const ok = info
      ? await fetch(`${info.url}/healthz`).then(
          (r) => r.status === 200,
          () => false,
        )
      : false;
    // --workers 1 is the plain host in this process; N > 1 is a primary with N children.
    if (info && ok && childrenOf(child.pid!).length === (workers > 1 ? workers : 0))
      return { child, url: info.url, token: info.token, dir };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`flowhost serve --workers ${workers} did not start: ${stderr.slice(-2000)}`);
    await sleep(100);
  }
}

async function stop(served: Served): Promise<void> {
  if (served.child.exitCode === null) {
    const exited = new Promise<void>((done) => served.child.once('exit', () => done()));
    served.child.kill('SIGTERM');
    await exited;
  }
  rmSync(served.dir, { recursive: true, force: true });
}

/** A one-step flow (no handler: its run ends at once) with an HMAC trigger and no rate limit. */
async function triggerFlow(served: Served): Promise<string> {
  const api = `${served.url}/api/automation/v1`;
  const headers = { Authorization: `Flowhost-Local ${served.token}`, 'Content-Type': 'application/json' };
  const call = async <T>(method: string, path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${api}${path}`, { method, headers, body: JSON.stringify(body) });
    const parsed = (await response.json()) as T;
    if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(parsed)}`);
    return parsed;
  };
  const pipelineId = (
    await call<{ data: { pipeline_id: number } }>('POST', '/pipelines', { pipeline_name: 'Bench', steps: [{ step_type: 'fetch' }] })
  ).data.pipeline_id;
  const flowId = (await call<{ data: { flow_id: number } }>('POST', '/flows', { pipeline_id: pipelineId, flow_name: 'Bench flow' })).data
    .flow_id;
  const template = {
    mode: 'hmac',
    algo: 'sha256',
    signed_template: '{body}',
    signature_source: { header: 'X-Signature', extract: { kind: 'prefix', key: 'sha256=' }, encoding: 'hex' },
  };
  await call('PUT', `/flows/${flowId}/webhook`, { mode: 'hmac', template, secret: SECRET });
  await call('PUT', `/flows/${flowId}/webhook/rate-limit`, { max: 100000, window_seconds: 1 });
  return `${api}/trigger/${flowId}`;
}

type Run = { reqPerSec: number; p50: number; p99: number; ok: number; failures: number; cpuMsPerRequest: number };

async function measure(workers: number, mongoUrl: string, seconds: number, log: (line: string) => void): Promise<Run> {
  const served = await serve(workers, mongoUrl);
  try {
    const url = await triggerFlow(served);
    const headers = {
      'Content-Type': 'application/json',
      'X-Signature': `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}`,
    };
    const load = (duration: number) =>
      autocannon({ url, method: 'POST', headers, body: BODY, connections: CONNECTIONS, duration, workers: 1 });
    // A warm-up: every worker has JIT-compiled the path and holds its connections.
    await load(Math.max(1, Math.round(seconds / 3)));
    const pids = [served.child.pid!, ...childrenOf(served.child.pid!)];
    const cpuBefore = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const result = await load(seconds);
    const cpu = pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - cpuBefore;
    const run = {
      reqPerSec: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      ok: result['2xx'],
      failures: result.non2xx + result.errors + result.timeouts,
      cpuMsPerRequest: round(cpu / Math.max(1, result['2xx'])),
    };
    log(
      `--workers ${workers}: ${run.reqPerSec} req/s, p99 ${run.p99} ms, ${run.cpuMsPerRequest} CPU ms per request, ${run.failures} failed`,
    );
    return run;
  } finally {
    await stop(served);
  }
}

export async function workersBench(options: BenchOptions = {}): Promise<BenchResult> {
  const log = options.progress ?? (() => undefined);
  const mongoUrl = process.env.MONGODB_URL;
  const cpus = (await import('node:os')).cpus().length;
  if (!mongoUrl) {
    log('MONGODB_URL is not set: skipped (serve --workers needs MongoDB)');
    return {
      name: 'workers',
      params: { adapter: 'mongodb', skipped: 'MONGODB_URL is not set' },
      metrics: { skipped: 1 },
      targets: { skipped: { limit: 2, value: 1, pass: true } },
    };
  }
  const seconds = Number(process.env.BENCH_SECONDS ?? (process.env.BENCH_SMOKE === '1' ? 1 : 10));
  const one = await measure(1, mongoUrl, seconds, log);
  const two = await measure(2, mongoUrl, seconds, log);
  const ratio = round(two.reqPerSec / Math.max(1, one.reqPerSec));
  const failures = one.failures + two.failures;
  return {
    name: 'workers',
    params: { adapter: 'mongodb', endpoint: 'POST /trigger/{flow_id} (hmac sha256)', connections: CONNECTIONS, seconds, cpus },
    metrics: {
      skipped: 0,
      workers_1_req_per_s: one.reqPerSec,
      workers_1_p50_ms: one.p50,
      workers_1_p99_ms: one.p99,
      workers_1_cpu_ms_per_request: one.cpuMsPerRequest,
      workers_2_req_per_s: two.reqPerSec,
      workers_2_p50_ms: two.p50,
      workers_2_p99_ms: two.p99,
      workers_2_cpu_ms_per_request: two.cpuMsPerRequest,
      throughput_ratio: ratio,
      failed_requests: failures,
    },
    targets: { failed_requests: { limit: 1, value: failures, pass: failures === 0 } },
  };
}
