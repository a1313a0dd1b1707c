/**
 * Syncs as background jobs: a job document (its progress and result, read by
 * GET /sync/jobs/{id} and the CLI's progress bar) and a run of the plugin's scheduler job
 * `docsync:sync`, which any host may pick up. Projects are taken one at a time under a
 * lease, so two hosts never sync one project at once.
 */
import type { Collection, ContentStore, Logger, PluginScheduler, Term } from '../../sdk/index.js';
import { SourceClient } from './github.js';
import type { ProjectLeases } from './lease.js';
import { META, TAXONOMY } from './model.js';
import type { Projects } from './projects.js';
import type { SyncEngine, SyncError } from './sync-engine.js';
import type { AccessToken } from './token.js';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface SyncTotals {
  repos_synced: number;
  total_added: number;
  total_updated: number;
  total_removed: number;
  total_unchanged: number;
  blobs_fetched: number;
  added: string[];
  updated: string[];
  removed: string[];
  errors: SyncError[];
  message: string;
}

export interface JobDoc extends Record<string, unknown> {
  _id: string;
  term_ids: number[] | null;
  force: boolean;
  status: JobStatus;
  progress: { files_done: number; files_total: number; repository: string; repos_done: number; repos_total: number };
  result: SyncTotals | null;
  error: string | null;
  created_at: Date;
  /** When it became `running` (absent on jobs stored before this field existed). */
  started_at?: Date | null;
  finished_at: Date | null;
}

export const JOB_NAME = 'sync';
export const INTERRUPTED =
  'Interrupted: the host stopped while the sync was running; start a new sync (posts already written are kept and skipped).';
/** Lists in an answer stop here; counts stay exact. */
const LIST_CAP = 1000;

export class SyncJobs {
  constructor(
    private readonly jobs: Collection<JobDoc>,
    private readonly nextId: () => Promise<number>,
    private readonly scheduler: PluginScheduler,
    private readonly deps: {
      content: ContentStore;
      projects: Projects;
      engine: SyncEngine;
      leases: ProjectLeases;
      token: AccessToken;
      baseUrl: string;
      log: Logger;
      now: () => Date;
    },
  ) {}

  async start(termIds: number[] | null, force: boolean): Promise<JobDoc> {
    const job: JobDoc = {
      _id: `sync-${await this.nextId()}`,
      term_ids: termIds,
      force,
      status: 'queued',
      progress: { files_done: 0, files_total: 0, repository: '', repos_done: 0, repos_total: termIds?.length ?? 0 },
      result: null,
      error: null,
      created_at: this.deps.now(),
      started_at: null,
      finished_at: null,
    };
    await this.jobs.insertOne(job);
    await this.scheduler.now(JOB_NAME, { job_id: job._id });
    return job;
  }

  async get(id: string): Promise<JobDoc | null> {
    return (await this.jobs.findOne({ _id: id })) as JobDoc | null;
  }

  /** The job once finished, or as it stands after `ms` (real time: the request's budget). */
  async wait(id: string, ms: number): Promise<JobDoc | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const job = await this.get(id);
      if (!job || job.status === 'completed' || job.status === 'failed' || Date.now() >= deadline) return job;
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(1, deadline - Date.now()))));
    }
  }

  /** Every project term with a repository address. */
  async repositoryProjects(): Promise<Term[]> {
    const terms = await this.deps.projects.all();
    return [...terms.values()]
      .filter((t) => typeof t.meta[META.repository] === 'string' && t.meta[META.repository] !== '')
      .sort((a, b) => a.term_id - b.term_id);
  }

  /** The scheduler job: runs a sync job to its end (a second run of a finished one does nothing). */
  async run(jobId: string): Promise<void> {
    const job = await this.get(jobId);
    if (!job || job.status === 'completed' || job.status === 'failed') return;
    try {
      const result = await this.execute(job);
      await this.jobs.updateOne({ _id: jobId }, { $set: { status: 'completed', result, finished_at: this.deps.now() } });
    } catch (error) {
      this.deps.log.error({ err: error, job_id: jobId }, 'docsync: sync job failed');
      await this.jobs.updateOne(
        { _id: jobId },
        { $set: { status: 'failed', error: error instanceof Error ? error.message : String(error), finished_at: this.deps.now() } },
      );
    }
  }

  /**
   * At boot (the SDK's repairInterrupted hook): syncs a killed host left `running` since
   * before `startedBefore` are failed as interrupted and their project leases given back,
   * so a new sync of those projects starts at once rather than when the lease lapses.
   * Jobs from before `started_at` existed are judged by their creation.
   */
  async closeInterrupted(startedBefore: Date): Promise<string[]> {
    const stuck = await this.jobs.find({
      status: 'running',
      $or: [{ started_at: { $lte: startedBefore } }, { started_at: { $exists: false }, created_at: { $lte: startedBefore } }],
    });
    const closed: string[] = [];
    for (const job of stuck) {
      // Only if still running: on a shared store another host may have ended it meanwhile.
      const ended = await this.jobs.updateOne(
        { _id: job._id, status: 'running' },
        { $set: { status: 'failed', error: INTERRUPTED, finished_at: this.deps.now() } },
      );
      if (ended.modifiedCount === 0) continue;
      await this.deps.leases.releaseAllOf(job._id);
      closed.push(job._id);
    }
    if (closed.length)
      this.deps.log.warn(
        { job_ids: closed },
        `docsync: ${closed.length} sync job(s) interrupted by a stopped host were failed; their projects are free to sync again`,
      );
    return closed;
  }

  private async execute(job: JobDoc): Promise<SyncTotals> {
    const { content, engine, leases, token, baseUrl } = this.deps;
    const terms: Term[] = [];
    const totals: SyncTotals = {
      repos_synced: 0,
      total_added: 0,
      total_updated: 0,
      total_removed: 0,
      total_unchanged: 0,
      blobs_fetched: 0,
      added: [],
      updated: [],
      removed: [],
      errors: [],
      message: '',
    };
    if (job.term_ids === null) terms.push(...(await this.repositoryProjects()));
    else {
      for (const id of job.term_ids) {
        const term = await content.getTerm(TAXONOMY, id);
        if (term) terms.push(term);
        else totals.errors.push({ code: 'not_found', message: `No project term with id ${id}`, term_id: id });
      }
    }
    await this.jobs.updateOne(
      { _id: job._id },
      { $set: { status: 'running', started_at: this.deps.now(), 'progress.repos_total': terms.length } },
    );
    const client = new SourceClient(baseUrl, await token.current());
    for (const [index, term] of terms.entries()) {
      if (!(await leases.acquire(term.term_id, job._id))) {
        totals.errors.push({
          code: 'docsync_sync_busy',
          message: `Project '${term.slug}' is being synced by another job; try again when it ends`,
          term_id: term.term_id,
        });
        continue;
      }
      try {
        const result = await engine.syncProject(client, term, job.force, async (p) => {
          await this.jobs.updateOne({ _id: job._id }, { $set: { progress: { ...p, repos_done: index, repos_total: terms.length } } });
          await leases.renew(term.term_id, job._id);
        });
        if (
          !result.errors.some(
            (e) => !['docsync_file_too_large', 'docsync_too_many_files', 'docsync_tree_truncated', 'docsync_file_failed'].includes(e.code),
          )
        )
          totals.repos_synced++;
        totals.total_added += result.added.length;
        totals.total_updated += result.updated.length;
        totals.total_removed += result.removed.length;
        totals.total_unchanged += result.unchanged;
        totals.blobs_fetched += result.blobs_fetched;
        const label = (path: string) => `${result.repository}:${path}`;
        totals.added.push(...result.added.map(label));
        totals.updated.push(...result.updated.map(label));
        totals.removed.push(...result.removed.map(label));
        totals.errors.push(...result.errors);
      } finally {
        await leases.release(term.term_id, job._id);
      }
    }
    for (const key of ['added', 'updated', 'removed'] as const) totals[key] = totals[key].slice(0, LIST_CAP);
    totals.errors = totals.errors.slice(0, LIST_CAP);
    totals.message = `Synced ${totals.repos_synced} of ${terms.length} repositor${terms.length === 1 ? 'y' : 'ies'}: ${totals.total_added} added, ${totals.total_updated} updated, ${totals.total_removed} removed, ${totals.total_unchanged} unchanged${totals.errors.length ? `, ${totals.errors.length} error(s)` : ''}.`;
    await this.jobs.updateOne({ _id: job._id }, { $set: { 'progress.repos_done': terms.length } });
    return totals;
  }
}
