// How Flowhost keys a flow's schedule: every flow runs through ONE job definition
// (FLOW_RUN_JOB) with `data: { flowId }`, and a flow has at most one schedule document,
// found by `unique({ 'data.flowId': id })`. One definition means one handler and one
// concurrency setting for all flows; per-flow job names would need a define() per flow on
// every host before its jobs could run.
import type { Agenda, JobParameters } from 'agenda';
import type { ScheduleIntervals } from '../../sdk/contract/schedule-intervals.js';
import type { FlowSchedule } from '../../core/flows/service.js';
import type { SchedulingConfig } from '../../core/flows/model.js';

export const FLOW_RUN_JOB = 'flow.run';

export interface FlowJobData {
  flowId: number;
}

/** How a flow's `flow.run` document repeats (Agenda's terms; the domain's schedule is `FlowSchedule`). */
export interface FlowRepeat {
  /** A human interval ('15 minutes'), milliseconds, or a cron expression. */
  interval: string | number;
  /** IANA zone for cron expressions; the host's zone when absent. */
  timezone?: string;
  /** Run once right away as well (a human interval otherwise first runs one interval from now). */
  runNow?: boolean;
}

/** The unique() query for a flow's schedule. */
export function flowScheduleKey(flowId: number): Record<string, unknown> {
  return { 'data.flowId': flowId };
}

export interface ScheduledFlow {
  id: string;
  nextRunAt: Date | null;
  /** False when the same schedule was already stored and was left alone. */
  changed: boolean;
}

/**
 * Creates or replaces a flow's schedule. Declaring the same schedule again (every host at
 * every boot does) keeps the stored one, so its next run is neither repeated nor postponed.
 */
export async function scheduleFlow(agenda: Agenda, flowId: number, repeat: FlowRepeat): Promise<ScheduledFlow> {
  if (!Number.isSafeInteger(flowId) || flowId < 1) throw new RangeError(`flowId must be a positive integer, got ${flowId}`);
  const existing = await flowJob(agenda, flowId);
  if (existing && existing.repeatInterval === repeat.interval && (existing.repeatTimezone ?? undefined) === repeat.timezone) {
    return { id: String(existing._id), nextRunAt: existing.nextRunAt, changed: false };
  }
  const job = agenda.create<FlowJobData>(FLOW_RUN_JOB, { flowId });
  job.repeatEvery(repeat.interval, { ...(repeat.timezone ? { timezone: repeat.timezone } : {}), skipImmediate: !repeat.runNow });
  job.unique(flowScheduleKey(flowId));
  await job.save();
  return { id: String(job.attrs._id), nextRunAt: job.attrs.nextRunAt, changed: true };
}

/**
 * The flow's schedule document, if any. The sort is by name only: a flow has at most one,
 * and queryJobs' default order (nextRunAt) made SQLite walk the lock index over every
 * flow's job in that order instead of looking the flow up on agenda_flow: 2.6-4.4 ms a
 * lookup at 5,000 flows against 0.1 ms, paid by every flow created or shown.
 */
export async function flowJob(agenda: Agenda, flowId: number): Promise<JobParameters | undefined> {
  const { jobs } = await agenda.queryJobs({ name: FLOW_RUN_JOB, data: { flowId }, limit: 1, sort: { name: 'asc' } });
  return jobs[0];
}

/** Removes a flow's schedule; resolves to the number of jobs removed (0 or 1). */
export function unscheduleFlow(agenda: Agenda, flowId: number): Promise<number> {
  return agenda.cancel({ name: FLOW_RUN_JOB, data: { flowId } });
}

/**
 * The domain's `FlowSchedule` on Agenda: one `flow.run` document per scheduled flow. Apart
 * from the runtime (agenda-runtime.ts, whose firings need the engine, jobs and flows)
 * because flows need it: built from Agenda and the intervals alone, it closes no cycle.
 */
export function createFlowSchedule(agenda: Agenda, intervals: ScheduleIntervals): FlowSchedule {
  return {
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
      const interval = intervals.get(config.interval);
      if (!interval?.seconds) {
        await unscheduleFlow(agenda, flowId);
        return null;
      }
      return (await scheduleFlow(agenda, flowId, { interval: interval.seconds * 1000 })).nextRunAt;
    },
    async unschedule(flowId: number) {
      await unscheduleFlow(agenda, flowId);
    },
    nextRun: async (flowId: number) => (await flowJob(agenda, flowId))?.nextRunAt ?? null,
  };
}
