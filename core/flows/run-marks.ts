import type { BulkOp, Collection, DocumentStore, Filter, Update } from '../store/port.js';
import { FLOWS, type FlowRecord } from './model.js';

/** How a run ended, as a flow records it. */
export type RunOutcome = 'completed' | 'completed_no_items' | 'failed';

function isRunOutcome(status: string): status is RunOutcome {
  return status === 'completed' || status === 'completed_no_items' || status === 'failed';
}

/** A run's outcome on its flow: counters follow outcomes and reset on success. */
function outcomeUpdate(status: RunOutcome, at: Date): Update & { $set: Record<string, unknown> } {
  return status === 'completed'
    ? { $set: { last_run: at, last_run_status: status, consecutive_failures: 0, consecutive_no_items: 0 } }
    : status === 'failed'
      ? { $set: { last_run: at, last_run_status: status, consecutive_no_items: 0 }, $inc: { consecutive_failures: 1 } }
      : { $set: { last_run: at, last_run_status: status, consecutive_failures: 0 }, $inc: { consecutive_no_items: 1 } };
}

/**
 * A flow's run state: the running mark (one run per flow at a time, on any host), the
 * outcome of its last run and the start-up repair of marks a dead process left. The
 * engine's alone (a privileged service, `flowRuns`): no plugin marks a flow running.
 * Apart from FlowsService, which is flows' configuration as plugins and routes change it.
 */
export class FlowRunMarks {
  constructor(private readonly store: DocumentStore) {}

  private get collection(): Collection<FlowRecord> {
    return this.store.collection<FlowRecord>(FLOWS);
  }

  /**
   * The flow's running mark, taken atomically so the flow never runs twice at once on any
   * host; a mark older than `staleBefore` (its host died) may be taken over.
   */
  async markRunning(flowId: number, jobId: number, now: Date, staleBefore: Date): Promise<FlowRecord | null> {
    const op = this.markRunningOp(flowId, jobId, now, staleBefore).findOneAndUpdate;
    // The flow as it is now comes back with the mark: the run plans from it without reading it again.
    return this.collection.findOneAndUpdate(op.filter, op.update);
  }

  /** `markRunning` as a write of a bulkWrite (its result: the flow, or null when busy). */
  markRunningOp(
    flowId: number,
    jobId: number,
    now: Date,
    staleBefore: Date,
  ): BulkOp & { findOneAndUpdate: { filter: Filter; update: Update } } {
    return {
      collection: FLOWS,
      findOneAndUpdate: {
        filter: { flow_id: flowId, $or: [{ running_job_id: null }, { running_since: { $lt: staleBefore } }] },
        update: { $set: { running_job_id: jobId, running_since: now } },
      },
    };
  }

  /**
   * A run's end on its flow as one single-document write: the outcome recorded and the
   * running mark released together, guarded by the mark (so on MongoDB too they are
   * never half-done). When it matches nothing the mark was taken over (stale) and the
   * caller records the outcome alone.
   */
  runEndOp(flowId: number, jobId: number, status: RunOutcome, at: Date): BulkOp {
    const update = outcomeUpdate(status, at);
    return {
      collection: FLOWS,
      updateOne: {
        filter: { flow_id: flowId, running_job_id: jobId },
        update: { ...update, $set: { ...update.$set, running_job_id: null, running_since: null } },
      },
    };
  }

  /**
   * Running marks no live run holds are released, and a finished job's outcome recorded if
   * the flow lacks it: at start-up and by the engine's sweep, after stale jobs were failed
   * (JobsService.recoverInterrupted with the same `staleBefore`). A mark is released when
   * its lease lapsed (not renewed since `staleBefore`: its host died mid-run, or between its
   * job's final state and its flow's), unless its job is still `processing` (a live holder:
   * every stale one was just failed). A fresh mark of a finished job is a run ending right
   * now; it ends itself or lapses. Returns the flows freed (their queues may start).
   */
  async repairRunningMarks(
    jobs: Collection<{ job_id: number; status: string; completed_at: Date | null }>,
    staleBefore: Date,
  ): Promise<number[]> {
    const marked = await this.collection.find(
      { running_job_id: { $ne: null } },
      { projection: { flow_id: 1, running_job_id: 1, running_since: 1, last_run: 1 } },
    );
    const freed: number[] = [];
    for (const flow of marked) {
      const jobId = flow.running_job_id as number;
      const job = await jobs.findOne({ job_id: jobId }, { projection: { job_id: 1, status: 1, completed_at: 1 } });
      if (job?.status === 'processing') continue;
      const since = flow.running_since instanceof Date ? flow.running_since : null;
      const lapsed = !since || since < staleBefore;
      if (job && !lapsed && !(job.completed_at && job.completed_at < staleBefore)) continue;
      const outcome =
        job && isRunOutcome(job.status) && job.completed_at && !(flow.last_run && flow.last_run >= job.completed_at)
          ? outcomeUpdate(job.status, job.completed_at)
          : { $set: {} };
      const result = await this.collection.updateOne(
        { flow_id: flow.flow_id, running_job_id: jobId },
        { ...outcome, $set: { ...outcome.$set, running_job_id: null, running_since: null } },
      );
      if (result.matchedCount > 0) freed.push(flow.flow_id);
    }
    return freed;
  }

  /** The running run's hold on its flow renewed (engine/run-lease.ts); false when the mark is no longer its. */
  async renew(flowId: number, jobId: number, at: Date): Promise<boolean> {
    return (await this.collection.updateOne({ flow_id: flowId, running_job_id: jobId }, { $set: { running_since: at } })).matchedCount > 0;
  }

  async clearRunning(flowId: number, jobId: number): Promise<void> {
    await this.collection.updateOne({ flow_id: flowId, running_job_id: jobId }, { $set: { running_job_id: null, running_since: null } });
  }

  /**
   * The job running the flow now, null when free, undefined when the flow is gone. A mark
   * not renewed since `staleBefore` is a dead host's and counts as free: the next run's
   * lock takes it over (markRunning), so a webhook-only flow is not jammed behind it.
   */
  async runningJobOf(flowId: number, staleBefore?: Date): Promise<number | null | undefined> {
    const flow = await this.collection.findOne({ flow_id: flowId }, { projection: { flow_id: 1, running_job_id: 1, running_since: 1 } });
    if (!flow) return undefined;
    const since = flow.running_since;
    if (staleBefore && since instanceof Date && since < staleBefore) return null;
    return (flow.running_job_id as number | null | undefined) ?? null;
  }

  /** Records a job's outcome on its flow: counters follow outcomes and reset on success. */
  async recordOutcome(flowId: number, status: RunOutcome, at: Date): Promise<void> {
    await this.collection.updateOne({ flow_id: flowId }, outcomeUpdate(status, at));
  }
}
