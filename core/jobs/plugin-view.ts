/**
 * Jobs as a plugin sees them (`services.jobs`): an ephemeral workflow's handler settings
 * masked as GET /jobs/{id} masks them, and no sealed value anywhere in the record.
 */
import type { JobsApi } from '../../sdk/contract/jobs.js';
import { HandlerSecrets } from '../flows/handler-secrets.js';
import { withoutSealed } from '../security/sealed-mask.js';
import type { JobRecord, JobStatus } from './model.js';
import type { JobsService } from './service.js';

export function jobForPlugins(job: JobRecord): JobRecord {
  const workflow =
    job.workflow?.map((step) => (step.handler_config ? { ...step, handler_config: HandlerSecrets.mask(step.handler_config) } : step)) ??
    null;
  return withoutSealed({ ...job, workflow });
}

export class PluginJobsView implements JobsApi {
  constructor(private readonly jobs: JobsService) {}

  async get(jobId: number): Promise<JobRecord> {
    return jobForPlugins(await this.jobs.get(jobId));
  }

  countWithStatus(status: JobStatus): Promise<number> {
    return this.jobs.countWithStatus(status);
  }

  storeSpace() {
    return this.jobs.storeSpace();
  }
}
