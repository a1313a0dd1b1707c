// Store benchmark: log-shaped documents through the DocumentStore port on the embedded
// adapter, in a temporary file. Targets (DESIGN.md, storage): the newest filtered page
// p50 < 5 ms, close + reopen + first query < 1 s, resident memory < 300 MB, at 1M documents.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Collection, Filter, FindOptions } from '../core/store/port.js';
import { openEmbeddedStore, type EmbeddedStore } from '../host/store/embedded/index.js';

export interface BenchTarget {
  /** The metric must stay below this (or, with `atLeast`, reach it). */
  limit: number;
  atLeast?: boolean;
  value: number;
  pass: boolean;
}

export interface BenchResult {
  name: string;
  params: Record<string, unknown>;
  metrics: Record<string, number>;
  targets: Record<string, BenchTarget>;
  /** Anything else worth reading next to the figures (e.g. the query plans). */
  details?: Record<string, unknown>;
}

export interface BenchOptions {
  /** Documents to insert (default 1,000,000). */
  docs?: number;
  progress?: (line: string) => void;
}

const LEVELS = ['debug', 'info', 'info', 'info', 'warning', 'error'] as const;
const BATCH = 10_000;
const PAGE: FindOptions = { sort: { created_at: -1 }, limit: 50 };

const round = (n: number) => Math.round(n * 1000) / 1000;
const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeIt(runs: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn(i);
    samples.push(elapsedMs(start));
  }
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
}

/** Document `j` of `total`: one second apart, newest last, like a log written over time. */
function logDocument(j: number, startMs: number): Record<string, unknown> {
  const jobId = Math.floor(j / 5) + 1;
  return {
    level: LEVELS[j % LEVELS.length],
    message: `Step ${j % 7} of job ${jobId} finished with ${j % 13} items`,
    context: { flow_id: (j % 200) + 1, job_id: jobId, pipeline_id: (j % 20) + 1 },
    created_at: new Date(startMs + j * 1000),
  };
}

async function createIndexes(logs: Collection): Promise<void> {
  await logs.createIndex({ fields: { created_at: -1 } });
  await logs.createIndex({ fields: { level: 1, created_at: -1 } });
  await logs.createIndex({ fields: { 'context.flow_id': 1, created_at: -1 } });
}

function fileSizeMb(file: string): number {
  const size = (f: string) => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  };
  return round((size(file) + size(`${file}-wal`)) / (1024 * 1024));
}

export async function storeBench(options: BenchOptions = {}): Promise<BenchResult> {
  const total = options.docs ?? 1_000_000;
  const log = options.progress ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-bench-store-'));
  const file = join(dir, 'bench.db');
  try {
    let store: EmbeddedStore = openEmbeddedStore({ file, exclusive: true });
    let logs = store.collection('logs');
    await createIndexes(logs);

    const startMs = Date.UTC(2026, 0, 1) - total * 1000;
    const insertStarted = process.hrtime.bigint();
    for (let i = 0; i < total; i += BATCH) {
      const docs = [];
      for (let j = i; j < Math.min(total, i + BATCH); j++) docs.push(logDocument(j, startMs));
      await logs.insertMany(docs);
      if ((i / BATCH) % 10 === 0) log(`inserted ${Math.min(total, i + BATCH)} / ${total}`);
    }
    const insertSeconds = elapsedMs(insertStarted) / 1000;

    log('querying');
    const errors: Filter = { level: 'error' };
    const byFlow = (i: number): Filter => ({ 'context.flow_id': (i % 200) + 1 });
    const filtered = await timeIt(200, () => logs.find(errors, PAGE));
    const unfiltered = await timeIt(200, () => logs.find({}, PAGE));
    const flow = await timeIt(200, (i) => logs.find(byFlow(i), PAGE));
    const recent = await timeIt(50, () =>
      logs.find({ level: 'error', created_at: { $gte: new Date(startMs + (total - 3600) * 1000) } }, PAGE),
    );
    const deepPage = await timeIt(20, () => logs.find(errors, { ...PAGE, skip: 5000 }));
    const count = await timeIt(5, () => logs.count(errors));
    const errorCount = await logs.count(errors);
    const plans = {
      filtered_page: store.explainFind('logs', errors, PAGE),
      unfiltered_page: store.explainFind('logs', {}, PAGE),
      flow_page: store.explainFind('logs', byFlow(41), PAGE),
    };

    await store.close();
    const reopenStarted = process.hrtime.bigint();
    store = openEmbeddedStore({ file, exclusive: true });
    logs = store.collection('logs');
    const firstPage = await logs.find(errors, PAGE);
    const reopenMs = elapsedMs(reopenStarted);
    if (firstPage.length !== Math.min(50, errorCount)) throw new Error(`the reopened store answered ${firstPage.length} documents`);
    await timeIt(50, () => logs.find({ level: 'warning' }, PAGE));
    const rssMb = process.memoryUsage().rss / (1024 * 1024);
    const dbMb = fileSizeMb(file);
    await store.close();

    const target = (limit: number, value: number): BenchTarget => ({ limit, value: round(value), pass: value < limit });
    return {
      name: 'store',
      params: { adapter: 'embedded', docs: total, batch: BATCH, page_size: 50, node: process.version },
      metrics: {
        insert_docs_per_s: Math.round(total / insertSeconds),
        insert_total_s: round(insertSeconds),
        filtered_page_p50_ms: filtered.p50,
        filtered_page_p95_ms: filtered.p95,
        unfiltered_page_p50_ms: unfiltered.p50,
        unfiltered_page_p95_ms: unfiltered.p95,
        flow_page_p50_ms: flow.p50,
        flow_page_p95_ms: flow.p95,
        filtered_last_hour_page_p50_ms: recent.p50,
        skip_5000_page_p50_ms: deepPage.p50,
        count_filtered_p50_ms: count.p50,
        count_filtered_result: errorCount,
        reopen_ms: round(reopenMs),
        rss_mb: round(rssMb),
        db_file_mb: dbMb,
      },
      targets: {
        filtered_page_p50_ms: target(5, filtered.p50),
        reopen_ms: target(1000, reopenMs),
        rss_mb: target(300, rssMb),
      },
      details: { plans },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
