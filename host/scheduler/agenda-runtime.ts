import type { Agenda, Job } from 'agenda';
import type { DocumentStore } from '../../core/store/port.js';
import type { Logger } from '../../core/kernel/logger.js';
import type { Registries } from '../../core/kernel/registries.js';
import type { Engine } from '../../core/engine/engine.js';
import type { JobDispatcher } from '../../core/engine/dispatcher.js';
import type { FlowSchedule } from '../../core/flows/service.js';
import type { FlowsService } from '../../core/flows/service.js';
import type { SchedulingConfig } from '../../core/flows/model.js';
import type { JobsService } from '../../core/jobs/service.js';
import type { LogsService } from '../../core/logs/service.js';
import { callMeasuringHook, isTapped, type HookCatalogue } from '../../core/kernel/hooks.js';
import { scheduledForOf } from './job-document.js';
import { DEFAULT_RUN_LEASE_SECONDS } from '../../core/engine/run-lease.js';
import { FLOW_RUN_JOB, flowJob, flowScheduleKey, scheduleFlow, unscheduleFlow, type FlowJobData } from './flow-schedule.js';

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
 * Flows' schedules on Agenda: one `flow.run` document per scheduled flow. Apart from the
 * runtime (which runs what is due and needs the engine, jobs and flows) because flows
 * need it: built from Agenda and the intervals alone, it closes no cycle.
 */
export function createFlowSchedule(agenda: Agenda, registries: Registries): FlowSchedule {
  const nextRun = async (flowId: number): Promise<Date | null> => {
    return (await flowJob(agenda, flowId))?.nextRunAt ?? null;
  };

  const schedule: FlowSchedule = {
    async schedule(flowId: number, config: SchedulingConfig) {
      if (config.interval === 'manual') {
        await unscheduleFlow(agenda, flowId);
        return null;
      }
      if (config.interval === 'one_time') {
        await unscheduleFlow(agenda, flowId);
        const job = agenda.create<FlowJobData>(FLOW_RUN_JOB, { flowId });
        job.schedule(new Date(config.timestamp! * 1000));
        job.unique(flowScheduleKey(flowId));
        await job.save();
        return job.attrs.nextRunAt ?? null;
      }
      const interval = registries.intervals().find((i) => i.value === config.interval);
      if (!interval?.seconds) {
        await unscheduleFlow(agenda, flowId);
        return null;
      }
      return (await scheduleFlow(agenda, flowId, { interval: interval.seconds * 1000 })).nextRunAt;
    },
    async unschedule(flowId: number) {
      await unscheduleFlow(agenda, flowId);
    },
    nextRun,
  };
  return schedule;
}

/**
 * Agenda drives every background run: `job.run` for execute requests (persisted, so a
 * delayed run survives a restart), `flow.run` for flow schedules (one document per flow).
 * A missed slot runs once on the next cycle (Agenda computes the next run from now), and
 * a job whose host died is taken over after its lock lifetime.
 */
export function createAgendaRuntime(deps: {
  agenda: Agenda;
  engine: Engine;
  jobs: JobsService;
  flows: FlowsService;
  registries: Registries;
  store: DocumentStore;
  log: Logger;
  logs?: Pick<LogsService, 'record'>;
  hooks?: HookCatalogue;
  /** The engine's run lease (s): a delayed run's lock a dead host left lapses after it. */
  runLeaseSeconds?: number;
}): AgendaRuntime {
  const { agenda, engine, jobs, flows } = deps;
  // One run path: whatever starts a run (an execute request, a delayed run, a schedule, a
  // webhook) goes through engine.start, so one drain (the engine's) covers every run.
  // The lock is held only until the run is handed over, not for the run's length (the run's
  // own lease covers that), so a lock a killed host left lapses after one run lease instead
  // of Agenda's 10 minutes; a second start of the job after that is a no-op (the engine's claim).
  agenda.define<{ jobId: number }>(
    JOB_RUN_JOB,
    async (job: Job<{ jobId: number }>) => {
      void engine.start(job.attrs.data.jobId);
    },
    { lockLifetime: (deps.runLeaseSeconds ?? DEFAULT_RUN_LEASE_SECONDS) * 1000 },
  );

  agenda.define<FlowJobData>(
    FLOW_RUN_JOB,
    async (job: Job<FlowJobData>) => {
      const flowId = job.attrs.data.flowId;
      const flow = await flows.record(flowId);
      if (!flow) {
        // The flow was deleted between its schedule and now: the schedule goes too.
        await unscheduleFlow(agenda, flowId);
        return;
      }
      const record = await jobs.create({ flow_id: flow.flow_id, pipeline_id: flow.pipeline_id, label: flow.flow_name, source: 'schedule' });
      reportLateness(deps, flowId, record.job_id, scheduledForOf(job.attrs));
      // Who started the run: the flow's schedule, with its interval.
      const interval = String(flow.scheduling_config?.interval ?? job.attrs.repeatInterval ?? 'unknown');
      const label = deps.registries.intervals().find((i) => i.value === interval)?.label ?? interval;
      const context = { job_id: record.job_id, flow_id: flow.flow_id, pipeline_id: flow.pipeline_id, trigger: 'schedule', interval };
      const message = `Flow ${flow.flow_id} "${flow.flow_name}" triggered by its schedule (${label}): job ${record.job_id}`;
      deps.log.info(context, message);
      // Not awaited, as the engine does not wait on its log lines: the entry is batched with
      // the others of this turn, and this slot is free for the next due flow meanwhile.
      void deps.logs
        ?.record({ level: 'info', message, context })
        .catch((error: unknown) => deps.log.error({ err: error }, 'A log entry could not be stored'));
      // The slot is kept once the run is stored and handed over: the handler does not wait for
      // the run's end, as an execute request does not. Waiting held one of Agenda's few
      // flow.run slots (its concurrency) for the run's whole length, so a few slow flows made
      // every other due flow start late. The stored job is the durable record: should this
      // process die before the engine starts it, the engine's sweep does; the flow's running
      // mark keeps one run per flow at a time, as before.
      void engine.start(record.job_id).then(
        (status) => {
          if (status === 'failed') deps.log.warn({ flow_id: flowId, job_id: record.job_id }, 'Scheduled run failed; the schedule goes on');
        },
        () => undefined, // engine.start logs a run that could not start
      );
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

/** The run's job record exists: tell the measuring hook how late after its slot that was. */
function reportLateness(deps: { hooks?: HookCatalogue; log: Logger }, flowId: number, jobId: number, scheduledFor: Date | undefined): void {
  const hook = deps.hooks?.scheduledRunStarted;
  if (!scheduledFor || !hook || !isTapped(hook)) return;
  // Agenda's slots are wall-clock times (Date), whatever clock the host's services use.
  const latenessMs = Math.max(0, Date.now() - scheduledFor.getTime());
  callMeasuringHook(hook, { flowId, jobId, scheduledFor, latenessMs }, (error) =>
    deps.log.warn({ err: error }, 'A scheduledRunStarted tap failed'),
  );
}
