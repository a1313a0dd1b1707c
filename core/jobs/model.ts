import type { ActingUserRecord } from '../kernel/acting-user.js';
import type { AiStepReport } from '../kernel/contributions.js';
/**
 * Job states: pending → processing → completed | completed_no_items | failed, plus
 * `skipped` (the flow was already running: the same flow never runs concurrently).
 */
export type JobStatus = 'pending' | 'processing' | 'completed' | 'completed_no_items' | 'failed' | 'skipped';

export interface StepOutcome {
  flow_step_id: string;
  step_type: string;
  handler_slug: string | null;
  status: 'completed' | 'failed' | 'skipped';
  items_in: number;
  items_out: number;
  started_at: Date;
  finished_at: Date;
  error?: string;
  /** What a publish step published: each item's remote id and URL, and whether its text was shortened. */
  published?: Array<{ id: string; url: string | null; shortened: boolean }>;
  /** What an ai step used: provider, model, token usage, calls and latency. */
  ai?: AiStepReport;
}

/** An ephemeral workflow's step (POST /execute with `workflow`). */
export interface WorkflowStep {
  type: string;
  handler_slug?: string;
  handler_config?: Record<string, unknown>;
  provider?: string;
  model?: string;
  system_prompt?: string;
  user_message?: string;
}

export interface JobRecord extends Record<string, unknown> {
  _id: string;
  job_id: number;
  flow_id: number | null;
  pipeline_id: number | null;
  parent_job_id: number | null;
  label: string;
  status: JobStatus;
  /** initial_data merged with what the engine records while running. */
  engine_data: Record<string, unknown>;
  workflow: WorkflowStep[] | null;
  steps: StepOutcome[];
  error: string | null;
  action_id: number | null;
  source: 'execute' | 'schedule' | 'webhook' | 'cli';
  /** Who asked for the run (their capabilities then); null for schedules and webhooks. */
  started_by?: ActingUserRecord | null;
  created_at: Date;
  scheduled_for: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
}

export const JOBS = 'jobs';
export const PROCESSED_ITEMS = 'processed_items';

export interface ProcessedItemRecord extends Record<string, unknown> {
  /** `{flow_step_id}:{item identity}`: unique, so claiming is an insert. */
  _id: string;
  flow_step_id: string;
  flow_id: number | null;
  pipeline_id: number | null;
  item_id: string;
  job_id: number;
  claimed_at: Date;
}
