// Store benchmark: log-shaped documents through the DocumentStore port on the embedded
// adapter. Targets (DESIGN.md / issue 6): newest filtered page p50 < 5 ms, reopen < 1 s,
// resident memory < 300 MB at 1M documents.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore } from '../core/store/port.js';
import { openEmbeddedStore } from '../host/store/embedded/index.js';

export interface BenchResult {
  name: string;
  params: Record<string, unknown>;
  metrics: Record<string, number>;
  targets: Record<string, { limit: number; value: number; pass: boolean }>;
}

const LEVELS = ['debug', 'info', 'info', 'info', 'warning', 'error'] as const;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

async function createIndexes(store: DocumentStore): Promise<void> {
  const logs = store.collection('logs');
  await logs.createIndex({ fields: { created_at: -1 } });
  await logs.createIndex({ fields: { level: 1, created_at: -1 } });
  await logs.createIndex({ fields: { 'context.flow_id': 1, created_at: -1 } });
}

export async function storeBench(options: { docs?: number; progress?: (line: string) => void } = {}): Promise<BenchResult> {
  const total = options.docs ?? 1_000_000;
  const log = options.progress ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-bench-store-'));
  const file = join(dir, 'bench.db');
  try {
    let store: DocumentStore = openEmbeddedStore({ file, exclusive: true });
    await createIndexes(store);
    const logs = store.collection('logs');
    const start = Date.now() - total * 1000;
    const batch = 10_000;
    const insertStarted = process.hrtime.bigint();
    for (let i = 0; i < total; i += batch) {
      const docs = [];
      for (let j = i; j < Math.min(total, i + batch); j++) {
        docs.push({
          level: LEVELS[j % LEVELS.length],
          message: `Step ${j % 7} of job ${Math.floor(j / 5)} finished with ${j % 13} items`,
          context: { flow_id: (j % 200) + 1, job_id: Math.floor(j / 5) + 1, pipeline_id: (j % 20) + 1 },
          created_at: new Date(start + j * 1000),
        });
      }
      await logs.insertMany(docs);
      if ((i / batch) % 10 === 0) log(`inserted ${Math.min(total, i + batch)} / ${total}`);
    }
    const insertSeconds = Number(process.hrtime.bigint() - insertStarted) / 1e9;

    const page = { sort: { created_at: -1 as const }, limit: 50 };
    const filtered = await timeIt(200, () => logs.find({ level: 'error' }, page));
    const unfiltered = await timeIt(200, () => logs.find({}, page));
    const byFlow = await timeIt(200, () => logs.find({ 'context.flow_id': 42 }, page));
    const deepPage = await timeIt(50, () => logs.find({ level: 'error' }, { ...page, skip: 5000 }));
    const count = await timeIt(5, () => logs.count({ level: 'error' }));

    await store.close();
    const reopenStarted = process.hrtime.bigint();
    store = openEmbeddedStore({ file, exclusive: true });
    await store.collection('logs').find({ level: 'error' }, page);
    const reopenMs = Number(process.hrtime.bigint() - reopenStarted) / 1e6;
    await timeIt(50, () => store.collection('logs').find({ level: 'warning' }, page));
    const rssMb = process.memoryUsage().rss / (1024 * 1024);
    await store.close();

    const targets = {
      filtered_page_p50_ms: { limit: 5, value: filtered.p50, pass: filtered.p50 < 5 },
      reopen_ms: { limit: 1000, value: round(reopenMs), pass: reopenMs < 1000 },
      rss_mb: { limit: 300, value: round(rssMb), pass: rssMb < 300 },
    };
    return {
      name: 'store',
      params: { adapter: 'embedded', docs: total, page_size: 50 },
      metrics: {
        insert_docs_per_s: Math.round(total / insertSeconds),
        filtered_page_p50_ms: filtered.p50,
        filtered_page_p95_ms: filtered.p95,
        unfiltered_page_p50_ms: unfiltered.p50,
        unfiltered_page_p95_ms: unfiltered.p95,
        flow_page_p50_ms: byFlow.p50,
        skip_5000_page_p50_ms: deepPage.p50,
        count_filtered_p50_ms: count.p50,
        reopen_ms: round(reopenMs),
        rss_mb: round(rssMb),
      },
      targets,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
