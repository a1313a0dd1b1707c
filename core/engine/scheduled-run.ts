// What a schedule's firing means to the domain: the webhook trigger's counterpart
// (core/webhooks/routes/trigger.ts) for runs the scheduler starts. The host's scheduler
// (Agenda, host/scheduler/agenda-runtime.ts) only decides when; this decides what: read
// the flow, store the job, say who started it, hand it to the engine.
import type { Logger } from '../kernel/logger.js';
import type { ScheduleIntervals } from '../../sdk/contract/schedule-intervals.js';
import { callMeasuringHook, isTapped, type HookCatalogue } from '../kernel/hooks.js';
import type { FlowSchedule, FlowsService } from '../flows/service.js';
import type { JobsService } from '../jobs/service.js';
import type { LogsService } from '../logs/service.js';
import type { Engine } from './engine.js';

/** A flow's schedule came due (Agenda's `flow.run` in a host). */
export interface ScheduleFiring {
  flowId: number;
  /** The slot the scheduler fired for, when it knows it (for the lateness hook). */
  scheduledFor?: Date;
  /** The scheduler's own repeat, named in the log line when the flow's config has none. */
  repeatInterval?: string | number;
}

export interface ScheduledRunsDeps {
  flows: Pick<FlowsService, 'record' | 'missingContributions'>;
  jobs: Pick<JobsService, 'create'>;
  /** Where a deleted flow's schedule is removed. */
  schedule: Pick<FlowSchedule, 'unschedule'>;
  engine: Pick<Engine, 'start'>;
  /** The flows domain's intervals (for a run's label). */
  intervals: ScheduleIntervals;
  /** The process log. */
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The searchable log (GET /logs): the run's "triggered by its schedule" line. */
  logs?: Pick<LogsService, 'record'>;
  hooks?: Pick<HookCatalogue, 'scheduledRunStarted'>;
}

/**
 * Runs the scheduler starts: a flow's schedule (a new job) and a delayed execute request
 * (the job POST /execute stored). Neither waits for the run's end: the stored job is the
 * durable record, the engine's sweep starts it should this process die before the engine
 * does, and the flow's running mark keeps one run per flow at a time.
 */
export class ScheduledRuns {
  constructor(private readonly deps: ScheduledRunsDeps) {}

  /**
   * A delayed execute request came due: its job is already stored, the engine picks it up.
   * A second start of the same job (another host after a lapsed lock) is a no-op: the engine's claim.
   */
  delayedDue(jobId: number): void {
    void this.deps.engine.start(jobId);
  }

  /**
   * A flow's schedule fired: stores the run's job and hands it to the engine. Resolves to
   * the job id once the job is stored (the run goes on after), or null when the flow is
   * gone (its schedule is removed with it) or orphaned (skipped, its schedule kept).
   */
  async scheduleFired(firing: ScheduleFiring): Promise<number | null> {
    const { deps } = this;
    const { flowId } = firing;
    const flow = await deps.flows.record(flowId);
    if (!flow) {
      // The flow was deleted between its schedule and now: the schedule goes too.
      await deps.schedule.unschedule(flowId);
      return null;
    }
    // A flow naming what no loaded plugin provides is not run: its schedule stays, so it
    // runs again on its own once the plugin is loaded back.
    const missing = await deps.flows.missingContributions(flow);
    if (missing.length > 0) {
      deps.log.warn(
        { flow_id: flowId, orphaned: missing.map((m) => `${m.kind}:${m.name}`) },
        `Flow ${flowId} "${flow.flow_name}" skipped by its schedule: ${missing.map((m) => m.reason).join('; ')}`,
      );
      return null;
    }
    const record = await deps.jobs.create({
      flow_id: flow.flow_id,
      pipeline_id: flow.pipeline_id,
      label: flow.flow_name,
      source: 'schedule',
    });
    this.reportLateness(flowId, record.job_id, firing.scheduledFor);
    // Who started the run: the flow's schedule, with its interval.
    const interval = String(flow.scheduling_config?.interval ?? firing.repeatInterval ?? 'unknown');
    const label = deps.intervals.get(interval)?.label ?? interval;
    const context = { job_id: record.job_id, flow_id: flow.flow_id, pipeline_id: flow.pipeline_id, trigger: 'schedule', interval };
    const message = `Flow ${flow.flow_id} "${flow.flow_name}" triggered by its schedule (${label}): job ${record.job_id}`;
    deps.log.info(context, message);
    // Not awaited, as the engine does not wait on its log lines: the entry is batched with
    // the others of this turn, and the scheduler's slot is free for the next due flow meanwhile.
    void deps.logs
      ?.record({ level: 'info', message, context })
      .catch((error: unknown) => deps.log.error({ err: error }, 'A log entry could not be stored'));
    // Handed over, not awaited: waiting held one of the scheduler's few slots for the
    // run's whole length, so a few slow flows made every other due flow start late.
    void deps.engine.start(record.job_id).then(
      (status) => {
        if (status === 'failed') deps.log.warn({ flow_id: flowId, job_id: record.job_id }, 'Scheduled run failed; the schedule goes on');
      },
      () => undefined, // engine.start logs a run that could not start
    );
    return record.job_id;
  }

  /** The run's job record exists: tell the measuring hook how late after its slot that was. */
  private reportLateness(flowId: number, jobId: number, scheduledFor: Date | undefined): void {
    const hook = this.deps.hooks?.scheduledRunStarted;
    if (!scheduledFor || !hook || !isTapped(hook)) return;
    // The scheduler's slots are wall-clock times (Date), whatever clock the host's services use.
    const latenessMs = Math.max(0, Date.now() - scheduledFor.getTime());
    callMeasuringHook(hook, { flowId, jobId, scheduledFor, latenessMs }, (error) =>
      this.deps.log.warn({ err: error }, 'A scheduledRunStarted tap failed'),
    );
  }
}
