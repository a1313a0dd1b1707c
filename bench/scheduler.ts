// Scheduler lateness benchmark: BENCH_FLOWS flows (default 10,000) on `every_5_minutes`,
// each a one-step flow whose fetch finds nothing, on the embedded store in a data
// directory, with the host's served scheduler settings (processEvery 1 s). Real flows are
// created over time, so their slots are spread over the period: the bench moves each
// flow's first slot (Agenda's nextRunAt) to t0 + i * window / flows, then waits for every
// flow's run on the wall clock. Lateness is what a user sees: the run's job record's
// creation minus the slot. Targets (issue 18): p99 < 1 s, no flow run twice in its slot,
// none skipped.
// BENCH_SECONDS sets the window the slots are spread over: 300 (default) is the real
// period, every flow once; less compresses the period (a higher rate of runs than real,
// so a stricter test). BENCH_BURST=1 puts every slot at the same instant instead (a
// backlog: that many runs cannot all start within a second; reported, not a target).
// BENCH_STEP_MS=n makes each run's fetch wait n ms (an I/O-bound run, as real flows are).
// BENCH_SMOKE=1: 200 flows over 1 s, polling every 250 ms. BENCH_PROCESS_EVERY overrides
// the poll interval.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineHandler, definePlugin, services, type PluginDefinition } from '../sdk/index.js';
import { createTestHost, FakeClock } from '../sdk/testing/index.js';
import { defaultConfig } from '../host/config/schema.js';
import { percentile, type BenchOptions, type BenchResult } from './store.js';

const smoke = () => process.env.BENCH_SMOKE === '1';
const round = (n: number) => Math.round(n * 100) / 100;
const PERIOD_MS = 300_000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The host's own clock reads the wall clock here: job records carry real creation times. */
class WallClock extends FakeClock {
  override now(): Date {
    return new Date();
  }
}

/** A fetch step that finds nothing, and a tap on the lateness hook (what /metrics reads). */
function benchPlugin(onLate: (latenessMs: number) => void): PluginDefinition {
  return definePlugin({
    id: 'bench-scheduler',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { handlers: services.handlers, hooks: services.hooks },
    setup({ handlers, hooks }) {
      // BENCH_STEP_MS: the fetch waits that long (a real feed answers in 100s of ms), no CPU.
      const stepMs = Number(process.env.BENCH_STEP_MS ?? 0);
      handlers.add(
        defineHandler({
          slug: 'bench-noop',
          type: 'fetch',
          label: 'No-op',
          description: 'Finds nothing.',
          fetch: async () => (stepMs > 0 ? sleep(stepMs).then(() => []) : []),
        }),
      );
      hooks.scheduledRunStarted.tap('bench-scheduler', (run) => onLate(run.latenessMs));
    },
  }) as PluginDefinition;
}

type JobRow = { flow_id: number; created_at: Date; status: string };

/** Every flow on every_5_minutes, made through the flows service 50 at a time. */
async function createFlows(t: Awaited<ReturnType<typeof createTestHost>>, pipelineId: number, stepId: string, flows: number) {
  const flowIds: number[] = [];
  for (let i = 0; i < flows; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, flows - i) }, (_, k) =>
        t.host.flows.create({
          pipeline_id: pipelineId,
          flow_name: `Flow ${i + k}`,
          flow_config: { [stepId]: { handler_slug: 'bench-noop' } },
          scheduling_config: { interval: 'every_5_minutes' },
        }),
      ),
    );
    flowIds.push(...batch.map((f) => f.flow_id));
  }
  return flowIds;
}

/** Each flow's runs near its slot (lateness in ms), the first run's lateness per flow, and the flows run twice or early. */
function gradeRuns(rows: JobRow[], slots: Map<number, number>) {
  const runsOf = new Map<number, number[]>();
  for (const row of rows) {
    const slot = slots.get(row.flow_id);
    if (slot === undefined) continue;
    const late = new Date(row.created_at).getTime() - slot;
    if (Math.abs(late) >= PERIOD_MS / 2) continue;
    runsOf.set(row.flow_id, [...(runsOf.get(row.flow_id) ?? []), late]);
  }
  const lateness: number[] = [];
  let twice = 0;
  let early = 0;
  for (const late of runsOf.values()) {
    if (late.length > 1) twice++;
    const first = Math.min(...late);
    if (first < 0) early++;
    lateness.push(Math.max(0, first));
  }
  return { runsOf, lateness, twice, early };
}

export async function schedulerBench(options: BenchOptions = {}): Promise<BenchResult> {
  const flows = Number(process.env.BENCH_FLOWS ?? (smoke() ? 200 : 10_000));
  const windowMs = Number(process.env.BENCH_SECONDS ?? (smoke() ? 1 : PERIOD_MS / 1000)) * 1000;
  const burst = process.env.BENCH_BURST === '1';
  // The served poll interval; smoke mode polls every 250 ms so it ends in about 3 s (npm
  // test runs it: at 1 s polls over a 2 s window it took 6 s, mostly waiting).
  const processEvery = Number(process.env.BENCH_PROCESS_EVERY ?? (smoke() ? 250 : defaultConfig.schedulerProcessEvery));
  const log = options.progress ?? (() => undefined);
  const hookLateness: number[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-bench-scheduler-'));
  // As served: the default poll interval and lock lifetime, no response checking.
  const t = await createTestHost({
    plugins: [benchPlugin((ms) => hookLateness.push(ms))],
    clock: new WallClock(),
    config: {
      dataDir: dir,
      checkResponses: false,
      logLevel: 'silent',
      schedulerProcessEvery: processEvery,
      schedulerLockLifetime: defaultConfig.schedulerLockLifetime,
    },
  });
  try {
    const pipelineId = (
      await t.request<{ data: { pipeline_id: number } }>('POST', '/pipelines', {
        body: { pipeline_name: 'Bench', steps: [{ step_type: 'fetch' }] },
      })
    ).body.data.pipeline_id;
    const stepId = (
      await t.request<{ data: { pipeline: { pipeline_steps: Array<{ pipeline_step_id: string }> } } }>('GET', `/pipelines/${pipelineId}`)
    ).body.data.pipeline.pipeline_steps[0]!.pipeline_step_id;
    log(`creating ${flows} flows on every_5_minutes`);
    const created = process.hrtime.bigint();
    const flowIds = await createFlows(t, pipelineId, stepId, flows);
    log(`created in ${round(Number(process.hrtime.bigint() - created) / 1e9)} s`);

    // Slots from t0 on, spread over the window (a flow's first run is five minutes after its
    // creation, so none is due before these are written). t0 is a whole poll after the
    // writes, as for slots set long ahead: a poll sees a slot before it is due.
    const agendaJobs = t.host.store.collection('agenda_jobs');
    const t0 = Date.now() + processEvery + 500 + flows / 10;
    const slots = new Map<number, number>();
    for (const [i, id] of flowIds.entries()) slots.set(id, burst ? t0 : t0 + Math.floor((i * windowMs) / flows));
    for (let i = 0; i < flowIds.length; i += 200) {
      await Promise.all(
        flowIds
          .slice(i, i + 200)
          .map((id) => agendaJobs.updateOne({ name: 'flow.run', 'data.flowId': id }, { $set: { nextRunAt: new Date(slots.get(id)!) } })),
      );
    }
    const lead = t0 - Date.now();
    if (lead < 0) throw new Error(`writing the slots took ${-lead} ms past t0`);
    log(`slots from t0 (+${lead} ms) over ${windowMs / 1000} s${burst ? ' (burst: all at t0)' : ''}; waiting`);

    const jobs = t.host.store.collection<JobRow & { job_id: number; source: string }>('jobs');
    await sleep(lead);
    const cpuBefore = process.cpuUsage();
    const started = Date.now();
    // Every slot is due by t0 + window; wait for the runs, then a grace period in which a
    // second run of a slot would show (one poll interval and a bit).
    const deadline = t0 + windowMs + (burst ? 120_000 : 60_000);
    while ((await jobs.count({ source: 'schedule' })) < flows && Date.now() < deadline) await sleep(250);
    await sleep(processEvery + 500);
    const cpu = process.cpuUsage(cpuBefore);
    const wallSeconds = (Date.now() - started) / 1000;
    while ((await jobs.count({ source: 'schedule', status: { $in: ['pending', 'processing'] } })) > 0 && Date.now() < deadline + 30_000)
      await sleep(100);

    // Each run belongs to the slot nearest it: a run within half a period of the slot is
    // that slot's. (The flow's next slot is a period later, outside this.)
    const rows = await jobs.find({ source: 'schedule' }, { projection: { flow_id: 1, created_at: 1, status: 1 } });
    const { runsOf, lateness, twice, early } = gradeRuns(rows, slots);
    const skipped = flows - runsOf.size;
    const failed = rows.filter((r) => r.status === 'failed').length;
    const p50 = round(lateness.length ? percentile(lateness, 50) : 0);
    const p99 = round(lateness.length ? percentile(lateness, 99) : 0);
    const max = round(lateness.length ? Math.max(...lateness) : 0);
    log(`${rows.length} runs; lateness p50 ${p50} ms, p99 ${p99} ms, max ${max} ms; twice ${twice}, skipped ${skipped}`);
    return {
      name: 'scheduler',
      params: {
        adapter: 'embedded',
        flows,
        interval: 'every_5_minutes',
        window_s: windowMs / 1000,
        slots: burst ? 'all at once' : 'spread over the window',
        process_every_ms: processEvery,
        step_ms: Number(process.env.BENCH_STEP_MS ?? 0),
        smoke: smoke(),
      },
      metrics: {
        runs: rows.length,
        lateness_p50_ms: p50,
        lateness_p99_ms: p99,
        lateness_max_ms: max,
        hook_lateness_p99_ms: round(hookLateness.length ? percentile(hookLateness, 99) : 0),
        hook_reports: hookLateness.length,
        run_twice: twice,
        skipped,
        started_early: early,
        failed,
        runs_per_s: round(rows.length / Math.max(0.001, wallSeconds)),
        cpu_ms_per_run: round((cpu.user + cpu.system) / 1000 / Math.max(1, rows.length)),
      },
      targets: {
        // Issue 18: p99 < 1 s; no flow run twice and none skipped. A burst is a backlog by
        // construction (reported, not held to the second).
        ...(burst ? {} : { lateness_p99_ms: { limit: 1000, value: p99, pass: p99 < 1000 } }),
        run_twice: { limit: 1, value: twice, pass: twice === 0 },
        skipped: { limit: 1, value: skipped, pass: skipped === 0 },
      },
    };
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
