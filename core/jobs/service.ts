import type { ActingUserRecord } from '../kernel/acting-user.js';
import type { Clock } from '../kernel/clock.js';
import {
  DuplicateKeyError,
  type BulkOp,
  type BulkResult,
  type Collection,
  type DocumentStore,
  type Filter,
  type IndexSpec,
  type StoreSpace,
} from '../store/port.js';
import { createBatcher, idBlocks, insertBatcher } from '../store/batcher.js';
import {
  JOBS,
  PROCESSED_ITEMS,
  type DecidedItem,
  type JobRecord,
  type JobReview,
  type JobStatus,
  type ProcessedItemRecord,
  type JobRevision,
  type RanStep,
  type ReleasedClaim,
  type ResumedWith,
  type RetryFrom,
  type RunCheckpoint,
  type StepOutcome,
  type WorkflowStep,
} from './model.js';
import type { JobsApi } from '../../sdk/contract/jobs.js';
import { apiError } from '../errors/catalogue.js';

/** The jobs collection's indexes (the trigger benchmark's floor server builds the same). */
export const JOB_INDEXES: readonly IndexSpec[] = [
  { fields: { job_id: 1 }, unique: true },
  { fields: { flow_id: 1, job_id: -1 } },
  { fields: { status: 1, job_id: -1 } },
  // The flow's queue of webhook jobs, oldest first.
  { fields: { flow_id: 1, status: 1, queued: 1, job_id: 1 } },
];

export interface NewJob {
  flow_id: number | null;
  pipeline_id: number | null;
  parent_job_id?: number | null;
  label: string;
  engine_data?: Record<string, unknown>;
  workflow?: WorkflowStep[] | null;
  source: JobRecord['source'];
  scheduled_for?: Date | null;
  /** Waits in its flow's queue (webhook jobs): started by the end of the flow's current run. */
  queued?: boolean;
  started_by?: ActingUserRecord | null;
  /** A retry (POST /jobs/{id}/retry): the job it retries, from where, and where its run starts. */
  retry?: { of: number; from: RetryFrom; resume?: JobRecord['resume'] };
  /** A retry: the item decisions of the run it retries (its approval steps wait only for the rest). */
  decided?: DecidedItem[];
}

export interface JobListQuery {
  orderby: 'job_id' | 'created_at' | 'status';
  order: 'ASC' | 'DESC';
  per_page: number;
  offset: number;
  status?: JobStatus;
  flow_id?: number;
  pipeline_id?: number;
  parent_job_id?: number;
  hide_children?: boolean;
}

/** Queued jobs a drain loop reads at once on a single-writer store (see oldestQueued). */
const QUEUE_LOOKAHEAD = 64;
/** Job ids reserved per write on a store this process alone writes (see idBlocks). */
const ID_BLOCK = 100;

/** Jobs and the processed-items claims their fetch steps make. */
export class JobsService implements JobsApi {
  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
  ) {}

  get jobs(): Collection<JobRecord> {
    return this.store.collection<JobRecord>(JOBS);
  }

  get processed(): Collection<ProcessedItemRecord> {
    return this.store.collection<ProcessedItemRecord>(PROCESSED_ITEMS);
  }

  /**
   * Where a stopping host leaves the job ids it reserved and did not use (embedded store):
   * the next start hands them out first, so job ids run on across a restart instead of
   * jumping by up to a block (which looked like lost jobs). A crash leaves no note: then
   * the gap stays, as before.
   */
  private get leftovers() {
    return this.store.collection<{ _id: string; next: number; end: number }>('id_leftovers');
  }

  /** Notes the unused rest of this process's id block (the host is stopping). */
  async keepUnusedIds(): Promise<void> {
    const unused = this.takeJobIds.unused();
    if (!this.store.singleWriter || !unused) return;
    await this.leftovers.updateOne({ _id: 'jobs' }, { $set: unused }, { upsert: true });
  }

  /**
   * Carries on from a stopped host's unused ids, only when provably unused: the sequence
   * has not moved since (the probe id is the note's `end`) and no job has an id from
   * `next` on (a job made after the note was written). Otherwise the probe id comes next.
   */
  private async resumeIds(): Promise<void> {
    if (!this.store.singleWriter) return;
    const note = await this.leftovers.findOne({ _id: 'jobs' });
    if (note) await this.leftovers.deleteOne({ _id: 'jobs' });
    const probe = await this.store.nextId('jobs', 1);
    const unused = note && probe === note.end && (await this.jobs.count({ job_id: { $gte: note.next } })) === 0;
    this.takeJobIds.resume(unused ? note.next : probe, probe + 1);
  }

  async init(): Promise<void> {
    for (const spec of JOB_INDEXES) await this.jobs.createIndex(spec);
    await this.resumeIds();
    await this.processed.createIndex({ fields: { job_id: 1 } });
    await this.processed.createIndex({ fields: { flow_id: 1 } });
    await this.processed.createIndex({ fields: { pipeline_id: 1 } });
  }

  /**
   * Concurrent creates share one id block and one insertMany (see core/store/batcher.ts),
   * in one flush: ids are taken right before the insert, so a job waits one turn, not two,
   * and across hosts ids are inserted in the order they were reserved.
   */
  private readonly takeJobIds = idBlocks(
    (count) => this.store.nextId('jobs', count),
    () => (this.store.singleWriter ? ID_BLOCK : 0),
  );
  private readonly inserts = insertBatcher<JobRecord, JobRecord, Omit<JobRecord, 'job_id'>>(
    (docs) => this.jobs.insertMany(docs),
    (doc) => this.jobs.insertOne(doc),
    {
      prepare: async (items) => {
        const first = await this.takeJobIds(items.length);
        return items.map((item, i) => ({ job_id: first + i, ...item }) as JobRecord);
      },
    },
  );

  /** Stores a new pending job; resolves once it is stored. */
  async create(input: NewJob): Promise<JobRecord> {
    return this.inserts.add({
      flow_id: input.flow_id,
      pipeline_id: input.pipeline_id,
      parent_job_id: input.parent_job_id ?? null,
      label: input.label,
      status: 'pending',
      engine_data: input.engine_data ?? {},
      workflow: input.workflow ?? null,
      steps: [],
      error: null,
      action_id: null,
      source: input.source,
      started_by: input.started_by ?? null,
      created_at: this.clock.now(),
      scheduled_for: input.scheduled_for ?? null,
      started_at: null,
      completed_at: null,
      ...(input.queued ? { queued: true } : {}),
      ...(input.retry
        ? { retry_of: input.retry.of, retry_from: input.retry.from, ...(input.retry.resume ? { resume: input.retry.resume } : {}) }
        : {}),
      ...(input.decided?.length ? { decided: input.decided } : {}),
    } as unknown as JobRecord);
  }

  /**
   * A run pauses at a waiting step: processing → waiting, with its steps so far, the review
   * and the checkpoint the run goes on from. Only while the job is this run's.
   */
  async pause(
    jobId: number,
    steps: StepOutcome[],
    review: JobReview,
    checkpoint: RunCheckpoint,
    kept: readonly string[],
  ): Promise<boolean> {
    const done = await this.jobs.updateOne(
      { job_id: jobId, status: 'processing' },
      {
        $set: { status: 'waiting', steps, review, checkpoint, ...(kept.length ? { kept_items: [...kept] } : {}), review_resume: false },
        $unset: { heartbeat_at: '' },
      },
    );
    return done.matchedCount > 0;
  }

  /**
   * A decision on a waiting job, written only over the review version it read (so two
   * deciders never both write). `resume`: the last item is decided, the job goes back to
   * pending in its flow's queue with the waiting step as its resume point. Null when the
   * version moved (read it again).
   */
  async writeReview(jobId: number, version: number, review: JobReview, decided: DecidedItem[], resume: boolean): Promise<JobRecord | null> {
    const job = await this.jobs.findOne({ job_id: jobId, status: 'waiting', 'review.version': version });
    if (!job?.checkpoint) return null;
    const $set: Record<string, unknown> = { review, decided };
    if (resume) {
      Object.assign($set, {
        status: 'pending',
        started_at: null,
        review_resume: true,
        resume: { ...job.checkpoint, claims: [] },
        ...(job.flow_id !== null ? { queued: true } : {}),
      });
    }
    return this.jobs.findOneAndUpdate({ job_id: jobId, status: 'waiting', 'review.version': version }, { $set });
  }

  /** A webhook-mode delivery's JSON: its top-level keys merged into the run's engine_data (while it waits). */
  async mergeEngineData(jobId: number, payload: Record<string, unknown>): Promise<void> {
    const $set: Record<string, unknown> = {};
    // Field by field, so a concurrent write of other keys is kept; a key with a dot or a
    // leading $ cannot be a path on MongoDB: such a payload is kept whole under `webhook_payload`.
    const plain = Object.keys(payload).every((k) => k !== '' && !k.includes('.') && !k.startsWith('$'));
    if (plain) for (const [key, value] of Object.entries(payload)) $set[`engine_data.${key}`] = value;
    else $set['engine_data.webhook_payload'] = payload;
    if (Object.keys($set).length) await this.jobs.updateOne({ job_id: jobId, status: 'waiting' }, { $set });
  }

  /** Waiting jobs whose timeout has passed (the sweep decides them). */
  waitingTimedOut(now: Date, limit = 100): Promise<JobRecord[]> {
    return this.jobs.find({ status: 'waiting', 'review.timeout_at': { $lte: now } }, { projection: { job_id: 1, review: 1 }, limit });
  }

  private get usedTokens() {
    return this.store.collection<{ _id: string; job_id: number; used_at: Date }>('review_tokens');
  }

  /** Records a signed token's one use: an insert on a unique key, so two hosts never both use it. False when used before. */
  async useToken(id: string, jobId: number, at: Date): Promise<boolean> {
    try {
      await this.usedTokens.insertOne({ _id: id, job_id: jobId, used_at: at });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Whether a signed token has been used. */
  async tokenUsed(id: string): Promise<boolean> {
    return (await this.usedTokens.count({ _id: id })) > 0;
  }

  /** The claims a job holds now (a run going on after a wait: those its earlier part made). */
  async claimsOf(jobId: number): Promise<ReleasedClaim[]> {
    const found = await this.processed.find({ job_id: jobId }, { projection: { flow_step_id: 1, item_id: 1 } });
    return found.map((c) => ({ flow_step_id: c.flow_step_id, item_id: c.item_id }));
  }

  /** A webhook job that found its flow busy goes back to pending in the flow's queue. */
  /**
   * The run's step records so far, written as each step ends: a host that dies mid-run
   * leaves the steps it finished (and the flow's steps as planned, with the first).
   * Only while the job is this run's (`processing`): a late write never undoes an end.
   */
  async recordSteps(
    jobId: number,
    steps: StepOutcome[],
    ranWith?: RanStep[],
    progress?: { checkpoint?: RunCheckpoint; kept?: readonly string[] },
    revision?: JobRevision,
  ): Promise<void> {
    const $set: Record<string, unknown> = { steps, ...(ranWith ? { ran_with: ranWith } : {}), ...(revision ?? {}) };
    if (progress?.checkpoint) $set.checkpoint = progress.checkpoint;
    if (progress?.kept?.length) $set.kept_items = [...progress.kept];
    await this.jobs.updateOne({ job_id: jobId, status: 'processing' }, { $set });
  }

  /** A run going on after a wait with another configuration: that configuration, beside the start's (never over it). */
  async recordResumedWith(jobId: number, resumed: ResumedWith[]): Promise<void> {
    await this.jobs.updateOne({ job_id: jobId, status: 'processing' }, { $set: { resumed_with: resumed } });
  }

  /** Where a run starts or resumes (a retry's first write): its checkpoint, before any step runs. */
  async recordCheckpoint(jobId: number, checkpoint: RunCheckpoint): Promise<void> {
    await this.jobs.updateOne({ job_id: jobId, status: 'processing' }, { $set: { checkpoint } });
  }

  /**
   * One item a publish or update step has done, as it is done: a retry of this run does
   * not do it again, and a failure keeps its claim (it was published).
   */
  async recordDone(jobId: number, done: RunCheckpoint['done'][number]): Promise<void> {
    await this.jobs.updateOne({ job_id: jobId, status: 'processing' }, { $push: { 'checkpoint.done': done, kept_items: done.item_id } });
  }

  async requeue(jobId: number): Promise<void> {
    await this.jobs.updateOne({ job_id: jobId, status: 'processing' }, { $set: { status: 'pending', started_at: null, queued: true } });
  }

  /**
   * The oldest queued webhook jobs of a flow, oldest first (empty when none). On a store
   * this process alone writes, the next QUEUE_LOOKAHEAD at once: a drained backlog read
   * its queue once per run, a select that cost more than the run's own job reads; nobody
   * else can take or put back one of them unseen (flow-queue.ts drops the list when this
   * process puts one back). Where hosts share the store, only the oldest, as every other
   * host's runs may change the queue between two of ours.
   */
  async oldestQueued(flowId: number): Promise<number[]> {
    const queued = await this.jobs.find(
      { flow_id: flowId, status: 'pending', queued: true },
      { sort: { job_id: 1 }, limit: this.store.singleWriter ? QUEUE_LOOKAHEAD : 1, projection: { job_id: 1 } },
    );
    return queued.map((job) => job.job_id);
  }

  /** Flows with queued webhook jobs waiting. */
  async flowsWithQueuedJobs(): Promise<number[]> {
    const queued = await this.jobs.find({ status: 'pending', queued: true }, { projection: { flow_id: 1 } });
    return [...new Set(queued.map((j) => j.flow_id).filter((id): id is number => id !== null))];
  }

  /**
   * Runs nobody started (their process died first): immediate runs stored before `before`,
   * and delayed runs due before it. A delayed run's Agenda job does not cover every kill:
   * one between storing the job and saving its Agenda job leaves none, and one after
   * Agenda's handler handed the run to the engine and before the engine's claim leaves
   * Agenda's job done.
   */
  async unstarted(before: Date, limit = 100): Promise<number[]> {
    const found = await this.jobs.find(
      {
        status: 'pending',
        queued: { $ne: true },
        $or: [{ scheduled_for: null, created_at: { $lt: before } }, { scheduled_for: { $lt: before } }],
      },
      { projection: { job_id: 1 }, limit },
    );
    return found.map((j) => j.job_id);
  }

  async get(jobId: number): Promise<JobRecord> {
    const job = await this.jobs.findOne({ job_id: jobId });
    if (!job) throw apiError('job_not_found', { message: `Job ${jobId} not found` });
    return job;
  }

  /** Action ids of jobs started in one turn share one store call, like claims (below). */
  private readonly actionIds = createBatcher<{ jobId: number; actionId: number }, void>(async (items) => {
    const op = ({ jobId, actionId }: { jobId: number; actionId: number }) => ({
      filter: { job_id: jobId },
      update: { $set: { action_id: actionId } },
    });
    if (items.length > 1 && this.bulkIsAtomic) {
      try {
        await this.store.bulkWrite(items.map((item) => ({ collection: JOBS, updateOne: op(item) })));
        return items.map(() => undefined);
      } catch {
        // Rolled back: one at a time below.
      }
    }
    return Promise.all(
      items.map((item) =>
        this.jobs.updateOne(op(item).filter, op(item).update).then(
          () => undefined,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        ),
      ),
    );
  });

  async setActionId(jobId: number, actionId: number): Promise<void> {
    await this.actionIds.add({ jobId, actionId });
  }

  /**
   * Claims of runs starting in one turn share one store call: one transaction on the
   * embedded store (one commit for many); on MongoDB, or when that call fails, each alone.
   */
  private readonly claims = createBatcher<number, JobRecord | null>(async (jobIds) => {
    const at = this.clock.now();
    const claimOne = (jobId: number) =>
      this.jobs
        .findOneAndUpdate({ job_id: jobId, status: 'pending' }, { $set: { status: 'processing', started_at: at, heartbeat_at: at } })
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    if (jobIds.length > 1 && this.bulkIsAtomic) {
      try {
        return (await this.store.bulkWrite(
          jobIds.map((jobId) => ({
            collection: JOBS,
            findOneAndUpdate: {
              filter: { job_id: jobId, status: 'pending' },
              update: { $set: { status: 'processing', started_at: at, heartbeat_at: at } },
            },
          })),
        )) as Array<JobRecord | null>;
      } catch {
        // Rolled back: one at a time below, so one bad claim fails alone.
      }
    }
    return Promise.all(jobIds.map(claimOne));
  });

  /** A claim as a write of a bulkWrite (its result: the job, or null when not pending or not of this flow). */
  claimOp(jobId: number, flowId: number): BulkOp {
    const at = this.clock.now();
    return {
      collection: JOBS,
      findOneAndUpdate: {
        filter: { job_id: jobId, flow_id: flowId, status: 'pending' },
        update: { $set: { status: 'processing', started_at: at, heartbeat_at: at } },
      },
    };
  }

  /**
   * The running job's lease renewed (engine/run-lease.ts); false when it is no longer
   * `processing` (cancelled, or failed by a sweep that took its host for dead).
   */
  async renewLease(jobId: number, at: Date): Promise<boolean> {
    return (await this.jobs.updateOne({ job_id: jobId, status: 'processing' }, { $set: { heartbeat_at: at } })).matchedCount > 0;
  }

  /** pending → processing, atomically: a job runs once however many workers see it. */
  async claim(jobId: number): Promise<JobRecord | null> {
    return this.claims.add(jobId);
  }

  async finish(
    jobId: number,
    status: JobStatus,
    result: { steps: StepOutcome[]; error?: string | null; engine_data?: Record<string, unknown> },
  ): Promise<JobRecord | null> {
    return this.jobs.findOneAndUpdate({ job_id: jobId }, { $set: this.finalState(status, result) });
  }

  /**
   * The writes that end a run, in crash-safe order: a failed run's claims released first,
   * then the job's final state (a crash between them leaves a `processing` job, which boot
   * fails and whose claims it releases again). The final state is written only over a
   * `processing` job: a run that lost its job (cancelled, or failed by the sweep while its
   * host stalled past its lease) changes nothing.
   */
  finishOps(
    jobId: number,
    status: JobStatus,
    result: { steps: StepOutcome[]; error?: string | null },
    release: { keep: readonly string[]; released: ReleasedClaim[] } | null,
  ): BulkOp[] {
    const $set = this.finalState(status, result);
    if (release) $set.released_claims = release.released;
    // A run that ended well has no use for its checkpoint (it is for a retry).
    const update = status === 'failed' ? { $set } : { $set, $unset: { checkpoint: '' } };
    return [
      ...(release ? [{ collection: PROCESSED_ITEMS, deleteMany: { filter: this.releasable(jobId, release.keep) } }] : []),
      { collection: JOBS, updateOne: { filter: { job_id: jobId, status: 'processing' }, update } },
    ];
  }

  /** A failed run's claims but those of items it published (those stay processed). */
  private releasable(jobId: number, keep: readonly string[]): Filter {
    return keep.length ? { job_id: jobId, item_id: { $nin: [...keep] } } : { job_id: jobId };
  }

  /** Several domains' writes in one store call (one transaction on the embedded store). */
  bulk(ops: BulkOp[]): Promise<BulkResult[]> {
    return this.store.bulkWrite(ops);
  }

  /** Whether a failed bulk may have left some of its writes (MongoDB: no transaction). */
  get bulkIsAtomic(): boolean {
    return this.store.kind === 'embedded';
  }

  private finalState(
    status: JobStatus,
    result: { steps: StepOutcome[]; error?: string | null; engine_data?: Record<string, unknown> },
  ): Record<string, unknown> {
    const $set: Record<string, unknown> = { status, steps: result.steps, error: result.error ?? null, completed_at: this.clock.now() };
    if (result.engine_data) $set.engine_data = result.engine_data;
    return $set;
  }

  /**
   * A page of jobs, without their step outcomes (`steps` is []): lists never show steps,
   * and a step keeps its packets (up to 128 KiB each), which a page of 500 need not read.
   */
  async list(query: JobListQuery): Promise<{ items: JobRecord[]; total: number }> {
    const filter: Filter = {};
    if (query.status) filter.status = query.status;
    if (query.flow_id) filter.flow_id = query.flow_id;
    if (query.pipeline_id) filter.pipeline_id = query.pipeline_id;
    if (query.parent_job_id) filter.parent_job_id = query.parent_job_id;
    else if (query.hide_children) filter.parent_job_id = null;
    const dir = query.order === 'ASC' ? 1 : -1;
    const sort = query.orderby === 'job_id' ? { job_id: dir } : { [query.orderby]: dir, job_id: dir };
    const [items, total] = await Promise.all([
      this.jobs.find(filter, { sort: sort as Record<string, 1 | -1>, skip: query.offset, limit: query.per_page, projection: { steps: 0 } }),
      this.jobs.count(filter),
    ]);
    return { items: items.map((job) => ({ ...job, steps: [] })), total };
  }

  /** The whole store's size and free room (the metrics plugin's gauge; the jobs are most of it). */
  async storeSpace(): Promise<StoreSpace | null> {
    return this.store.space ? this.store.space() : null;
  }

  /** How many jobs have this status now (a queue-depth gauge). */
  countWithStatus(status: JobStatus): Promise<number> {
    return this.jobs.count({ status });
  }

  /** Deletes jobs (all, or failed only; optionally of one flow), and their claims when asked. */
  async delete(options: {
    type: 'all' | 'failed';
    cleanupProcessed: boolean;
    flowId?: number;
  }): Promise<{ jobs: number; processed: number }> {
    const filter: Filter = {};
    if (options.type === 'failed') filter.status = 'failed';
    if (options.flowId) filter.flow_id = options.flowId;
    // Running and waiting jobs are left alone: deleting them would orphan their claims mid-run.
    filter.status ??= { $nin: ['processing', 'waiting'] };
    let processed = 0;
    if (options.cleanupProcessed) {
      const ids = (await this.jobs.find(filter, { projection: { job_id: 1 } })).map((j) => j.job_id);
      for (let i = 0; i < ids.length; i += 500) processed += await this.processed.deleteMany({ job_id: { $in: ids.slice(i, i + 500) } });
    }
    const jobs = await this.jobs.deleteMany(filter);
    return { jobs, processed };
  }

  /**
   * Claims an item for a flow step. The claim is an insert on a unique key, so two jobs
   * can never both claim one item; false when it was processed before.
   */
  async claimItem(claim: Omit<ProcessedItemRecord, '_id' | 'claimed_at'>): Promise<boolean> {
    try {
      await this.processed.insertOne({
        ...claim,
        _id: `${claim.flow_step_id}:${claim.item_id}`,
        claimed_at: this.clock.now(),
      } as ProcessedItemRecord);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /**
   * Cancels a job that has not ended (pending: queued, delayed or not started yet; or
   * processing): it is `cancelled` at once, with `reason` as its error, and a processing
   * job's claims are released as a failed run's are. The write is guarded by the state it
   * read, so a run that ends meanwhile wins (then: job_finished). Returns the job as it was.
   */
  async cancel(jobId: number, reason: string): Promise<JobRecord> {
    for (;;) {
      const job = await this.get(jobId);
      if (job.status !== 'pending' && job.status !== 'processing' && job.status !== 'waiting')
        throw apiError('job_finished', {
          message: `Job ${jobId} has already ended (${job.status}); only a pending, running or waiting job can be cancelled`,
          data: { job_id: jobId, job_status: job.status },
        });
      const now = this.clock.now();
      // A waiting job's wait ends with it (nothing is pending any more; its items stay undecided).
      const waitEnds = job.status === 'waiting' && job.review ? { 'review.ended_at': now, 'review.ended_by': 'cancelled' } : {};
      const done = await this.jobs.updateOne(
        { job_id: jobId, status: job.status },
        { $set: { status: 'cancelled', error: reason, completed_at: now, ...waitEnds } },
      );
      if (done.matchedCount === 0) continue; // it moved on meanwhile (claimed, or ended): read it again
      if (job.status === 'processing' || job.status === 'waiting') await this.releaseClaims(jobId);
      return job;
    }
  }

  /**
   * A waiting job that cannot go on (its step was removed from the flow): failed with the
   * reason, its wait ended, its claims given back. False when it was no longer waiting.
   */
  async failWaiting(jobId: number, reason: string): Promise<boolean> {
    const now = this.clock.now();
    const done = await this.jobs.updateOne(
      { job_id: jobId, status: 'waiting' },
      { $set: { status: 'failed', error: reason, completed_at: now, 'review.ended_at': now, 'review.ended_by': 'removed' } },
    );
    if (done.matchedCount === 0) return false;
    await this.releaseClaims(jobId);
    return true;
  }

  /**
   * Notes on a failed job the job that retries it, unless another retry got there first
   * (`was`: the retry it named when read, absent or one whose job never got stored).
   */
  async markRetried(jobId: number, retryId: number, was: number | undefined): Promise<boolean> {
    const done = await this.jobs.updateOne({ job_id: jobId, retried_by: was ?? null }, { $set: { retried_by: retryId } });
    return done.matchedCount > 0;
  }

  /** Deletes a job nobody has started (a retry that lost the race to mark its job). */
  async discardUnstarted(jobId: number): Promise<void> {
    await this.jobs.deleteOne({ job_id: jobId, status: 'pending' });
  }

  /** Whether a job exists. */
  async exists(jobId: number): Promise<boolean> {
    return (await this.jobs.count({ job_id: jobId })) > 0;
  }

  /**
   * A failed or cancelled job gives back the items it claimed and did not publish, so the
   * next run tries them again; which it gave back is written on the job (a retry takes
   * them again). Read from the store: the run that claimed them may be on a dead host.
   */
  async releaseClaims(jobId: number): Promise<number> {
    const job = await this.jobs.findOne({ job_id: jobId }, { projection: { kept_items: 1 } });
    const keep = job?.kept_items ?? [];
    const filter = this.releasable(jobId, keep);
    const claims = await this.processed.find(filter, { projection: { flow_step_id: 1, item_id: 1 } });
    if (claims.length)
      await this.jobs.updateOne(
        { job_id: jobId },
        { $set: { released_claims: claims.map((c) => ({ flow_step_id: c.flow_step_id, item_id: c.item_id })) } },
      );
    return this.processed.deleteMany(filter);
  }

  clearProcessed(clearType: 'flow' | 'pipeline', targetId: number): Promise<number> {
    return this.processed.deleteMany(clearType === 'flow' ? { flow_id: targetId } : { pipeline_id: targetId });
  }

  /**
   * Jobs left `processing` by a process that died (their lease last renewed before
   * `olderThan`; jobs claimed before leases existed: started before it) are failed, and
   * their claims released; at boot and by the engine's sweep (engine.recoverStale). A job
   * is failed, not run again: a step may already have published. The write is guarded by
   * the lease still being stale, so a holder that renewed meanwhile keeps its job.
   */
  async recoverInterrupted(olderThan: Date): Promise<number[]> {
    const stale: Filter = {
      status: 'processing',
      $or: [{ heartbeat_at: { $lt: olderThan } }, { heartbeat_at: { $exists: false }, started_at: { $lt: olderThan } }],
    };
    const stuck = await this.jobs.find(stale, { projection: { job_id: 1, steps: 1 } });
    const failed: number[] = [];
    for (const job of stuck) {
      await this.releaseClaims(job.job_id);
      const error = 'Interrupted: the host stopped while the job was running';
      const done = await this.jobs.updateOne(
        { ...stale, job_id: job.job_id },
        { $set: this.finalState('failed', { steps: job.steps ?? [], error }) },
      );
      if (done.matchedCount > 0) failed.push(job.job_id);
    }
    return failed;
  }
}
