// How Flowhost keys a flow's schedule: every flow runs through ONE job definition
// (FLOW_RUN_JOB) with `data: { flowId }`, and a flow has at most one schedule document,
// found by `unique({ 'data.flowId': id })`. One definition means one handler and one
// concurrency setting for all flows; per-flow job names would need a define() per flow on
// every host before its jobs could run.
import type { Agenda, JobParameters } from 'agenda';

export const FLOW_RUN_JOB = 'flow.run';

export interface FlowJobData {
  flowId: number;
}

export interface FlowSchedule {
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
export async function scheduleFlow(agenda: Agenda, flowId: number, schedule: FlowSchedule): Promise<ScheduledFlow> {
  if (!Number.isSafeInteger(flowId) || flowId < 1) throw new RangeError(`flowId must be a positive integer, got ${flowId}`);
  const existing = await flowJob(agenda, flowId);
  if (existing && existing.repeatInterval === schedule.interval && (existing.repeatTimezone ?? undefined) === schedule.timezone) {
    return { id: String(existing._id), nextRunAt: existing.nextRunAt, changed: false };
  }
  const job = agenda.create<FlowJobData>(FLOW_RUN_JOB, { flowId });
  job.repeatEvery(schedule.interval, { ...(schedule.timezone ? { timezone: schedule.timezone } : {}), skipImmediate: !schedule.runNow });
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
