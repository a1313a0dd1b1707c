import type { SurfaceDefinition } from '../kernel/routes.js';
import type { JobRecord, JobStatus } from './model.js';
import type { JobListQuery, JobsService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { jobsResponses } from './responses.js';

const admin = { capability: 'manage_options' } as const;
const STATUSES = ['pending', 'processing', 'completed', 'completed_no_items', 'failed', 'skipped'];
const display = (d: Date | null) => (d ? d.toISOString().replace('T', ' ').slice(0, 19) : null);

/** Where job views get flow and pipeline names: from their own domains, never their collections. */
export interface JobNames {
  flows: { namesOf(ids: readonly number[]): Promise<Map<number, string>> };
  pipelines: { namesOf(ids: readonly number[]): Promise<Map<number, string>> };
}

/** Job views with their flow and pipeline names, as the admin client reads them. */
async function jobViews(names: JobNames, jobs: JobRecord[], detail = false): Promise<Array<Record<string, unknown>>> {
  const flowName = await names.flows.namesOf([...new Set(jobs.map((j) => j.flow_id).filter((id): id is number => id !== null))]);
  const pipelineName = await names.pipelines.namesOf([...new Set(jobs.map((j) => j.pipeline_id).filter((id): id is number => id !== null))]);
  return jobs.map((job) => ({
    job_id: job.job_id,
    pipeline_id: job.pipeline_id,
    pipeline_name: job.pipeline_id !== null ? (pipelineName.get(job.pipeline_id) ?? null) : null,
    flow_id: job.flow_id,
    flow_name: job.flow_id !== null ? (flowName.get(job.flow_id) ?? null) : null,
    parent_job_id: job.parent_job_id,
    label: job.label,
    status: job.status,
    source: job.source,
    action_id: job.action_id,
    error: job.error,
    created_at: job.created_at.toISOString(),
    created_at_display: display(job.created_at),
    started_at: job.started_at ? job.started_at.toISOString() : null,
    completed_at: job.completed_at ? job.completed_at.toISOString() : null,
    completed_at_display: display(job.completed_at),
    duration_ms: job.started_at && job.completed_at ? job.completed_at.getTime() - job.started_at.getTime() : null,
    engine_data: job.engine_data,
    ...(detail
      ? {
          scheduled_for: job.scheduled_for ? job.scheduled_for.toISOString() : null,
          workflow: job.workflow,
          steps: job.steps.map((s) => ({ ...s, started_at: s.started_at.toISOString(), finished_at: s.finished_at.toISOString() })),
        }
      : {}),
  }));
}

export function jobsSurface(jobs: JobsService, names: JobNames): SurfaceDefinition {
  return withResponses({
    id: 'jobs',
    routes: [
      {
        method: 'GET',
        path: '/jobs',
        permission: admin,
        summary: 'Jobs, newest first by default',
        schema: {
          query: {
            type: 'object',
            properties: {
              orderby: { enum: ['job_id', 'created_at', 'status'], default: 'job_id' },
              order: { enum: ['ASC', 'DESC', 'asc', 'desc'], default: 'DESC' },
              per_page: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
              offset: { type: 'integer', minimum: 0, default: 0 },
              status: { enum: STATUSES },
              flow_id: { type: 'integer', minimum: 1 },
              pipeline_id: { type: 'integer', minimum: 1 },
              parent_job_id: { type: 'integer', minimum: 1 },
              hide_children: { type: 'boolean', default: false },
            },
          },
        },
        async handle(request) {
          const q = request.query as unknown as JobListQuery & { order: string };
          const query = { ...q, order: q.order.toUpperCase() as 'ASC' | 'DESC' };
          const { items, total } = await jobs.list(query);
          return { success: true, data: await jobViews(names, items), total, per_page: q.per_page, offset: q.offset };
        },
      },
      {
        method: 'GET',
        path: '/jobs/{job_id}',
        permission: admin,
        summary: 'One job: status, timings, engine data and each step’s outcome',
        schema: { params: { type: 'object', required: ['job_id'], properties: { job_id: { type: 'integer', minimum: 1 } } } },
        async handle(request) {
          const job = await jobs.get((request.params as { job_id: number }).job_id);
          return { success: true, data: (await jobViews(names, [job], true))[0]! };
        },
      },
      {
        method: 'DELETE',
        path: '/jobs',
        permission: admin,
        summary: 'Delete jobs (all or failed; optionally one flow), optionally their processed items',
        schema: {
          query: {
            type: 'object',
            required: ['type'],
            properties: { type: { enum: ['all', 'failed'] }, cleanup_processed: { type: 'boolean', default: false }, flow_id: { type: 'integer', minimum: 1 } },
          },
        },
        async handle(request) {
          const q = request.query as { type: 'all' | 'failed'; cleanup_processed: boolean; flow_id?: number };
          const result = await jobs.delete({ type: q.type, cleanupProcessed: q.cleanup_processed, flowId: q.flow_id });
          const what = q.type === 'failed' ? 'failed job' : 'job';
          return {
            success: true,
            message: `Deleted ${result.jobs} ${what}${result.jobs === 1 ? '' : 's'}${q.cleanup_processed ? ` and ${result.processed} processed item${result.processed === 1 ? '' : 's'}` : ''}.`,
            data: { deleted_count: result.jobs, processed_items_deleted: result.processed },
          };
        },
      },
      {
        method: 'DELETE',
        path: '/processed-items',
        permission: admin,
        summary: 'Forget processed items of a flow or a pipeline, so they are fetched again',
        schema: {
          query: {
            type: 'object',
            required: ['clear_type', 'target_id'],
            properties: { clear_type: { enum: ['flow', 'pipeline'] }, target_id: { type: 'integer', minimum: 1 } },
          },
        },
        async handle(request) {
          const q = request.query as { clear_type: 'flow' | 'pipeline'; target_id: number };
          const deleted = await jobs.clearProcessed(q.clear_type, q.target_id);
          return { success: true, message: `Cleared ${deleted} processed item${deleted === 1 ? '' : 's'} of ${q.clear_type} ${q.target_id}.`, data: { deleted_count: deleted } };
        },
      },
    ],
  }, jobsResponses);
}

export type { JobStatus };
