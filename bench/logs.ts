// Logs benchmark: 1M log entries on the embedded store, then GET /logs over real HTTP
// (a test host on a file-backed data directory, cookie session as the admin client
// uses). Target: p50 < 20 ms for the newest page, unfiltered and filtered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogLevel, NewLogRecord } from '../core/logs/model.js';
import { LOGS } from '../core/logs/model.js';
import { createTestHost } from '../sdk/testing/index.js';
import type { BenchResult } from './store.js';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'info', 'info', 'info', 'warning', 'error', 'debug', 'info', 'critical'];
const BATCH = 10_000;
const LIMIT_MS = 20;

const round = (n: number) => Math.round(n * 1000) / 1000;
// Timed requests per query: 100 when measuring, 10 in smoke mode (CI only keeps the paths alive).
const REPS = process.env.BENCH_SMOKE === '1' ? 10 : 100;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Entry j of the synthetic history: three entries per second, jobs of five entries. */
function entry(j: number, start: number): NewLogRecord {
  const job = Math.floor(j / 5) + 1;
  return {
    id: j + 2, // id 1 is the entry written through the service (the shape check)
    level: LEVELS[j % LEVELS.length]!,
    message: `Step ${j % 7} of job ${job} finished with ${j % 13} items`,
    context: {
      job_id: job,
      flow_id: (j % 200) + 1,
      pipeline_id: (j % 20) + 1,
      step: `step-${j % 7}`,
      handler: j % 2 ? 'rss' : 'wordpress',
    },
    agent_id: j % 4 === 0 ? null : (j % 3) + 1,
    user_id: j % 10 === 0 ? 1 : null,
    created_at: new Date(start + Math.floor(j / 3) * 1000),
  };
}

export async function logsBench(opts: { docs?: number; progress?: (line: string) => void } = {}): Promise<BenchResult> {
  const total = opts.docs ?? 1_000_000;
  const log = opts.progress ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-bench-logs-'));
  const t = await createTestHost({ plugins: [], config: { dataDir: dir } });
  try {
    const service = t.host.logs;
    const start = t.clock.now().getTime() - Math.ceil(total / 3) * 1000;
    // One entry through the service, so the bulk documents can be checked against its shape.
    const sample = (await t.host.store
      .collection(LOGS)
      .findOne({ id: (await service.write({ level: 'info', message: 'bench start', context: { job_id: 1 } })).id }))!;
    const shape = (doc: object) =>
      Object.keys(doc)
        .filter((k) => k !== '_id')
        .sort()
        .join(',');
    if (shape(sample) !== shape(entry(0, start)) || !(sample.created_at instanceof Date))
      throw new Error(`bench documents differ from LogsService's: ${shape(sample)}`);

    const logs = t.host.store.collection<NewLogRecord>(LOGS);
    const insertStarted = process.hrtime.bigint();
    for (let i = 0; i < total; i += BATCH) {
      const docs: NewLogRecord[] = [];
      for (let j = i; j < Math.min(total, i + BATCH); j++) docs.push(entry(j, start));
      await logs.insertMany(docs);
      if ((i / BATCH) % 10 === 0) log(`inserted ${Math.min(total, i + BATCH)} / ${total}`);
    }
    const insertSeconds = Number(process.hrtime.bigint() - insertStarted) / 1e9;

    // A cookie session, as the admin client uses: Basic auth would add a scrypt (~50 ms) per request.
    const admin = (await t.host.users.findByLogin(t.admin.login))!;
    await t.host.users.setPassword(admin.user_id, 'bench-password-1');
    const login = await fetch(`${t.url}${t.host.config.apiPrefix}/${t.host.config.coreNamespace}/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login: t.admin.login, password: 'bench-password-1' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const nonce = ((await login.json()) as { data: { nonce: string } }).data.nonce;
    const base = `${t.url}${t.host.config.apiPrefix}/${t.host.config.coreNamespace}`;

    type Answer = { success?: boolean; total?: number; total_entries?: number; items?: unknown[] };
    const get = async (path: string): Promise<Answer> => {
      const res = await fetch(`${base}${path}`, { headers: { Cookie: cookie, 'X-WP-Nonce': nonce } });
      const body = (await res.json()) as Answer;
      if (res.status !== 200 || !body.success) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      return body;
    };
    const timeIt = async (name: string, path: string, runs: number) => {
      const first = await get(path); // warm-up, and a check that the page is not empty
      if (!first.items?.length && !first.total_entries) throw new Error(`GET ${path} found nothing`);
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const started = process.hrtime.bigint();
        await get(path);
        samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      log(`${name}: p50 ${round(percentile(samples, 50))} ms, total ${first.total ?? first.total_entries}`);
      return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
    };

    const job = Math.floor(total / 10);
    const newest = await timeIt('newest page', '/logs?per_page=50&page=1&_locale=user', REPS);
    const byLevel = await timeIt('level=error', '/logs?per_page=50&level=error&_locale=user', REPS);
    const byJob = await timeIt(`job_id=${job}`, `/logs?per_page=50&job_id=${job}&_locale=user`, REPS);
    // The admin client adds agent_id to every request once an agent is chosen.
    const agentLevel = await timeIt('agent_id=2&level=error', '/logs?per_page=50&agent_id=2&level=error&_locale=user', REPS);
    const byFlowAgent = await timeIt('flow_id=42&agent_id=2', '/logs?per_page=50&flow_id=42&agent_id=2', REPS / 2);
    const pageTen = await timeIt('level=error page 10', '/logs?per_page=50&level=error&page=10', REPS / 2);
    const search = await timeIt('search', `/logs?per_page=50&search=${encodeURIComponent(`of job ${job} `)}`, 10);
    const metadata = await timeIt('metadata', '/logs/metadata', REPS / 5);
    const rssMb = process.memoryUsage().rss / (1024 * 1024);

    return {
      name: 'logs',
      params: { adapter: 'embedded', docs: total + 1, per_page: 50, transport: 'http, cookie session' },
      metrics: {
        insert_docs_per_s: Math.round(total / insertSeconds),
        newest_page_p50_ms: newest.p50,
        newest_page_p95_ms: newest.p95,
        level_page_p50_ms: byLevel.p50,
        level_page_p95_ms: byLevel.p95,
        job_page_p50_ms: byJob.p50,
        job_page_p95_ms: byJob.p95,
        agent_level_page_p50_ms: agentLevel.p50,
        agent_level_page_p95_ms: agentLevel.p95,
        flow_agent_page_p50_ms: byFlowAgent.p50,
        level_page_10_p50_ms: pageTen.p50,
        search_page_p50_ms: search.p50,
        metadata_p50_ms: metadata.p50,
        rss_mb: round(rssMb),
      },
      targets: {
        newest_page_p50_ms: { limit: LIMIT_MS, value: newest.p50, pass: newest.p50 < LIMIT_MS },
        level_page_p50_ms: { limit: LIMIT_MS, value: byLevel.p50, pass: byLevel.p50 < LIMIT_MS },
        job_page_p50_ms: { limit: LIMIT_MS, value: byJob.p50, pass: byJob.p50 < LIMIT_MS },
        agent_level_page_p50_ms: { limit: LIMIT_MS, value: agentLevel.p50, pass: agentLevel.p50 < LIMIT_MS },
      },
    };
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
