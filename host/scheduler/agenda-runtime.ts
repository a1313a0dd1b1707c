import type { Agenda, Job } from 'agenda';
import type { DocumentStore } from '../../core/store/port.js';
import type { Engine } from '../../core/engine/engine.js';
import type { JobDispatcher } from '../../core/engine/dispatcher.js';
import type { ScheduledRuns } from '../../core/engine/scheduled-run.js';
import { scheduledForOf } from './job-document.js';
import { DEFAULT_RUN_LEASE_SECONDS } from '../../core/engine/run-lease.js';
import { FLOW_RUN_JOB, type FlowJobData } from './flow-schedule.js';

/**
 * How many flow.run handlers run at once in one process. Each only stores the run and
 * hands it to the engine, so this bounds store round trips in flight, not runs.
 */
export const FLOW_RUN_CONCURRENCY = 50;

/** Runs one engine job by id (immediate and delayed POST /execute runs). */
export const JOB_RUN_JOB = 'job.run';

export interface AgendaRuntime {
  dispatcher: JobDispatcher;
}

/**
 * Agenda drives every background run: `job.run` for execute requests (persisted, so a
 * delayed run survives a restart), `flow.run` for flow schedules (one document per flow).
 * A missed slot runs once on the next cycle (Agenda computes the next run from now), and
 * a job whose host died is taken over after its lock lifetime. What a firing starts is the
 * core's (`ScheduledRuns`, core/engine/scheduled-run.ts); this file says only when.
 */
export function createAgendaRuntime(deps: {
  agenda: Agenda;
  engine: Pick<Engine, 'start' | 'drain'>;
  runs: ScheduledRuns;
  store: DocumentStore;
  /** The engine's run lease (s): a delayed run's lock a dead host left lapses after it. */
  runLeaseSeconds?: number;
}): AgendaRuntime {
  const { agenda, engine, runs } = deps;
  // One run path: whatever starts a run (an execute request, a delayed run, a schedule, a
  // webhook) goes through engine.start, so one drain (the engine's) covers every run.
  // The lock is held only until the run is handed over, not for the run's length (the run's
  // own lease covers that), so a lock a killed host left lapses after one run lease instead
  // of Agenda's 10 minutes; a second start of the job after that is a no-op (the engine's claim).
  agenda.define<{ jobId: number }>(JOB_RUN_JOB, async (job: Job<{ jobId: number }>) => runs.delayedDue(job.attrs.data.jobId), {
    lockLifetime: (deps.runLeaseSeconds ?? DEFAULT_RUN_LEASE_SECONDS) * 1000,
  });

  // The slot is kept once the run is stored and handed over (scheduleFired does not wait
  // for the run's end), so one of Agenda's flow.run slots is not held for a run's length.
  agenda.define<FlowJobData>(
    FLOW_RUN_JOB,
    async (job: Job<FlowJobData>) => {
      const { attrs } = job;
      await runs.scheduleFired({
        flowId: attrs.data.flowId,
        scheduledFor: scheduledForOf(attrs),
        ...(attrs.repeatInterval !== undefined ? { repeatInterval: attrs.repeatInterval } : {}),
      });
    },
    // Agenda's default of 5 handlers at once per name made 5 store round trips the ceiling
    // for every flow due at the same moment; the handler only stores and hands over.
    { concurrency: FLOW_RUN_CONCURRENCY },
  );

  const dispatcher: JobDispatcher = {
    // At once, in this process (no wait for the scheduler's next poll); the stored job is
    // the durable record, and the engine's sweep starts it should this process die first.
    async runNow(jobId) {
      const actionId = await deps.store.nextId('actions');
      void engine.start(jobId);
      return actionId;
    },
    async runAt(jobId, at) {
      const actionId = await deps.store.nextId('actions');
      await agenda.schedule(at, JOB_RUN_JOB, { jobId });
      return actionId;
    },
    drain: () => engine.drain(),
  };

  return { dispatcher };
}
