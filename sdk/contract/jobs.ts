/**
 * What a plugin may do with jobs (flow runs): read one, and count them by status (the
 * metrics plugin's gauge). Claims, bulk writes, recovery and deletes are the core's own.
 */
import { createServiceRef } from '../kernel/service-ref.js';
import type { JobRecord, JobStatus } from '../jobs/model.js';
import type { StoreSpace } from '../store/port.js';

export type { JobRecord, JobSource, JobStatus, RunSource } from '../jobs/model.js';
export type { StoreSpace } from '../store/port.js';

export interface JobsApi {
  /** 404 `job_not_found` when there is none. */
  get(jobId: number): Promise<JobRecord>;
  countWithStatus(status: JobStatus): Promise<number>;
  /** The store's size and free room (GET /metrics); null where the store cannot tell. */
  storeSpace(): Promise<StoreSpace | null>;
}

/** `deps: { jobs: services.jobs }`: provided by the core domain plugin. */
export const jobsService = createServiceRef<JobsApi, 'root'>({ id: 'jobs', scope: 'root' });
