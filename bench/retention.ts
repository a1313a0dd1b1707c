// Retention benchmark: a store of 100,000 finished jobs (five log lines each), 90% of them past
// job_retention_days, pruned by the retention job, then the space given back, two ways:
//   incremental  a file in auto_vacuum=INCREMENTAL: the prune's batches, then
//                incremental_vacuum 256 pages at a time between turns (measured, not chosen);
//   full         a file in auto_vacuum=NONE (what the host makes): the same prune, then one
//                VACUUM (a maintenance window: the store answers nothing while it runs).
// Reports the file size by fs.stat before and after, the prune and vacuum times, and the
// longest the event loop was held (what a request arriving meanwhile waits).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { JOB_INDEXES } from '../core/jobs/service.js';
import { JobRetention } from '../core/jobs/retention.js';
import { LogsRepository } from '../core/logs/repository.js';
import { LogsService } from '../core/logs/service.js';
import { openEmbeddedStore, type EmbeddedStore } from '../host/store/embedded/index.js';
import { retain } from '../host/store/embedded/keep-alive.js';
import type { BenchOptions, BenchResult } from './store.js';

const DAY_MS = 86_400_000;
const LINES_PER_JOB = 5;
const BATCH = 2000;
/** The longest the event loop may be held by one prune batch (measured 471–577 ms at 100,000 jobs on a shared machine). */
const PAUSE_LIMIT_MS = 1000;
/** The VACUUM after pruning 90,000 of 100,000 jobs (measured about 2 s). */
const VACUUM_LIMIT_S = 5;

const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;
const mib = (bytes: number) => round(bytes / 1048576);
const clock = { now: () => new Date() };

/** A finished job as the engine leaves it: one step with its item identities and packets. */
function job(i: number, at: Date) {
  const packets = JSON.stringify([{ title: `Story ${i}`, body: 'lorem ipsum '.repeat(60), link: `https://example.test/${i}` }]);
  return {
    job_id: i + 1,
    flow_id: (i % 50) + 1,
    pipeline_id: (i % 10) + 1,
    parent_job_id: null,
    label: `Flow ${(i % 50) + 1}`,
    status: i % 10 === 0 ? 'failed' : 'completed',
    engine_data: { source: 'schedule' },
    workflow: null,
    steps: [
      {
        flow_step_id: 'step-1',
        step_type: 'fetch',
        handler_slug: 'rss',
        status: 'completed',
        items_in: 0,
        items_out: 1,
        started_at: at,
        finished_at: at,
        items: [{ item_id: `urn:${i}`, title: `Story ${i}` }],
        packets_json: packets,
      },
    ],
    error: null,
    action_id: null,
    source: 'schedule',
    created_at: at,
    scheduled_for: null,
    started_at: at,
    completed_at: at,
  };
}

/** The database file in the auto_vacuum mode measured (NONE is what the host makes). */
function databaseFile(file: string, mode: 'NONE' | 'INCREMENTAL'): void {
  // Retained, like every SQLite wrapper the host makes: on Node 24 a collected one aborts the
  // process (host/store/embedded/keep-alive.ts).
  const db = retain(new Database(file));
  // Before WAL mode writes the first page: afterwards only a VACUUM changes it.
  db.exec(
    `PRAGMA auto_vacuum = ${mode}; PRAGMA journal_mode = WAL; CREATE TABLE "_sequences" (name TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
  );
  db.close();
}

async function seed(store: EmbeddedStore, total: number, log: (line: string) => void): Promise<number> {
  const started = performance.now();
  const old = new Date(Date.now() - 40 * DAY_MS);
  const recent = new Date();
  const jobs = store.collection('jobs');
  const lines = store.collection('logs');
  for (const spec of JOB_INDEXES) await jobs.createIndex(spec);
  for (let from = 0; from < total; from += BATCH) {
    const count = Math.min(BATCH, total - from);
    // The newest tenth is recent: it stays.
    const at = (i: number) => (i >= total * 0.9 ? recent : old);
    await jobs.insertMany(Array.from({ length: count }, (_, k) => job(from + k, at(from + k))));
    await lines.insertMany(
      Array.from({ length: count * LINES_PER_JOB }, (_, k) => {
        const i = from + Math.floor(k / LINES_PER_JOB);
        return {
          id: i * LINES_PER_JOB + (k % LINES_PER_JOB) + 1,
          level: 'info',
          message: `Step ${k % LINES_PER_JOB} of job ${i + 1} finished with 1 item`,
          context: { job_id: i + 1, flow_id: (i % 50) + 1, pipeline_id: (i % 10) + 1 },
          agent_id: null,
          user_id: null,
          created_at: at(i),
        };
      }),
    );
    if ((from / BATCH) % 10 === 0) log(`seeded ${from + count} jobs`);
  }
  return (performance.now() - started) / 1000;
}

/** The file's size once the WAL is copied into it (the store's timer checkpoints every 100 ms). */
async function settledSize(store: EmbeddedStore, file: string): Promise<number> {
  const pages = (await store.space()).bytes;
  const end = Date.now() + 30_000;
  while (statSync(file).size < pages && Date.now() < end) await delay(50);
  return statSync(file).size;
}

async function measure(mode: 'incremental' | 'full', total: number, log: (line: string) => void): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), `flowhost-bench-retention-${mode}-`));
  const file = join(dir, 'flowhost.db');
  databaseFile(file, mode === 'full' ? 'NONE' : 'INCREMENTAL');
  const store = openEmbeddedStore({ file, exclusive: true });
  try {
    const logs = new LogsService(new LogsRepository(store), clock);
    await logs.init();
    const seedSeconds = await seed(store, total, (line) => log(`${mode}: ${line}`));
    const retention = new JobRetention(store, logs, clock);
    await retention.init();
    const before = await settledSize(store, file);
    log(`${mode}: ${mib(before)} MiB before; pruning`);

    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    let started = performance.now();
    const report = await retention.prune({ jobRetentionDays: 30, forgetProcessedAfterDays: 0, giveSpaceBack: 'none' });
    const pruneSeconds = (performance.now() - started) / 1000;
    // The monitor records a block once its timer fires after it.
    await delay(20);
    const prunePauseMs = lag.max / 1e6;
    lag.reset();
    started = performance.now();
    let freed = 0;
    if (mode === 'full') freed = await store.giveSpaceBack({ full: true });
    else
      for (let step = await store.giveSpaceBack({ maxPages: 256 }); step > 0; step = await store.giveSpaceBack({ maxPages: 256 })) {
        freed += step;
        await new Promise((resolve) => setImmediate(resolve));
      }
    const vacuumSeconds = (performance.now() - started) / 1000;
    await delay(20);
    const vacuumPauseMs = lag.max / 1e6;
    lag.disable();
    const after = statSync(file).size;
    log(`${mode}: pruned ${report.jobs} jobs, ${report.log_lines} log lines; ${mib(after)} MiB after`);
    return {
      seed_s: round(seedSeconds),
      jobs_pruned: report.jobs,
      log_lines_pruned: report.log_lines,
      file_mib_before: mib(before),
      prune_s: round(pruneSeconds, 2),
      prune_longest_pause_ms: round(prunePauseMs),
      vacuum_s: round(vacuumSeconds, 2),
      vacuum_longest_pause_ms: round(vacuumPauseMs),
      file_mib_after: mib(after),
      mib_given_back: mib(freed),
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function retentionBench(opts: BenchOptions = {}): Promise<BenchResult> {
  const total = opts.docs ?? (process.env.BENCH_SMOKE === '1' ? 2000 : 100_000);
  const log = opts.progress ?? (() => undefined);
  const metrics: Record<string, number> = {};
  for (const mode of ['incremental', 'full'] as const)
    for (const [key, value] of Object.entries(await measure(mode, total, log))) metrics[`${mode}_${key}`] = value;
  // Targets on what the host does (NONE + one VACUUM); the incremental figures are for comparison.
  const pause = metrics.full_prune_longest_pause_ms!;
  const vacuum = metrics.full_vacuum_s!;
  return {
    name: 'retention',
    params: { jobs: total, log_lines_per_job: LINES_PER_JOB, pruned_share: 0.9 },
    metrics,
    targets: {
      full_prune_longest_pause_ms: { limit: PAUSE_LIMIT_MS, value: pause, pass: pause < PAUSE_LIMIT_MS },
      full_vacuum_s: { limit: VACUUM_LIMIT_S, value: vacuum, pass: vacuum < VACUUM_LIMIT_S },
    },
  };
}
