import { HandlerSecrets } from '../flows/handler-secrets.js';
import { maskDeep } from '../security/mask.js';
import type { SurfaceDefinition } from '../kernel/routes.js';
import type { JsonSchema } from '../kernel/json-schema.js';
import { errorBody, named, successBody } from '../kernel/response-schemas.js';
import { JOB_STATUSES, type JobRecord, type JobStatus, type StepOutcome } from './model.js';
import type { JobsService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { jobsResponses } from './responses.js';
import { defineRoute } from '../../sdk/define.js';
import { ranWithSchema, recordedSchema, recordedView, triggerSchema, triggerView } from './run-record-view.js';
import { reviewSchema, reviewView } from './review-view.js';

const admin = { capability: 'manage_options' } as const;
const display = (d: Date | null) => (d ? d.toISOString().replace('T', ' ').slice(0, 19) : null);

/** Where job views get flow and pipeline names: from their own domains, never their collections. */
export interface JobNames {
  flows: { namesOf(ids: readonly number[]): Promise<Map<number, string>> };
  pipelines: { namesOf(ids: readonly number[]): Promise<Map<number, string>> };
}

/** The packets a step passed on, from the JSON text the job keeps; [] when none or unreadable. */
function storedPackets(json: string | undefined): unknown[] {
  if (typeof json !== 'string') return [];
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/**
 * One step's outcome as GET /jobs/{id} shows it: the fields it always had, plus its
 * position, duration and the identities of its packets; bodies only when asked for.
 */
function stepView(step: StepOutcome, withPackets: boolean): Record<string, unknown> {
  return {
    flow_step_id: step.flow_step_id,
    step_type: step.step_type,
    handler_slug: step.handler_slug,
    status: step.status,
    items_in: step.items_in,
    items_out: step.items_out,
    started_at: step.started_at.toISOString(),
    finished_at: step.finished_at.toISOString(),
    ...(step.error !== undefined ? { error: step.error } : {}),
    ...(step.error_code !== undefined ? { error_code: step.error_code } : {}),
    ...(step.items_reused !== undefined ? { items_reused: step.items_reused } : {}),
    ...(step.missing_settings !== undefined ? { missing_settings: [...step.missing_settings] } : {}),
    ...(step.published !== undefined ? { published: step.published.map((p) => ({ id: p.id, url: p.url, shortened: p.shortened })) } : {}),
    position: step.position ?? null,
    duration_ms: step.finished_at.getTime() - step.started_at.getTime(),
    items: (step.items ?? []).map((i) => ({ item_id: i.item_id, title: i.title })),
    ...(step.review ? { review: { approved: step.review.approved, rejected: step.review.rejected } } : {}),
    ...(step.ai
      ? {
          ai: {
            provider: step.ai.provider,
            model: step.ai.model,
            usage: { ...step.ai.usage },
            calls: step.ai.calls,
            latency_ms: step.ai.latency_ms,
            ...(step.ai.tools ? { tools: [...step.ai.tools], tool_calls: (step.ai.tool_calls ?? []).map((c) => ({ ...c })) } : {}),
          },
        }
      : {}),
    ...(withPackets ? packetViews(step) : {}),
  };
}

/**
 * A step's bodies: `input` and `output` (null when not recorded: older jobs, a failed step's
 * output), and `packets`, what the step passed on (a failed step: what it was given) as before.
 */
function packetViews(step: StepOutcome): Record<string, unknown> {
  const input = recordedView(step.input);
  const output = recordedView(step.output);
  const passed = step.status === 'failed' ? input : output;
  return {
    input,
    output,
    packets: passed ? passed.items : storedPackets(step.packets_json),
    packets_truncated: passed ? passed.truncated !== null : step.packets_truncated === true,
  };
}

/** Job views with their flow and pipeline names, as the admin client reads them. */
async function jobViews(names: JobNames, jobs: JobRecord[], detail = false, withPackets = false): Promise<Array<Record<string, unknown>>> {
  const flowName = await names.flows.namesOf([...new Set(jobs.map((j) => j.flow_id).filter((id): id is number => id !== null))]);
  const pipelineName = await names.pipelines.namesOf([
    ...new Set(jobs.map((j) => j.pipeline_id).filter((id): id is number => id !== null)),
  ]);
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
    // A webhook's payload and a run's data may carry secret-looking fields: never echoed.
    engine_data: maskDeep(job.engine_data),
    retry_of: typeof job.retry_of === 'number' ? job.retry_of : null,
    retried_by: typeof job.retried_by === 'number' ? job.retried_by : null,
    // Where the run waits (or waited), each item as it will go on and its decision.
    ...(job.review ? { review: reviewView(job.review) } : {}),
    ...(detail
      ? {
          scheduled_for: job.scheduled_for ? job.scheduled_for.toISOString() : null,
          workflow:
            job.workflow?.map((step) =>
              step.handler_config ? { ...step, handler_config: HandlerSecrets.mask(step.handler_config) } : step,
            ) ?? null,
          steps: job.steps.map((s) => stepView(s, withPackets)),
          trigger: triggerView(job),
          ran_with: job.ran_with?.map((step) => ({ ...step, handler_config: HandlerSecrets.mask(step.handler_config) })) ?? null,
          revision: typeof job.revision === 'number' ? job.revision : null,
          pipeline_revision: typeof job.pipeline_revision === 'number' ? job.pipeline_revision : null,
          resumed_with: (job.resumed_with ?? []).map((r) => ({
            resumed_at: r.resumed_at instanceof Date ? r.resumed_at.toISOString() : String(r.resumed_at),
            position: r.position,
            revision: typeof r.revision === 'number' ? r.revision : null,
            pipeline_revision: typeof r.pipeline_revision === 'number' ? r.pipeline_revision : null,
            ran_with: r.ran_with.map((step) => ({ ...step, handler_config: HandlerSecrets.mask(step.handler_config) })),
          })),
        }
      : {}),
  }));
}

export function jobsSurface(jobs: JobsService, names: JobNames, pageSizes?: () => Promise<{ jobs_per_page: number }>): SurfaceDefinition {
  return withResponses(
    {
      id: 'jobs',
      routes: [
        defineRoute({
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
                per_page: { type: 'integer', minimum: 1, maximum: 500, description: 'Default: the site setting jobs_per_page (50)' },
                offset: { type: 'integer', minimum: 0, default: 0 },
                status: { enum: JOB_STATUSES },
                flow_id: { type: 'integer', minimum: 1 },
                pipeline_id: { type: 'integer', minimum: 1 },
                parent_job_id: { type: 'integer', minimum: 1 },
                hide_children: { type: 'boolean', default: false },
              },
            },
          },
          async handle(request) {
            const q = request.query;
            // Not given: the site's jobs_per_page (a setting whose bounds are this parameter's).
            const perPage = q.per_page ?? (await pageSizes?.())?.jobs_per_page ?? 50;
            const query = { ...q, per_page: perPage, order: q.order.toUpperCase() as 'ASC' | 'DESC' };
            const { items, total } = await jobs.list(query);
            return { success: true, data: await jobViews(names, items), total, per_page: perPage, offset: q.offset };
          },
        }),
        defineRoute({
          method: 'GET',
          path: '/jobs/{job_id}',
          permission: admin,
          summary: 'One job: status, timings, engine data and each step’s outcome (packet bodies with include=packets)',
          schema: {
            params: { type: 'object', required: ['job_id'], properties: { job_id: { type: 'integer', minimum: 1 } } },
            query: {
              type: 'object',
              properties: {
                include: {
                  type: 'string',
                  pattern: '^(packets)?$',
                  description: '`packets`: each step’s input and output items (and packet bodies) as well as their identities',
                },
              },
            },
            responses: jobDetailResponses,
          },
          async handle(request) {
            const job = await jobs.get(request.params.job_id);
            const withPackets = request.query.include === 'packets';
            return { success: true, data: (await jobViews(names, [job], true, withPackets))[0]! };
          },
        }),
        defineRoute({
          method: 'DELETE',
          path: '/jobs',
          permission: admin,
          summary: 'Delete jobs (all or failed; optionally one flow), optionally their processed items',
          schema: {
            query: {
              type: 'object',
              required: ['type'],
              properties: {
                type: { enum: ['all', 'failed'] },
                cleanup_processed: { type: 'boolean', default: false },
                flow_id: { type: 'integer', minimum: 1 },
              },
            },
          },
          async handle(request) {
            const q = request.query;
            const result = await jobs.delete({ type: q.type, cleanupProcessed: q.cleanup_processed, flowId: q.flow_id });
            const what = q.type === 'failed' ? 'failed job' : 'job';
            return {
              success: true,
              message: `Deleted ${result.jobs} ${what}${result.jobs === 1 ? '' : 's'}${q.cleanup_processed ? ` and ${result.processed} processed item${result.processed === 1 ? '' : 's'}` : ''}.`,
              data: { deleted_count: result.jobs, processed_items_deleted: result.processed },
            };
          },
        }),
        defineRoute({
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
            const q = request.query;
            const deleted = await jobs.clearProcessed(q.clear_type, q.target_id);
            return {
              success: true,
              message: `Cleared ${deleted} processed item${deleted === 1 ? '' : 's'} of ${q.clear_type} ${q.target_id}.`,
              data: { deleted_count: deleted },
            };
          },
        }),
      ],
    },
    jobsResponses,
  );
}

export type { JobStatus };

const isoDate = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;
/** Free-form on purpose: a handler's packets and a run's engine data have no fixed fields. */
const openObject = { type: 'object', additionalProperties: true } as const;

/** One step's outcome in GET /jobs/{id}. */
const stepSchema: JsonSchema = named('JobStep', {
  type: 'object',
  required: [
    'flow_step_id',
    'step_type',
    'handler_slug',
    'status',
    'items_in',
    'items_out',
    'started_at',
    'finished_at',
    'position',
    'duration_ms',
    'items',
  ],
  properties: {
    flow_step_id: { type: 'string' },
    step_type: { type: 'string' },
    handler_slug: nullableString,
    status: { enum: ['completed', 'failed', 'skipped'] },
    items_in: { type: 'integer' },
    items_out: { type: 'integer' },
    started_at: isoDate,
    finished_at: isoDate,
    error: { type: 'string' },
    error_code: { type: 'string', description: "The failure's code, when it had one (handler_settings_incomplete, a handler's own)" },
    items_reused: {
      type: 'integer',
      description: 'A retry’s publish or update step: items the retried run had already done there, passed on without being done again',
    },
    missing_settings: {
      type: 'array',
      items: { type: 'string' },
      description: "handler_settings_incomplete: the required settings the step's handler lacked",
    },
    published: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'url', 'shortened'],
        properties: { id: { type: 'string' }, url: nullableString, shortened: { type: 'boolean' } },
      },
    },
    position: nullableInteger,
    duration_ms: { type: 'integer' },
    items: {
      type: 'array',
      items: { type: 'object', required: ['item_id', 'title'], properties: { item_id: { type: 'string' }, title: nullableString } },
    },
    packets: {
      type: 'array',
      items: {
        type: 'object',
        properties: { type: { type: 'string' }, data: openObject, metadata: openObject },
        additionalProperties: true,
      },
    },
    packets_truncated: { type: 'boolean' },
    input: { ...recordedSchema, description: 'include=packets: the items the step was given (bounded, secrets masked)' },
    output: { ...recordedSchema, description: 'include=packets: the items the step passed on; null for a failed step' },
    review: {
      type: 'object',
      required: ['approved', 'rejected'],
      properties: { approved: { type: 'integer' }, rejected: { type: 'integer' } },
      description: 'An approval step: how many items it let through and dropped',
    },
    /** An ai step's provider, model, token usage, calls and latency. */
    ai: {
      type: 'object',
      required: ['provider', 'model', 'usage', 'calls', 'latency_ms'],
      properties: {
        provider: { type: 'string' },
        model: { type: 'string' },
        usage: {
          type: 'object',
          required: ['input_tokens', 'output_tokens', 'total_tokens'],
          properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } },
        },
        calls: { type: 'integer' },
        latency_ms: { type: 'integer' },
        tools: {
          type: 'array',
          items: { type: 'string' },
          description: 'the tools offered the model (server/tool), when the step named any',
        },
        tool_calls: {
          type: 'array',
          description: 'each tool call: the tool, its arguments, and its result (cut to a size) or error',
          items: {
            type: 'object',
            required: ['tool', 'args'],
            properties: { tool: { type: 'string' }, args: openObject, result: {}, error: { type: 'string' } },
          },
        },
      },
    },
  },
});

/** An ephemeral workflow's step as stored (POST /execute with `workflow`). */
const workflowStepSchema: JsonSchema = named('WorkflowStep', {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string' },
    handler_slug: { type: 'string' },
    handler_config: openObject,
    provider: { type: 'string' },
    model: { type: 'string' },
    system_prompt: { type: 'string' },
    user_message: { type: 'string' },
  },
});

/** The whole job as GET /jobs/{id} answers it. */
export const jobDetailSchema: JsonSchema = named('Job', {
  type: 'object',
  required: [
    'job_id',
    'pipeline_id',
    'pipeline_name',
    'flow_id',
    'flow_name',
    'parent_job_id',
    'label',
    'status',
    'source',
    'action_id',
    'error',
    'created_at',
    'created_at_display',
    'started_at',
    'completed_at',
    'completed_at_display',
    'duration_ms',
    'engine_data',
    'retry_of',
    'retried_by',
    'scheduled_for',
    'workflow',
    'steps',
  ],
  properties: {
    job_id: { type: 'integer' },
    pipeline_id: nullableInteger,
    pipeline_name: nullableString,
    flow_id: nullableInteger,
    flow_name: nullableString,
    parent_job_id: nullableInteger,
    label: { type: 'string' },
    status: { enum: JOB_STATUSES },
    source: { enum: ['execute', 'schedule', 'webhook', 'cli', 'chat', 'mcp'] },
    action_id: nullableInteger,
    error: nullableString,
    created_at: isoDate,
    created_at_display: nullableString,
    started_at: nullableString,
    completed_at: nullableString,
    completed_at_display: nullableString,
    duration_ms: nullableInteger,
    engine_data: openObject,
    retry_of: { ...nullableInteger, description: 'The job this run retries (POST /jobs/{id}/retry)' },
    retried_by: { ...nullableInteger, description: 'The job that retries this run, once retried' },
    scheduled_for: nullableString,
    workflow: { anyOf: [{ type: 'null' }, { type: 'array', items: workflowStepSchema }] },
    steps: { type: 'array', items: stepSchema },
    trigger: triggerSchema,
    ran_with: ranWithSchema,
    review: {
      ...reviewSchema,
      description: 'A job that waits (or waited) at an approval step: its items as they will go on, and their decisions',
    },
    revision: { ...nullableInteger, description: "The flow's revision the run ran (GET /flows/{id}/revisions/{revision})" },
    pipeline_revision: { ...nullableInteger, description: "The pipeline's revision the run ran" },
    resumed_with: {
      type: 'array',
      description:
        'A run that went on after a wait with another configuration than it started with: each such resume (revision, ran_with, ...still keep the start’s)',
      items: {
        type: 'object',
        required: ['resumed_at', 'position', 'revision', 'pipeline_revision', 'ran_with'],
        properties: {
          resumed_at: { type: 'string' },
          position: { type: 'integer' },
          revision: nullableInteger,
          pipeline_revision: nullableInteger,
          ran_with: ranWithSchema,
        },
      },
    },
  },
});

const jobDetailResponses: Record<number, JsonSchema> = {
  200: successBody({ data: jobDetailSchema }),
  400: errorBody('rest_invalid_param'),
  401: errorBody('rest_not_logged_in', 'rest_invalid_credentials'),
  403: errorBody('rest_forbidden', 'rest_cookie_invalid_nonce'),
  404: errorBody('job_not_found'),
  429: errorBody('rest_too_many_requests'),
  500: errorBody('internal_error'),
};
