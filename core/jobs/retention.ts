import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../kernel/clock.js';
import type { DocumentStore, Filter, StoreSpace } from '../store/port.js';
import { JOBS, PROCESSED_ITEMS, type JobRecord, type ProcessedItemRecord } from './model.js';

const DAY_MS = 86_400_000;
/**
 * Statuses a prune never touches: the run is not over. `waiting` is not a status yet; it
 * is listed so a run that waits (a later issue) is safe from the day it exists.
 */
export const UNFINISHED_STATUSES = ['pending', 'processing', 'waiting'] as const;
/** Jobs (or processed items) deleted per write: one short transaction on SQLite, then the event loop turns. */
export const PRUNE_BATCH = 200;
/** Free pages given back per incremental vacuum step (1 MiB of 4 KiB pages), between turns. */
const VACUUM_PAGES = 256;

/** How a prune gives the space back: none, free pages a batch at a time, or rewrite the store. */
export type VacuumMode = 'none' | 'incremental' | 'full';
/**
 * What a prune an operator asks for (POST /jobs/prune, `flowhost prune`) does when not told:
 * one VACUUM. The host's files stay in auto_vacuum NONE (docs/performance.md, "Retention"),
 * where `incremental` gives nothing back; the hourly job keeps `incremental` (on such a
 * file: the pages are left for reuse), since it runs unattended and a VACUUM holds the store.
 */
export const ON_DEMAND_VACUUM: VacuumMode = 'full';

/** The log lines of jobs, for a prune (the logs domain owns them). */
export interface JobLogLines {
  deleteOfJobs(jobIds: readonly number[]): Promise<number>;
  countOfJobs(jobIds: readonly number[]): Promise<number>;
}

export interface PruneRequest {
  /** Finished jobs that ended more than this many days ago go; 0 prunes no job. */
  jobRetentionDays: number;
  /** Processed-item records claimed more than this many days ago go; 0 (the default) keeps them all. */
  forgetProcessedAfterDays: number;
  /** Count what would go; delete nothing. */
  dryRun?: boolean;
  /** Stop after this many jobs (a caller that pages with `afterJobId`); all when absent. */
  limit?: number;
  /** Only jobs with a larger id (the last call's `last_job_id`: a dry run pages on). */
  afterJobId?: number;
  /** After pruning: none, free pages a batch at a time (incremental), or rewrite the store (full). */
  giveSpaceBack?: VacuumMode;
  /** Called after every batch (a CLI's progress line). */
  onProgress?: (progress: { jobs: number; log_lines: number; processed_items: number }) => void;
}

export interface PruneReport {
  dry_run: boolean;
  /** Jobs that ended before this went; null when job retention is off. */
  jobs_cutoff: string | null;
  processed_items_cutoff: string | null;
  jobs: number;
  log_lines: number;
  processed_items: number;
  /** Jobs (and processed items) a later call would still prune: 0 when this call reached the end. */
  remaining: { jobs: number; processed_items: number };
  /** The largest job id looked at (a dry run's next `after_job_id`); null when none. */
  last_job_id: number | null;
  /** Bytes the store gave back to the file system; null when it was not asked to or cannot tell. */
  bytes_freed: number | null;
  /** The store's size after the prune, and what of it is free for reuse. */
  store: StoreSpace | null;
}

/**
 * Retention: finished jobs past `job_retention_days` go with their step records (kept in
 * the job) and their log lines, in batches, so a prune of 100,000 jobs never holds the
 * store for long (the embedded store is synchronous: one batch is one short transaction,
 * then other work runs). Unfinished jobs never go. Processed-item records are the dedup
 * memory and go only by their own setting. Both stores: the same time-field queries.
 */
export class JobRetention {
  constructor(
    private readonly store: DocumentStore,
    private readonly logLines: JobLogLines,
    private readonly clock: Clock,
  ) {}

  private get jobs() {
    return this.store.collection<JobRecord>(JOBS);
  }

  private get processed() {
    return this.store.collection<ProcessedItemRecord>(PROCESSED_ITEMS);
  }

  /** The time-field indexes the prune reads by. */
  async init(): Promise<void> {
    await this.jobs.createIndex({ fields: { completed_at: 1 } });
    await this.processed.createIndex({ fields: { claimed_at: 1 } });
  }

  private cutoff(days: number): Date | null {
    return days > 0 ? new Date(this.clock.now().getTime() - days * DAY_MS) : null;
  }

  async prune(request: PruneRequest): Promise<PruneReport> {
    const jobsCutoff = this.cutoff(request.jobRetentionDays);
    const itemsCutoff = this.cutoff(request.forgetProcessedAfterDays);
    const report: PruneReport = {
      dry_run: request.dryRun === true,
      jobs_cutoff: jobsCutoff?.toISOString() ?? null,
      processed_items_cutoff: itemsCutoff?.toISOString() ?? null,
      jobs: 0,
      log_lines: 0,
      processed_items: 0,
      remaining: { jobs: 0, processed_items: 0 },
      last_job_id: null,
      bytes_freed: null,
      store: null,
    };
    const limit = request.limit ?? Number.POSITIVE_INFINITY;
    if (jobsCutoff) await this.pruneJobs(jobsCutoff, request, limit, report);
    if (itemsCutoff) await this.pruneProcessed(itemsCutoff, request, limit, report);
    const finished = report.remaining.jobs === 0 && report.remaining.processed_items === 0;
    const mode = request.giveSpaceBack ?? 'incremental';
    if (!report.dry_run && finished && mode !== 'none') report.bytes_freed = await this.giveSpaceBack(mode === 'full');
    report.store = this.store.space ? await this.store.space() : null;
    return report;
  }

  /** Finished jobs that ended before the cutoff (completed_at is set by every final write). */
  private jobFilter(cutoff: Date, afterJobId: number | undefined): Filter {
    const filter: Filter = { completed_at: { $lt: cutoff }, status: { $nin: [...UNFINISHED_STATUSES] } };
    if (afterJobId !== undefined) filter.job_id = { $gt: afterJobId };
    return filter;
  }

  private async pruneJobs(cutoff: Date, request: PruneRequest, limit: number, report: PruneReport): Promise<void> {
    let after = request.afterJobId;
    while (report.jobs < limit) {
      const size = Math.min(PRUNE_BATCH, limit - report.jobs);
      const batch = await this.jobs.find(this.jobFilter(cutoff, after), { sort: { job_id: 1 }, limit: size, projection: { job_id: 1 } });
      if (batch.length === 0) break;
      const ids = batch.map((job) => job.job_id);
      after = ids[ids.length - 1];
      report.last_job_id = after ?? null;
      if (request.dryRun) {
        report.log_lines += await this.logLines.countOfJobs(ids);
        report.jobs += ids.length;
      } else {
        // Log lines first: a crash between the two leaves the job, which the next prune takes.
        report.log_lines += await this.logLines.deleteOfJobs(ids);
        report.jobs += await this.jobs.deleteMany({ job_id: { $in: ids }, status: { $nin: [...UNFINISHED_STATUSES] } });
      }
      request.onProgress?.({ jobs: report.jobs, log_lines: report.log_lines, processed_items: report.processed_items });
      await nextTurn();
    }
    report.remaining.jobs = await this.jobs.count(this.jobFilter(cutoff, after));
  }

  private async pruneProcessed(cutoff: Date, request: PruneRequest, limit: number, report: PruneReport): Promise<void> {
    const filter: Filter = { claimed_at: { $lt: cutoff } };
    if (request.dryRun) {
      // Counted once, on a dry run's first call: a caller paging on with after_job_id adds no more.
      if (request.afterJobId === undefined) report.processed_items = await this.processed.count(filter);
      return;
    }
    while (report.processed_items < limit) {
      const size = Math.min(PRUNE_BATCH, limit - report.processed_items);
      const batch = await this.processed.find(filter, { limit: size, projection: { _id: 1 } });
      if (batch.length === 0) break;
      report.processed_items += await this.processed.deleteMany({ _id: { $in: batch.map((item) => item._id) } });
      request.onProgress?.({ jobs: report.jobs, log_lines: report.log_lines, processed_items: report.processed_items });
      await nextTurn();
    }
    report.remaining.processed_items = await this.processed.count(filter);
  }

  /**
   * Incremental: free pages a batch at a time, the event loop turning between batches,
   * until none is left or a step gives nothing back. Full: one VACUUM (a maintenance window).
   */
  private async giveSpaceBack(full: boolean): Promise<number | null> {
    if (!this.store.giveSpaceBack) return null;
    if (full) return this.store.giveSpaceBack({ full: true });
    let freed = 0;
    for (;;) {
      const step = await this.store.giveSpaceBack({ maxPages: VACUUM_PAGES });
      freed += step;
      if (step === 0) return freed;
      await nextTurn();
    }
  }
}
