// Trigger benchmark: POST /trigger/{flow_id} on an HMAC (sha256) flow whose run is trivial,
// on the embedded store in a data directory, driven by autocannon (in a child process) at 100
// connections, next to a bare restify hello-world and the hand-written floor measured the same
// way in the same process. Targets (issue 34), as ratios to the floor of the same run: accepting
// alone ≥ 0.85 of its req/s with p99 ≤ 1.5× its p99 and CPU per request ≤ 1.2× its own; with
// the runs on ≥ 0.75; every accepted request a stored job; the backlog draining at 2,000 runs/s
// or more; under 300 MB resident.
// Five measurements: bare restify; the floor (trigger-floor.ts: the least any server could
// do for this request, hand-written, as a reference for what the targets can ask); then
// Flowhost accepting only (the flow's runs held, so no run competes for the thread), then
// with the runs on; last the host's HTTP layer alone (a route that does nothing, served as
// the trigger is: a reference, no target). BENCH_SECONDS (default 10) sets the duration
// of each.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import restify from 'restify';
import { defineHandler, definePlugin, defineRoute, defineSurface, type PluginDefinition, services } from '../sdk/index.js';
import { createTestHost, type TestHost } from '../sdk/testing/index.js';
import { servedHeap } from './served-heap.js';
import { startFloorServer } from './trigger-floor.js';
import { servedLogger } from './served-logger.js';
import type { BenchOptions, BenchResult } from './store.js';

const CONNECTIONS = 100;
const SECRET = 'bench-secret-0123456789abcdef';
const BODY = JSON.stringify({ event: 'push', repository: { full_name: 'acme/site' }, commits: [{ id: 'abc123', message: 'Update post' }] });

/** A fetch step that finds nothing: the run costs as little as a run can. */
const trivial = definePlugin({
  id: 'bench-trivial',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: {
    handlers: services.handlers,
    providers: services.providers,
    routes: services.routes,
    intervals: services.intervals,
    stepTypes: services.stepTypes,
    hooks: services.hooks,
    registries: services.registries,
  },
  setup(host) {
    for (const item of [
      defineHandler({ slug: 'bench-noop', type: 'fetch', label: 'No-op', description: 'Finds nothing.', fetch: async () => [] }),
    ])
      host.handlers.add(item);
  },
}) as PluginDefinition;

/**
 * A route that does nothing, served as the trigger is (public, the fast lane, the body read
 * but not decoded, the trigger's answer): what the host's HTTP layer costs a request before
 * the route does anything. Measured beside the floor for reference: the trigger cannot cost
 * less than this plus its own work (docs/performance.md, 6 December 2026).
 */
const layerOnly = definePlugin({
  id: 'bench-layer',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { routes: services.routes },
  setup({ routes }) {
    routes.add(
      defineSurface({
        id: 'bench-layer',
        routes: [
          defineRoute({
            method: 'POST',
            path: '/bench-layer/{flow_id}',
            permission: 'public',
            credentials: 'ignored',
            summary: 'Answers as the trigger does, doing nothing (benchmark only)',
            schema: { params: { type: 'object', required: ['flow_id'], properties: { flow_id: { type: 'integer', minimum: 1 } } } },
            decodeBody: false,
            fastPath: true,
            async handle() {
              return { success: true, flow_id: 1, flow_name: 'Bench flow', job_id: 1, message: 'Flow "Bench flow" triggered.' };
            },
          }),
        ],
      }),
    );
  },
}) as PluginDefinition;

type Run = {
  reqPerSec: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  cpuUsPerRequest: number;
  rssMb: number;
};

const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/**
 * `seconds` of load at CONNECTIONS connections from autocannon in a child process, so the
 * server under test (this process) has its own thread, heap and CPU count: this process's
 * CPU time over the run, divided by the requests answered, is what one request costs the
 * server (steadier from run to run than throughput, which the load generator also sets),
 * and its resident memory is the server's alone.
 */
async function drive(url: string, headers: Record<string, string>, seconds: number): Promise<Run> {
  const args = [
    autocannonCli,
    '--json',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(seconds),
    '-m',
    'POST',
    '-b',
    BODY,
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]),
    url,
  ];
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 250);
  const cpuBefore = process.cpuUsage();
  try {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
        error ? reject(new Error(`autocannon failed: ${error.message} ${stderr}`)) : resolve(stdout),
      );
    });
    const cpu = process.cpuUsage(cpuBefore);
    const result = JSON.parse(output) as {
      requests: { average: number; total: number };
      latency: { p50: number; p99: number };
      '2xx': number;
      non2xx: number;
      errors: number;
      timeouts: number;
    };
    return {
      reqPerSec: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      ok: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      cpuUsPerRequest: Math.round((cpu.user + cpu.system) / Math.max(1, result.requests.total)),
      rssMb: Math.round(Math.max(peakRss, process.memoryUsage().rss) / 1048576),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** The floor server (trigger-floor.ts): the least any server could do for this request. */
async function floor(seconds: number): Promise<Run & { missing: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-bench-floor-'));
  const server = await startFloorServer(dir, SECRET, servedLogger());
  try {
    const run = await drive(
      server.url,
      { 'Content-Type': 'application/json', 'X-Signature': `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}` },
      seconds,
    );
    if (run.non2xx > 0) throw new Error(`the floor server refused ${run.non2xx} requests`);
    return { ...run, missing: Math.max(0, run.ok - server.stored()) };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `use` on a host as `npm start` serves it (its logger; response checking, a test-only
 * cost, off) in a data directory of its own, stopped and removed afterwards.
 */
async function withServedHost<R>(plugins: PluginDefinition[], use: (t: TestHost) => Promise<R>): Promise<R> {
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-bench-trigger-'));
  const t = await createTestHost({
    plugins,
    logger: servedLogger(),
    config: { dataDir: dir, schedulerProcessEvery: 1000, checkResponses: false },
  });
  try {
    return await use(t);
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The host's HTTP layer alone: `layerOnly`'s route, on a host as `npm start` serves it. */
function layer(seconds: number): Promise<Run> {
  return withServedHost([layerOnly], async (t) => {
    const url = `${t.url}/api/automation/v1/bench-layer/1`;
    const probe = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: BODY });
    if (probe.status !== 200) throw new Error(`the do-nothing route answered ${probe.status}: ${await probe.text()}`);
    return drive(url, { 'Content-Type': 'application/json' }, seconds);
  });
}

async function bareRestify(seconds: number): Promise<Run> {
  const server = restify.createServer();
  server.use(restify.plugins.bodyParser());
  server.post('/hello', (_req, res, next) => {
    res.send({ hello: 'world' });
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.server.address() as AddressInfo;
    return await drive(`http://127.0.0.1:${port}/hello`, { 'Content-Type': 'application/json' }, seconds);
  } finally {
    server.close();
  }
}

interface TriggerRun {
  run: Run;
  accepted: number;
  jobs: number;
  missing: number;
  waiting: number;
  drainPerSecond: number;
  rssMb: number;
}

/** One host, one flow, `seconds` of signed triggers; `holdRuns` keeps the runs from starting. */
function measureTrigger(holdRuns: boolean, seconds: number, log: (line: string) => void): Promise<TriggerRun> {
  return withServedHost([trivial], async (t) => {
    const pipelineId = (
      await t.request<{ data: { pipeline_id: number } }>('POST', '/pipelines', {
        body: { pipeline_name: 'Bench', steps: [{ step_type: 'fetch' }] },
      })
    ).body.data.pipeline_id;
    const stepId = (
      await t.request<{ data: { pipeline: { pipeline_steps: Array<{ pipeline_step_id: string }> } } }>('GET', `/pipelines/${pipelineId}`)
    ).body.data.pipeline.pipeline_steps[0]!.pipeline_step_id;
    const flowId = (
      await t.request<{ data: { flow_id: number } }>('POST', '/flows', {
        body: { pipeline_id: pipelineId, flow_name: 'Bench flow', flow_config: { [stepId]: { handler_slug: 'bench-noop' } } },
      })
    ).body.data.flow_id;
    const template = {
      mode: 'hmac',
      algo: 'sha256',
      signed_template: '{body}',
      signature_source: { header: 'X-Signature', extract: { kind: 'prefix', key: 'sha256=' }, encoding: 'hex' },
    };
    const enabled = await t.request('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'hmac', template, secret: SECRET } });
    if (enabled.status !== 200) throw new Error(`enabling the trigger failed: ${JSON.stringify(enabled.body)}`);
    // The flow's own limit would answer 429 long before the server is saturated.
    await t.request('PUT', `/flows/${flowId}/webhook/rate-limit`, { body: { max: 100000, window_seconds: 1 } });

    const headers = {
      'Content-Type': 'application/json',
      'X-Signature': `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}`,
    };
    const url = `${t.url}/api/automation/v1/trigger/${flowId}`;
    // Acceptance alone: the flow is marked running, so every accepted job waits in its
    // queue and no run competes for the thread.
    if (holdRuns)
      await t.host.flows.collection.updateOne({ flow_id: flowId }, { $set: { running_job_id: -1, running_since: t.clock.now() } });
    const probe = await fetch(url, { method: 'POST', headers, body: BODY });
    if (probe.status !== 200) throw new Error(`a signed probe answered ${probe.status}: ${await probe.text()}`);
    log(`flowhost trigger (${holdRuns ? 'accepting only' : 'with the runs on'}), ${CONNECTIONS} connections, ${seconds} s`);
    const run = await drive(url, headers, seconds);
    log(`flowhost: ${run.reqPerSec} req/s, p99 ${run.p99} ms, ${run.cpuUsPerRequest} µs CPU per request, peak RSS ${run.rssMb} MB`);
    // The host's peak resident memory under this load (the load generator is another process).
    const rssMb = run.rssMb;

    // Every 200 must be a stored job (the probe's included).
    const jobsCollection = t.host.store.collection('jobs');
    const jobs = await jobsCollection.count({ flow_id: flowId, source: 'webhook' });
    const waiting = await jobsCollection.count({ flow_id: flowId, status: { $in: ['pending', 'processing'] } });
    // autocannon counts answers received within the duration; requests in flight at the end
    // were still accepted and stored, so there may be more jobs than counted 200s, never fewer.
    const accepted = run.ok + 1;
    // With the runs on: how fast the backlog left at the end drains (runs/s).
    let drainPerSecond = 0;
    if (!holdRuns && waiting > 0) {
      const drainStart = process.hrtime.bigint();
      const elapsedS = () => Number(process.hrtime.bigint() - drainStart) / 1e9;
      // Smoke mode (npm test) keeps the code path alive and measures the first second of the
      // drain only: the whole backlog (about 5,000 runs) took 7 of the smoke's 13 s.
      const limitS = process.env.BENCH_SMOKE === '1' ? 1 : Number.POSITIVE_INFINITY;
      const unfinished = { flow_id: flowId, status: { $in: ['pending', 'processing'] } };
      // Whether any is left, not how many: counting thousands of rows every 20 ms took a
      // third of the CPU the drain it measures needs.
      while (elapsedS() < limitS && (await jobsCollection.findOne(unfinished, { projection: { _id: 1 } })))
        await new Promise((done) => setTimeout(done, 20));
      const seconds = elapsedS();
      const left = seconds < limitS ? 0 : await jobsCollection.count(unfinished);
      drainPerSecond = Math.round((waiting - left) / seconds);
      log(`backlog of ${waiting} runs: ${waiting - left} drained at ${drainPerSecond} runs/s`);
    }
    return { run, accepted, jobs, missing: Math.max(0, accepted - jobs), waiting, drainPerSecond, rssMb };
  });
}

export async function triggerBench(options: BenchOptions = {}): Promise<BenchResult> {
  const seconds = Number(process.env.BENCH_SECONDS ?? (process.env.BENCH_SMOKE === '1' ? 1 : 10));
  const log = options.progress ?? (() => undefined);
  // This process stands in for `flowhost serve`: its heap settings, for both servers.
  const heapGrowingPercent = servedHeap();
  log(`bare restify hello-world, ${CONNECTIONS} connections, ${seconds} s`);
  const bare = await bareRestify(seconds);
  log(`bare: ${bare.reqPerSec} req/s, p99 ${bare.p99} ms, ${bare.cpuUsPerRequest} µs CPU per request`);
  log(`floor (the least a server can do for this request, trigger-floor.ts), ${CONNECTIONS} connections, ${seconds} s`);
  const least = await floor(seconds);
  log(`floor: ${least.reqPerSec} req/s, p99 ${least.p99} ms, ${least.cpuUsPerRequest} µs CPU per request`);

  // Both rows of the table, each on a fresh host and data directory.
  const held = await measureTrigger(true, seconds, log);
  const withRuns = await measureTrigger(false, seconds, log);
  // Last, so the hosts measured above (and their peak RSS) are not measured after a third one.
  log(`the host's HTTP layer alone (a route that does nothing, served as the trigger is), ${CONNECTIONS} connections, ${seconds} s`);
  const layerRun = await layer(seconds);
  log(`layer: ${layerRun.reqPerSec} req/s, p99 ${layerRun.p99} ms, ${layerRun.cpuUsPerRequest} µs CPU per request`);
  const ratio = (r: Run, of: Run = bare) => Math.round((r.reqPerSec / Math.max(1, of.reqPerSec)) * 1000) / 1000;
  const acceptRatio = ratio(held.run);
  const runsRatio = ratio(withRuns.run);
  const missing = held.missing + withRuns.missing;
  const rss = Math.max(held.rssMb, withRuns.rssMb);
  const p99Limit = Math.round(1.5 * least.p99 * 10) / 10;
  const acceptOfFloor = ratio(held.run, least);
  const runsOfFloor = ratio(withRuns.run, least);
  const cpuOfFloor = Math.round((held.run.cpuUsPerRequest / Math.max(1, least.cpuUsPerRequest)) * 100) / 100;
  return {
    name: 'trigger',
    params: {
      adapter: 'embedded',
      connections: CONNECTIONS,
      seconds,
      algo: 'sha256',
      body_bytes: Buffer.byteLength(BODY),
      cpus: (await import('node:os')).cpus().length,
      heap_growing_percent: heapGrowingPercent,
    },
    metrics: {
      bare_req_per_s: bare.reqPerSec,
      bare_p50_ms: bare.p50,
      bare_p99_ms: bare.p99,
      bare_cpu_us_per_request: bare.cpuUsPerRequest,
      floor_req_per_s: least.reqPerSec,
      floor_p99_ms: least.p99,
      floor_ratio: ratio(least),
      floor_cpu_us_per_request: least.cpuUsPerRequest,
      floor_jobs_missing: least.missing,
      // Reference, no target: the host's HTTP layer with a route that does nothing.
      layer_req_per_s: layerRun.reqPerSec,
      layer_p99_ms: layerRun.p99,
      layer_cpu_us_per_request: layerRun.cpuUsPerRequest,
      layer_cpu_of_floor: Math.round((layerRun.cpuUsPerRequest / Math.max(1, least.cpuUsPerRequest)) * 100) / 100,
      accept_req_per_s: held.run.reqPerSec,
      accept_p50_ms: held.run.p50,
      accept_p99_ms: held.run.p99,
      accept_ratio: acceptRatio,
      accept_cpu_us_per_request: held.run.cpuUsPerRequest,
      accept_of_floor: acceptOfFloor,
      accept_cpu_of_floor: cpuOfFloor,
      with_runs_req_per_s: withRuns.run.reqPerSec,
      with_runs_p50_ms: withRuns.run.p50,
      with_runs_p99_ms: withRuns.run.p99,
      with_runs_ratio: runsRatio,
      with_runs_of_floor: runsOfFloor,
      with_runs_cpu_us_per_request: withRuns.run.cpuUsPerRequest,
      accepted: held.accepted + withRuns.accepted,
      non_2xx: held.run.non2xx + withRuns.run.non2xx,
      errors: held.run.errors + withRuns.run.errors,
      jobs_stored: held.jobs + withRuns.jobs,
      jobs_missing: missing,
      jobs_waiting_to_run_at_end: withRuns.waiting,
      backlog_drain_runs_per_s: withRuns.drainPerSecond,
      rss_mb_under_load: rss,
    },
    targets: {
      // The table, against the floor of this run (bare restify is shown for reference).
      accept_of_floor: { limit: 0.85, value: acceptOfFloor, pass: acceptOfFloor >= 0.85, atLeast: true },
      accept_p99_ms: { limit: p99Limit, value: held.run.p99, pass: held.run.p99 <= p99Limit },
      accept_cpu_of_floor: { limit: 1.2, value: cpuOfFloor, pass: cpuOfFloor <= 1.2 },
      with_runs_of_floor: { limit: 0.75, value: runsOfFloor, pass: runsOfFloor >= 0.75, atLeast: true },
      jobs_missing: { limit: 1, value: missing, pass: missing === 0 },
      backlog_drain_runs_per_s: {
        limit: 2000,
        value: withRuns.drainPerSecond,
        pass: withRuns.drainPerSecond >= 2000 || withRuns.waiting === 0,
        atLeast: true,
      },
      rss_mb_under_load: { limit: 300, value: rss, pass: rss < 300 },
    },
  };
}
