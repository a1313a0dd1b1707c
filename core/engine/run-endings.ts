import type { Clock } from '../kernel/clock.js';
import type { FlowRunMarks, RunOutcome } from '../flows/run-marks.js';
import type { JobsService } from '../jobs/service.js';
import type { JobStatus, ReleasedClaim, StepOutcome } from '../jobs/model.js';
import { createBatcher, type Batcher } from '../store/batcher.js';
import type { BulkOp, BulkResult, UpdateResult } from '../store/port.js';

/** How one run ended: what its job and its flow keep. */
export interface RunEnd {
  jobId: number;
  flowId: number | null;
  status: JobStatus;
  steps: StepOutcome[];
  error: string | null;
  /** A failed run: the items it published (their claims stay) and the claims it gives back. */
  release?: { keep: readonly string[]; released: ReleasedClaim[] };
}

interface PlannedEnd {
  ops: BulkOp[];
  /** Where the flow's write is in `ops` (-1: no flow). */
  flowAt: number;
  /** Where the job's final state is in `ops`. */
  jobAt: number;
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * A run's bookkeeping at its end in one store call, and the ends of runs that finish in
 * the same turn of the event loop in one call together (group commit, like job inserts
 * and log entries): first every log line those runs wrote, then per run, in this order,
 * a failed run's claims released (but those of items it published), the job's final state, and its flow's outcome with
 * the running mark released. On the embedded store that is one transaction for them
 * all; on MongoDB each run's writes go one after another, ordered so a crash leaves a
 * state start-up repairs (`recoverInterrupted`, `repairRunningMarks`).
 */
export function runEndings(deps: {
  jobs: JobsService;
  runMarks: FlowRunMarks;
  clock: Clock;
  flushLog?: () => Promise<void>;
}): Batcher<RunEnd, void> {
  const { jobs, runMarks, clock } = deps;
  const plan = (end: RunEnd): PlannedEnd => {
    const ops = jobs.finishOps(
      end.jobId,
      end.status,
      { steps: end.steps, error: end.error },
      end.status === 'failed' ? (end.release ?? { keep: [], released: [] }) : null,
    );
    const jobAt = ops.length - 1;
    if (end.flowId === null) return { ops, flowAt: -1, jobAt };
    ops.push(runMarks.runEndOp(end.flowId, end.jobId, end.status as RunOutcome, clock.now()));
    return { ops, flowAt: ops.length - 1, jobAt };
  };
  // The mark was taken over (the run outlived the lock): the outcome is still this run's to
  // record, unless the job was no longer its to end (cancelled, or failed by the sweep).
  const settle = async (end: RunEnd, planned: PlannedEnd, results: BulkResult[]): Promise<void> => {
    if ((results[planned.jobAt] as UpdateResult).matchedCount === 0) return;
    if (planned.flowAt >= 0 && (results[planned.flowAt] as UpdateResult).matchedCount === 0)
      await runMarks.recordOutcome(end.flowId!, end.status as RunOutcome, clock.now());
  };
  const alone = async (end: RunEnd): Promise<void> => {
    const planned = plan(end);
    await settle(end, planned, await jobs.bulk(planned.ops));
  };
  return createBatcher<RunEnd, void>(async (ends) => {
    // The runs' log lines are written in batches behind them: all stored before their final states.
    await deps.flushLog?.();
    // Together only where a failure rolls every write back; then each alone, so one bad end fails alone.
    if (ends.length > 1 && jobs.bulkIsAtomic) {
      const planned = ends.map(plan);
      let results: BulkResult[] | null = null;
      try {
        results = await jobs.bulk(planned.flatMap((p) => p.ops));
      } catch {
        results = null;
      }
      if (results) {
        let offset = 0;
        const answers: Array<undefined | Error> = [];
        for (const [i, end] of ends.entries()) {
          const mine = results.slice(offset, offset + planned[i]!.ops.length);
          offset += planned[i]!.ops.length;
          answers.push(await settle(end, planned[i]!, mine).then(() => undefined, asError));
        }
        return answers;
      }
    }
    return Promise.all(ends.map((end) => alone(end).catch(asError)));
  });
}
