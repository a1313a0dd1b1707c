/** The bodies the job routes answer (see docs/api.md), as checked in tests and published in openapi.json. */
import type { JsonSchema } from '../kernel/json-schema.js';
import { JOB_STATUSES } from './model.js';
import { reviewSchema } from './review-view.js';
import { anyObject, bool, errorBody, int, isoDate, list, named, nullable, obj, str, successBody } from '../kernel/response-schemas.js';

const display: JsonSchema = { type: 'string', description: "'YYYY-MM-DD hh:mm:ss' (UTC)" };

const jobFields: Record<string, JsonSchema> = {
  job_id: int,
  pipeline_id: nullable(int),
  pipeline_name: nullable(str),
  flow_id: nullable(int),
  flow_name: nullable(str),
  parent_job_id: nullable(int),
  label: str,
  status: { enum: JOB_STATUSES },
  source: { enum: ['execute', 'schedule', 'webhook', 'cli', 'chat', 'mcp'] },
  action_id: nullable(int),
  error: nullable(str),
  created_at: isoDate,
  created_at_display: display,
  started_at: nullable(isoDate),
  completed_at: nullable(isoDate),
  completed_at_display: nullable(display),
  duration_ms: nullable(int),
  engine_data: anyObject,
  retry_of: { ...nullable(int), description: 'The job this run retries (POST /jobs/{id}/retry)' },
  retried_by: { ...nullable(int), description: 'The job that retries this run, once retried' },
  review: {
    ...reviewSchema,
    description: 'A job that waits (or waited) at an approval step: its items as they will go on, and their decisions',
  },
};
const jobRequired = Object.keys(jobFields).filter((k) => k !== 'review');

/** A job in the list. */
export const jobListItem: JsonSchema = named('JobSummary', obj(jobFields, jobRequired));

/** What one step of a run did. */
const stepOutcome: JsonSchema = obj(
  {
    flow_step_id: str,
    step_type: str,
    handler_slug: nullable(str),
    status: { enum: ['completed', 'failed', 'skipped'] },
    items_in: int,
    items_out: int,
    started_at: isoDate,
    finished_at: isoDate,
    error: str,
    error_code: str,
    missing_settings: list(str),
    published: list(obj({ id: str, url: nullable(str), shortened: bool })),
  },
  ['flow_step_id', 'step_type', 'handler_slug', 'status', 'items_in', 'items_out', 'started_at', 'finished_at'],
);

/** One job with its schedule, the ephemeral workflow it ran (null for a flow) and each step's outcome. */
export const jobDetail: JsonSchema = obj(
  {
    ...jobFields,
    scheduled_for: nullable(isoDate),
    workflow: nullable(list(anyObject)),
    steps: list(stepOutcome),
  },
  [...jobRequired, 'scheduled_for', 'workflow', 'steps'],
);

export const jobsResponses: Record<string, Record<number, JsonSchema>> = {
  'GET /jobs': { 200: successBody({ data: list(jobListItem), total: int, per_page: int, offset: int }) },
  'GET /jobs/{job_id}': { 200: successBody({ data: jobDetail }), 404: errorBody('job_not_found') },
  'DELETE /jobs': { 200: successBody({ message: str, data: obj({ deleted_count: int, processed_items_deleted: int }) }) },
  'DELETE /processed-items': { 200: successBody({ message: str, data: obj({ deleted_count: int }) }) },
};
