// Run-path benchmarks on the embedded store, in a data directory, with the host as
// `npm start` configures it (no response checking):
//   runs     3-step ephemeral workflows (fetch → publish → publish) started through the
//            execute service BENCH_RUNS times (default 2,000), 64 in flight; runs/s from
//            the first start to the last completion. Targets (issue 34): ≥ 2,000 runs/s and
//            ≤ 0.5 ms of CPU a run.
//   execute  POST /execute {flow_id} over HTTP, one at a time: the time from sending the
//            request to the run's first step starting (the job is `processing` by then).
//            Targets p50 < 20 ms, p99 < 100 ms.
// BENCH_SMOKE=1 (CI) runs a few dozen of each so the code paths do not rot.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineHandler, definePlugin, services, type PluginDefinition } from '../sdk/index.js';
import { createTestHost, type TestHost } from '../sdk/testing/index.js';
import { servedHeap } from './served-heap.js';
import { servedLogger } from './served-logger.js';
import { percentile, type BenchOptions, type BenchResult } from './store.js';

const smoke = () => process.env.BENCH_SMOKE === '1';
const round = (n: number) => Math.round(n * 100) / 100;

/** One packet in, the same out: the cheapest run that still passes data through every step. */
function benchPlugin(onStepStart: (jobId: number) => void): PluginDefinition {
  return definePlugin({
    id: 'bench-runs',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { handlers: services.handlers, engine: services.engineEvents },
    setup({ handlers, engine }) {
      handlers.add(
        defineHandler({
          slug: 'bench-one',
          type: 'fetch',
          label: 'One item',
          description: 'Finds one item.',
          fetch: async () => [
            { type: 'bench', data: { title: 'One', content: 'Item' }, metadata: { source_type: 'bench', dedup_key: `k${Math.random()}` } },
          ],
        }),
      );
      handlers.add(
        defineHandler({
          slug: 'bench-sink',
          type: 'publish',
          label: 'Sink',
          description: 'Accepts everything.',
          publish: async (_ctx, _settings, packets) => packets,
        }),
      );
      engine.stepStarting.tap('bench-runs', (packets, step) => {
        onStepStart(step.jobId);
        return packets;
      });
    },
  }) as PluginDefinition;
}

async function benchHost(onStepStart: (jobId: number) => void): Promise<{ t: TestHost; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-bench-runs-'));
  // As served: no response checking (that is a test-only cost), info lines logged, and
  // the served heap growth.
  servedHeap();
  const t = await createTestHost({
    plugins: [benchPlugin(onStepStart)],
    logger: servedLogger(),
    config: { dataDir: dir, checkResponses: false, schedulerProcessEvery: 5000 },
  });
  return { t, dir };
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

export async function runsBench(options: BenchOptions = {}): Promise<BenchResult> {
  const total = Number(process.env.BENCH_RUNS ?? (smoke() ? 50 : 2000));
  const inFlight = 64;
  const log = options.progress ?? (() => undefined);
  const { t, dir } = await benchHost(() => undefined);
  try {
    const steps = [
      { type: 'fetch', handler_slug: 'bench-one' },
      { type: 'publish', handler_slug: 'bench-sink' },
      { type: 'publish', handler_slug: 'bench-sink' },
    ];
    const jobs = t.host.store.collection('jobs');
    log(`${total} ephemeral 3-step runs, ${inFlight} started at a time`);
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    let next = 0;
    const starter = async () => {
      while (next < total) {
        next++;
        await t.host.execute.execute({ workflow: { steps } }, 'execute', null);
        // Keep at most `inFlight` runs unfinished: the bench measures throughput, not a queue.
        // Counted over the unfinished ones (the status index, at most a few dozen rows): a
        // count of the finished ones grew with the run and cost the host a share of its CPU.
        while ((await jobs.count({ status: { $in: ['pending', 'processing'] } })) > inFlight)
          await new Promise((done) => setTimeout(done, 2));
      }
    };
    await Promise.all(Array.from({ length: 4 }, starter));
    await waitUntil(async () => (await jobs.count({ status: { $in: ['pending', 'processing'] } })) === 0, 120_000);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    const completed = await jobs.count({ status: 'completed' });
    const failed = await jobs.count({ status: { $nin: ['completed', 'pending', 'processing'] } });
    const perSecond = Math.round(completed / seconds);
    const cpuPerRun = round((cpu.user + cpu.system) / 1000 / Math.max(1, completed));
    log(`${completed} completed in ${round(seconds)} s: ${perSecond} runs/s`);
    return {
      name: 'runs',
      params: { adapter: 'embedded', runs: total, steps: 3, in_flight: inFlight, smoke: smoke() },
      // CPU per run: steadier than runs/s on a shared machine (another process's load shows in wall time, less here).
      metrics: {
        runs_per_s: perSecond,
        cpu_ms_per_run: cpuPerRun,
        completed,
        failed,
        seconds: round(seconds),
        rss_mb: Math.round(process.memoryUsage().rss / 1048576),
      },
      targets: {
        runs_per_s: { limit: 2000, value: perSecond, pass: perSecond >= 2000, atLeast: true },
        cpu_ms_per_run: { limit: 0.5, value: cpuPerRun, pass: cpuPerRun <= 0.5 },
        failed: { limit: 1, value: failed, pass: failed === 0 },
      },
    };
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function executeBench(options: BenchOptions = {}): Promise<BenchResult> {
  const total = Number(process.env.BENCH_RUNS ?? (smoke() ? 20 : 300));
  const log = options.progress ?? (() => undefined);
  const firstStep = new Map<number, bigint>();
  const { t, dir } = await benchHost((jobId) => {
    if (!firstStep.has(jobId)) firstStep.set(jobId, process.hrtime.bigint());
  });
  try {
    const pipelineId = (
      await t.request<{ data: { pipeline_id: number } }>('POST', '/pipelines', {
        body: { pipeline_name: 'Bench', steps: [{ step_type: 'fetch' }, { step_type: 'publish' }] },
      })
    ).body.data.pipeline_id;
    const stepIds = (
      await t.request<{ data: { pipeline: { pipeline_steps: Array<{ pipeline_step_id: string }> } } }>('GET', `/pipelines/${pipelineId}`)
    ).body.data.pipeline.pipeline_steps.map((s) => s.pipeline_step_id);
    const flowId = (
      await t.request<{ data: { flow_id: number } }>('POST', '/flows', {
        body: {
          pipeline_id: pipelineId,
          flow_name: 'Bench flow',
          flow_config: { [stepIds[0]!]: { handler_slug: 'bench-one' }, [stepIds[1]!]: { handler_slug: 'bench-sink' } },
        },
      })
    ).body.data.flow_id;
    const url = `${t.url}/api/automation/v1/execute`;
    const auth = `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`;
    const latencies: number[] = [];
    const answers: number[] = [];
    log(`${total} POST /execute, one at a time, to the first step starting`);
    for (let i = 0; i < total; i++) {
      const sent = process.hrtime.bigint();
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ flow_id: flowId }),
      });
      const body = (await response.json()) as { data?: { job_id?: number } };
      answers.push(Number(process.hrtime.bigint() - sent) / 1e6);
      const jobId = body.data?.job_id;
      if (response.status !== 200 || !jobId) throw new Error(`POST /execute answered ${response.status}: ${JSON.stringify(body)}`);
      await waitUntil(async () => firstStep.has(jobId), 10_000);
      latencies.push(Number(firstStep.get(jobId)! - sent) / 1e6);
      // One run at a time per flow: let this one end before the next request.
      await t.waitForJob(jobId, 10_000);
    }
    const p50 = round(percentile(latencies, 50));
    const p99 = round(percentile(latencies, 99));
    log(`to processing: p50 ${p50} ms, p99 ${p99} ms`);
    return {
      name: 'execute',
      params: { adapter: 'embedded', requests: total, smoke: smoke() },
      metrics: {
        to_processing_p50_ms: p50,
        to_processing_p99_ms: p99,
        answer_p50_ms: round(percentile(answers, 50)),
        answer_p99_ms: round(percentile(answers, 99)),
      },
      targets: {
        to_processing_p50_ms: { limit: 20, value: p50, pass: p50 < 20 },
        to_processing_p99_ms: { limit: 100, value: p99, pass: p99 < 100 },
      },
    };
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
