// Agenda 6's JobRepository over the DocumentStore port, so one scheduler runs on the
// embedded store and on MongoDB. Locking follows Agenda's MongoDB backend exactly: a job
// is claimed by one atomic findOneAndUpdate that sets `lockedAt`, sorted by nextRunAt
// then priority, matching "unlocked and due" or "locked before the lock deadline" (the
// holder died or hung), and the port guarantees two callers never both win it. On the
// embedded store the claim reads its candidate first (see getNextJobToRun) and then
// claims it by id under the same condition.
import {
  computeJobState,
  type JobId,
  type JobParameters,
  type JobRepository,
  type JobRepositoryOptions,
  type JobsOverview,
  type JobsQueryOptions,
  type JobsResult,
  type JobWithState,
  type RemoveJobsOptions,
} from 'agenda';
import type { Collection, DocumentStore, Filter, SortSpec } from '../../core/store/port.js';
import { JOBS_COLLECTION, toJobParameters, toLockedJob, type JobDocument, type JobFields } from './job-document.js';
import { filterFromQueryOptions, filterFromRemoveOptions, sortFromQueryOptions } from './job-filters.js';
import { saveJob } from './save-job.js';

/** Which due job is claimed first: the earliest, then the most important. */
const LOCK_SORT: SortSpec = { nextRunAt: 1, priority: -1 };
const CANDIDATE = { _id: 1, nextRunAt: 1, priority: 1 } as const;
type Candidate = { _id: string; nextRunAt?: Date | null; priority?: number };

/** The one of two candidates LOCK_SORT puts first (a missing nextRunAt sorts first, as in MongoDB). */
function firstInLockOrder(a: Candidate | null, b: Candidate | null): Candidate | null {
  if (!a || !b) return a ?? b;
  const at = (c: Candidate) => (c.nextRunAt instanceof Date ? c.nextRunAt.getTime() : Number.NEGATIVE_INFINITY);
  if (at(a) !== at(b)) return at(a) < at(b) ? a : b;
  return (a.priority ?? 0) >= (b.priority ?? 0) ? a : b;
}

export class PortJobRepository implements JobRepository {
  readonly jobs: Collection<JobFields>;
  private connecting: Promise<void> | undefined;

  /**
   * Whether a lock reads its two candidates first (see getNextJobToRun): on the embedded
   * store. MongoDB plans each `$or` branch on its own index, so there one atomic
   * findOneAndUpdate does it, as in Agenda's own backend.
   */
  private readonly lockByCandidate: boolean;

  constructor(store: DocumentStore, collectionName = JOBS_COLLECTION) {
    this.jobs = store.collection<JobFields>(collectionName);
    this.lockByCandidate = store.kind === 'embedded';
  }

  /** Creates the indexes once; later calls share the first call's promise. */
  connect(): Promise<void> {
    this.connecting ??= this.createIndexes();
    return this.connecting;
  }

  private async createIndexes(): Promise<void> {
    // The lock query filters by name and sorts by nextRunAt / priority.
    await this.jobs.createIndex({ name: 'agenda_lock', fields: { name: 1, nextRunAt: 1, priority: -1, lockedAt: 1, disabled: 1 } });
    // Jobs whose holder died or hung (lockedAt before the deadline), without a scan.
    await this.jobs.createIndex({ name: 'agenda_locked', fields: { name: 1, lockedAt: 1 } });
    await this.jobs.createIndex({ name: 'agenda_single', fields: { singleKey: 1 }, unique: true, sparse: true });
    await this.jobs.createIndex({ name: 'agenda_unique', fields: { uniqueKey: 1 }, unique: true, sparse: true });
    // A flow's schedule is found by `data.flowId` (flow-schedule.ts: the unique() upsert, the
    // next-run lookup, cancel). Unindexed, each was a scan of every flow's job: creating the
    // 10,000th flow read 10,000 documents three times over.
    await this.jobs.createIndex({ name: 'agenda_flow', fields: { 'data.flowId': 1, name: 1 } });
  }

  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const filter = filterFromQueryOptions(options);
    const sort = sortFromQueryOptions(options.sort);
    const skip = options.skip ?? 0;
    const limit = options.limit ?? 0;
    const now = new Date();
    const withState = (doc: JobDocument): JobWithState => {
      const job = toJobParameters(doc) as JobParameters & { _id: JobId };
      return { ...job, state: computeJobState(job, now) };
    };
    if (!options.state) {
      // State cannot exclude anything here, so the store pages.
      const [docs, total] = await Promise.all([
        this.jobs.find(filter, { sort, ...(skip > 0 ? { skip } : {}), ...(limit > 0 ? { limit } : {}) }),
        this.jobs.count(filter),
      ]);
      return { jobs: docs.map(withState), total };
    }
    // State is computed from several timestamps in code, so filter and page after reading.
    const state = options.state;
    const all = (await this.jobs.find(filter, { sort }))
      .map(withState)
      .filter((job) => (state === 'paused' ? job.disabled === true : job.state === state));
    return { jobs: limit > 0 ? all.slice(skip, skip + limit) : all.slice(skip), total: all.length };
  }

  async getJobsOverview(): Promise<JobsOverview[]> {
    const now = new Date();
    const byName = new Map<string, JobsOverview>();
    for (const doc of await this.jobs.find({}, { sort: { name: 1 } })) {
      let overview = byName.get(doc.name);
      if (!overview) {
        overview = { name: doc.name, total: 0, running: 0, scheduled: 0, queued: 0, completed: 0, failed: 0, repeating: 0, paused: 0 };
        byName.set(doc.name, overview);
      }
      const job = toJobParameters(doc);
      overview.total++;
      overview[computeJobState(job, now)]++;
      if (job.disabled === true) overview.paused++;
    }
    return [...byName.values()];
  }

  /** The port has no distinct/aggregate: read the names only and deduplicate here. */
  async getDistinctJobNames(): Promise<string[]> {
    const docs = await this.jobs.find({}, { projection: { name: 1 } });
    return [...new Set(docs.map((doc) => doc.name))];
  }

  async getJobById(id: string): Promise<JobParameters | null> {
    if (typeof id !== 'string' || !id) return null;
    const doc = await this.jobs.findOne({ _id: id });
    return doc ? toJobParameters(doc) : null;
  }

  getQueueSize(): Promise<number> {
    return this.jobs.count({ nextRunAt: { $lt: new Date() } });
  }

  async removeJobs(options: RemoveJobsOptions): Promise<number> {
    const filter = filterFromRemoveOptions(options);
    return filter ? this.jobs.deleteMany(filter) : 0;
  }

  saveJob<DATA = unknown>(job: JobParameters<DATA>, options: JobRepositoryOptions | undefined): Promise<JobParameters<DATA>> {
    return saveJob(this.jobs, job, options);
  }

  /** What the processor changes while running a job; the job must still exist. */
  async saveJobState(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<void> {
    if (!job._id) throw new Error('Cannot save job state without job ID');
    const date = (value: Date | string | undefined | null) => (value ? new Date(value) : null);
    const result = await this.jobs.updateOne(
      { _id: String(job._id), name: job.name },
      {
        $set: {
          lockedAt: date(job.lockedAt),
          nextRunAt: date(job.nextRunAt),
          lastRunAt: date(job.lastRunAt),
          progress: job.progress ?? null,
          failReason: job.failReason ?? null,
          failCount: job.failCount ?? null,
          failedAt: date(job.failedAt),
          lastFinishedAt: date(job.lastFinishedAt),
          lastModifiedBy: options?.lastModifiedBy ?? null,
        },
      },
    );
    if (result.matchedCount !== 1) {
      throw new Error(`job ${job._id} (name: ${job.name}) cannot be updated in the database, maybe it does not exist anymore?`);
    }
  }

  /** Lock one known job, if it is still unlocked and unchanged since it was read. */
  async lockJob(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    if (!job._id) return undefined;
    const doc = await this.jobs.findOneAndUpdate(
      { _id: String(job._id), name: job.name, lockedAt: null, nextRunAt: job.nextRunAt ?? null, disabled: { $ne: true } },
      { $set: { lockedAt: new Date(), lastModifiedBy: options?.lastModifiedBy ?? null } },
      { sort: LOCK_SORT, returnDocument: 'after' },
    );
    return doc ? toLockedJob(doc) : undefined;
  }

  /** Release a lock taken while filling the queue; a job already running (nextRunAt null) keeps it. */
  async unlockJob(job: JobParameters): Promise<void> {
    if (!job._id) return;
    await this.jobs.updateOne({ _id: String(job._id), nextRunAt: { $ne: null } }, { $set: { lockedAt: null } });
  }

  /** Release every lock this Agenda holds (on stop), running one-off jobs included. */
  async unlockJobs(jobIds: Array<JobId | string>): Promise<void> {
    if (jobIds.length === 0) return;
    await this.jobs.updateMany({ _id: { $in: jobIds.map(String) } }, { $set: { lockedAt: null } });
  }

  async getNextJobToRun(
    jobName: string,
    nextScanAt: Date,
    lockDeadline: Date,
    now: Date | undefined,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters | undefined> {
    const due: Filter = { lockedAt: { $eq: null }, nextRunAt: { $lte: nextScanAt } };
    const expired: Filter = { lockedAt: { $lte: lockDeadline } };
    const ofName: Filter = { name: jobName, disabled: { $ne: true } };
    const claimable: Filter = { ...ofName, $or: [due, expired] };
    const lock = { $set: { lockedAt: now ?? new Date(), lastModifiedBy: options?.lastModifiedBy ?? null } };
    if (!this.lockByCandidate) {
      const doc = await this.jobs.findOneAndUpdate(claimable, lock, { sort: LOCK_SORT, returnDocument: 'after' });
      return doc ? toLockedJob(doc) : undefined;
    }
    // SQLite answers the $or above from one index only by reading every job of the name:
    // 6.8 ms at 10,000 flows, and Agenda asks once per job it locks plus once to learn that
    // nothing more is due, every poll. Each branch alone is an index range (agenda_lock,
    // agenda_locked). The earlier candidate of the two is then claimed by id under the same
    // condition, so one that another claim locked meanwhile is not taken: look again. A
    // lost claim means another won a job, so the loop ends; the bound is only a backstop.
    for (let attempt = 0; attempt < 100; attempt++) {
      const [dueFirst, expiredFirst] = await Promise.all([
        this.jobs.findOne({ ...ofName, ...due }, { sort: LOCK_SORT, projection: CANDIDATE }),
        this.jobs.findOne({ ...ofName, ...expired }, { sort: LOCK_SORT, projection: CANDIDATE }),
      ]);
      const candidate = firstInLockOrder(dueFirst, expiredFirst);
      if (!candidate) return undefined;
      const doc = await this.jobs.findOneAndUpdate({ _id: candidate._id, ...claimable }, lock, { returnDocument: 'after' });
      if (doc) return toLockedJob(doc);
    }
    return undefined;
  }

  async disableJobs(options: RemoveJobsOptions): Promise<number> {
    const filter = filterFromRemoveOptions(options);
    return filter ? (await this.jobs.updateMany(filter, { $set: { disabled: true } })).modifiedCount : 0;
  }

  async enableJobs(options: RemoveJobsOptions): Promise<number> {
    const filter = filterFromRemoveOptions(options);
    return filter ? (await this.jobs.updateMany(filter, { $set: { disabled: false } })).modifiedCount : 0;
  }

  purgeAllJobs(): Promise<number> {
    return this.jobs.deleteMany({});
  }
}
