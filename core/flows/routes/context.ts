/** What the /flows routes share: the services, and a flow's whole view with its recent jobs. */
import type { SettingsService } from '../../settings/service.js';
import type { JobsService } from '../../jobs/service.js';
import type { FlowRecord } from '../model.js';
import type { FlowsService } from '../service.js';
import { flowView } from '../view.js';

/** Every /flows route is for administrators. */
export const admin = { capability: 'manage_options' } as const;

/** Whether a user exists (a flow's new owner must). */
export interface FlowOwners {
  exists(userId: number): Promise<boolean>;
}

export interface FlowsContext {
  flows: FlowsService;
  users: FlowOwners;
  settings: SettingsService;
  jobs: JobsService;
  /** The whole flow: its steps, next run, whether it runs, and its last ten jobs. */
  whole(flow: FlowRecord): Promise<ReturnType<typeof flowView>>;
}

export function flowsContext(flows: FlowsService, settings: SettingsService, jobs: JobsService, users: FlowOwners): FlowsContext {
  const whole = async (flow: FlowRecord) => {
    const recent = await jobs.list({ flow_id: flow.flow_id, orderby: 'job_id', order: 'DESC', per_page: 10, offset: 0 });
    const recentJobs = recent.items.map((j) => ({
      job_id: j.job_id,
      status: j.status,
      created_at: j.created_at.toISOString(),
      completed_at: j.completed_at ? j.completed_at.toISOString() : null,
      error: j.error,
    }));
    const pipeline = await flows.pipelineOf(flow);
    return flowView(flow, pipeline, {
      nextRun: await flows.schedule.nextRun(flow.flow_id),
      // Only what is missing shows in the view (its next run): no owners' lookup needed.
      orphaned: flows.orphans.missing(flow, pipeline),
      isRunning: Boolean(flow.running_job_id),
      recentJobs,
      missing: flows.missing,
    });
  };
  return { flows, users, settings, jobs, whole };
}
