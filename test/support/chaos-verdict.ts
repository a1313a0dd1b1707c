// What a user sees after the chaos suites' load (issue 53), held against the ledger of what
// was sent and answered: the jobs (GET /jobs), the posts the runs published (wp/v2, as a
// visitor reads them) and the runs' own notes (test/support/kill-gate-plugin.ts, run-note).
import { existsSync, readFileSync } from 'node:fs';
import type { ChaosCluster } from './chaos-cluster.js';
import { call, titleOf, type ChaosFlows, type Ledger, type Sent } from './chaos-load.js';

export type ChaosJob = {
  job_id: number;
  flow_id: number;
  status: string;
  error: string | null;
  source: string;
  started_at: string | null;
  completed_at: string | null;
  engine_data: { webhook_trigger?: { payload?: { id?: string } } };
};

const UNFINISHED = ['pending', 'processing'];
const INTERRUPTED = /^Interrupted/;

/** Every job of the chaos pipeline, through whichever host serves. */
async function allJobs(cluster: ChaosCluster, pipelineId: number): Promise<ChaosJob[]> {
  const jobs: ChaosJob[] = [];
  for (let offset = 0; ; offset += 500) {
    const url = cluster.live()[0];
    if (!url) throw new Error('no host serves');
    const page = await call(url, cluster.auth, 'GET', `/jobs?pipeline_id=${pipelineId}&per_page=500&offset=${offset}&order=asc`);
    if (page.status !== 200) throw new Error(`GET /jobs answered ${page.status}: ${JSON.stringify(page.body)}`);
    const items = page.body.data as unknown as ChaosJob[];
    jobs.push(...items);
    if (items.length < 500) return jobs;
  }
}

/**
 * Polls until every acknowledged job exists and none of the pipeline's jobs is pending or
 * processing, or `quietMs` passed; answers the last look and how long the wait was.
 */
export async function settle(
  cluster: ChaosCluster,
  flows: ChaosFlows,
  ledger: Ledger,
  quietMs: number,
): Promise<{ jobs: ChaosJob[]; waitedMs: number }> {
  const from = Date.now();
  const acked = ledger.sent.filter((s) => s.jobId !== null).map((s) => s.jobId!);
  for (;;) {
    let jobs: ChaosJob[] = [];
    try {
      jobs = await allJobs(cluster, flows.pipelineId);
    } catch {
      // a host restarting: look again
    }
    const ids = new Set(jobs.map((j) => j.job_id));
    const done = jobs.length > 0 && acked.every((id) => ids.has(id)) && !jobs.some((j) => UNFINISHED.includes(j.status));
    if (done || Date.now() - from > quietMs) return { jobs, waitedMs: Date.now() - from };
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Published posts by title (each chaos item's title names its payload id). */
async function postCounts(url: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let page = 1; ; page++) {
    const res = await fetch(`${url}/api/wp/v2/posts?per_page=100&page=${page}&orderby=id&order=asc`);
    if (res.status === 400 && page > 1) return counts; // past the last page
    if (res.status !== 200) throw new Error(`wp/v2/posts answered ${res.status}`);
    const posts = (await res.json()) as Array<{ title: { rendered: string } }>;
    for (const p of posts) counts.set(p.title.rendered, (counts.get(p.title.rendered) ?? 0) + 1);
    if (posts.length < 100) return counts;
  }
}

export interface ChaosVerdict {
  counts: Record<string, number>;
  /** Acknowledged, and no job with the id the answer named. */
  lost: Sent[];
  /** Still pending or processing after the quiet period. */
  unfinished: ChaosJob[];
  /** Ended neither completed nor failed as interrupted. */
  badEnd: ChaosJob[];
  /** Job ids the run notes show more than once. */
  ranTwice: number[];
  /** Payload ids with more than one job (each request was sent once). */
  twoJobs: string[];
  /** Payload ids published more than once. */
  postedTwice: string[];
  /** Completed acknowledged runs whose post a visitor cannot find. */
  unpublished: Sent[];
  /** Delayed executes that started later than `lateMs` after their time, or never. */
  late: Array<{ id: string; jobId: number; lateMs: number | null }>;
}

export async function chaosVerdict(cluster: ChaosCluster, ledger: Ledger, jobs: ChaosJob[], lateMs: number): Promise<ChaosVerdict> {
  const byId = new Map(jobs.map((j) => [j.job_id, j]));
  const acked = ledger.sent.filter((s) => s.jobId !== null);
  const notes = existsSync(cluster.runLog) ? readFileSync(cluster.runLog, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
  const runs = new Map<number, number>();
  for (const id of notes) runs.set(id, (runs.get(id) ?? 0) + 1);
  const jobsPerPayload = new Map<string, number>();
  for (const job of jobs) {
    const id = job.engine_data?.webhook_trigger?.payload?.id;
    if (id) jobsPerPayload.set(id, (jobsPerPayload.get(id) ?? 0) + 1);
  }
  const posts = await postCounts(cluster.live()[0]!);
  const late = acked
    .filter((s) => s.kind === 'delayed')
    .map((s) => {
      const started = byId.get(s.jobId!)?.started_at;
      return { id: s.id, jobId: s.jobId!, lateMs: started ? Date.parse(started) - s.at! : null };
    })
    .filter((d) => d.lateMs === null || d.lateMs > lateMs);
  const statuses: Record<string, number> = {};
  for (const job of jobs) {
    const key = job.status === 'failed' && INTERRUPTED.test(job.error ?? '') ? 'failed_interrupted' : job.status;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return {
    counts: {
      sent: ledger.sent.length,
      acknowledged: acked.length,
      jobs: jobs.length,
      kills: ledger.kills.length,
      posts: [...posts.values()].reduce((a, b) => a + b, 0),
      ...statuses,
    },
    lost: acked.filter((s) => !byId.has(s.jobId!)),
    unfinished: jobs.filter((j) => UNFINISHED.includes(j.status)),
    badEnd: jobs.filter(
      (j) => !UNFINISHED.includes(j.status) && j.status !== 'completed' && !(j.status === 'failed' && INTERRUPTED.test(j.error ?? '')),
    ),
    ranTwice: [...runs].filter(([, n]) => n > 1).map(([id]) => id),
    twoJobs: [...jobsPerPayload].filter(([, n]) => n > 1).map(([id]) => id),
    postedTwice: ledger.sent.filter((s) => (posts.get(titleOf(s.id)) ?? 0) > 1).map((s) => s.id),
    unpublished: acked.filter((s) => byId.get(s.jobId!)?.status === 'completed' && !posts.get(titleOf(s.id))),
    late,
  };
}
