import type { ActingUserRecord } from '../kernel/acting-user.js';
import type { AiStepReport, ReviewDecision } from '../kernel/contributions.js';
/**
 * Job states: pending → processing → completed | completed_no_items | failed, plus
 * `skipped` (the flow was already running: the same flow never runs concurrently),
 * `cancelled` (POST /jobs/{id}/cancel, from pending, processing or waiting) and `waiting`
 * (a step such as `approval` paused the run: approve/reject or a timeout puts it back to
 * pending, and it goes on from that step).
 */
/** Every status a job can have, in the order the API documents them. */
export const JOB_STATUSES = [
  'pending',
  'processing',
  'waiting',
  'completed',
  'completed_no_items',
  'failed',
  'skipped',
  'cancelled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

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
  /** A retry's publish or update step: items the retried run had done there, passed on, not done again. */
  items_reused?: number;
  /** The failure's code when it had one (`handler_settings_incomplete`, a handler's ApiError). */
  error_code?: string;
  /** handler_settings_incomplete: the required settings the step's handler lacked. */
  missing_settings?: string[];
  /** What a publish step published: each item's remote id and URL, and whether its text was shortened. */
  published?: Array<{ id: string; url: string | null; shortened: boolean }>;
  /** The step's 1-based place in the flow's pipeline (absent on jobs run before it was recorded). */
  position?: number;
  /**
   * The identities of the packets the step passed on (for a failed step: the packets it
   * was given), at most STEP_ITEMS_KEPT of them; absent on older jobs.
   */
  items?: StepItem[];
  /**
   * Jobs run before `input`/`output` were kept: the packets the step passed on (a failed
   * step: those it was given), as JSON text; GET /jobs/{id}?include=packets shows them.
   */
  packets_json?: string;
  /** True when packets_json holds only the first packets (the rest did not fit). */
  packets_truncated?: boolean;
  /** What an ai step used: provider, model, token usage, calls and latency. */
  ai?: AiStepReport;
  /** What an approval step let through and dropped. */
  review?: { approved: number; rejected: number };
  /** The packets the step was given (bounded, secrets masked); absent on older jobs. */
  input?: RecordedPackets;
  /** The packets the step passed on (bounded, secrets masked); absent on a failed step and older jobs. */
  output?: RecordedPackets;
}

/** A step's packets as a job keeps them (see core/engine/step-record.ts). */
export interface RecordedPackets {
  /** The first packets, as a JSON array text, secret-looking fields masked. */
  json: string;
  /** How many packets there were in all. */
  count: number;
  /** Packets left out because the record was full, and their size in bytes of JSON. */
  cut_items?: number;
  cut_bytes?: number;
  /** True when a secret-looking field was masked (the kept JSON is not the packets as they were). */
  masked?: boolean;
}

/** The revisions a flow's run ran (GET /flows/{id}/revisions/{revision}); null when unknown. */
export interface JobRevision {
  revision: number | null;
  pipeline_revision: number | null;
}

/** The configuration the part of a run after a wait ran with, when it differs from the start's. */
export interface ResumedWith extends JobRevision {
  resumed_at: Date;
  /** The 1-based step the run went on from. */
  position: number;
  ran_with: RanStep[];
}

/** A step of the flow as it ran: its handler's settings with secrets masked. */
export interface RanStep {
  flow_step_id: string;
  step_type: string;
  handler_slug: string | null;
  enabled: boolean;
  handler_config: Record<string, unknown>;
}

/** A packet's identity as a job shows it: the engine's item identity and a title. */
export interface StepItem {
  item_id: string;
  title: string | null;
}

/** How many item identities a step outcome keeps. */
export const STEP_ITEMS_KEPT = 500;

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

/** What started a run (a job's `source`, its `trigger.kind` unless it is a retry). */
export type JobSource = 'execute' | 'schedule' | 'webhook' | 'cli' | 'chat' | 'mcp';

/** The sources a caller names when it asks for a run (schedules and webhooks start their own). */
export type RunSource = Extract<JobSource, 'execute' | 'cli' | 'chat' | 'mcp'>;

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
  /** What started the run: POST /execute, a schedule, a webhook delivery, the CLI, the chat assistant's tools, or the same tools called over MCP. */
  source: JobSource;
  /** The steps as the run planned them, secrets masked (written with its first step's record). */
  ran_with?: RanStep[];
  /** The flow's revision the run ran (with `ran_with`); null or absent for ephemeral workflows and older records. */
  revision?: number | null;
  /** The pipeline's revision the run ran. */
  pipeline_revision?: number | null;
  /**
   * A run that went on after a wait with a configuration other than the one it started
   * with: each such resume's revisions and steps (`ran_with` and `revision` keep the start's).
   */
  resumed_with?: ResumedWith[];
  /** Who asked for the run (their capabilities then); null for schedules and webhooks. */
  started_by?: ActingUserRecord | null;
  created_at: Date;
  scheduled_for: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  /** While `processing`: when the running host last renewed its lease (engine/run-lease.ts). */
  heartbeat_at?: Date | null;
  /** Where a retry of this run would start (engine/checkpoint.ts): kept while it runs and after it fails. */
  checkpoint?: RunCheckpoint;
  /** Items a publish or update step of this run has done: their claims outlive a failure. */
  kept_items?: string[];
  /** Claims this run gave back when it failed: a retry takes them again (unless another run did). */
  released_claims?: ReleasedClaim[];
  /** POST /jobs/{id}/retry: the job this one retries, and from where. */
  retry_of?: number;
  retry_from?: RetryFrom;
  /** A retry job: where its run starts (copied from the retried job's checkpoint). */
  resume?: RunCheckpoint & { claims: ReleasedClaim[] };
  /** The job that retries this one (one retry per job: retry the retry if it fails too). */
  retried_by?: number;
  /** While `waiting` (and after, as a record): the step the run waits at and each item's decision. */
  review?: JobReview;
  /** Every item decision this run made (and those of the run it retries): a retry waits only for the rest. */
  decided?: DecidedItem[];
  /** Set when a wait ended: the next run of this job goes on from the step it waited at, with its earlier steps' records. */
  review_resume?: boolean;
}

/** One decision on one item at one step. */
export interface DecidedItem {
  flow_step_id: string;
  item_id: string;
  decision: ReviewDecision;
}

/** One item a waiting step holds: its identity, its packet as it will go on (masked, bounded) and its decision. */
export interface ReviewItem {
  item_id: string;
  title: string | null;
  /** The packet as the step was given it (the previous step's output, e.g. the AI's): masked JSON. */
  packet: RecordedPackets;
  decision: ReviewDecision | null;
  decided_at: Date | null;
  /** Who decided: a user's login, `link`, `webhook` or `timeout`; null while pending. */
  decided_by: string | null;
}

/** Where and how a run waits (core/engine/review.ts). */
export interface JobReview {
  flow_step_id: string;
  /** The step's 0-based place in the run's plan, and its 1-based position as shown. */
  index: number;
  position: number;
  mode: 'review' | 'webhook';
  since: Date;
  timeout_at: Date | null;
  on_timeout: 'approve' | 'reject';
  /** Until when the signed link and the webhook URL are valid. */
  link_expires_at: Date;
  /** The random part of this wait's signed tokens: a token of an earlier wait names another. */
  nonce: string;
  items: ReviewItem[];
  /** Bumped by every decision: each write is conditional on the version it read (hosts race safely). */
  version: number;
  /** When the wait ended, how (decided, timeout, webhook; or the job cancelled, or its step removed), and the webhook delivery's payload keys. */
  ended_at?: Date;
  ended_by?: 'decided' | 'timeout' | 'webhook' | 'removed' | 'cancelled';
}

/** Where POST /jobs/{id}/retry starts: the step that failed, or the flow's first step. */
export type RetryFrom = 'failed_step' | 'start';

/**
 * The step a run was at and what it was given, so a retry can start there: the packets
 * sealed (they are unmasked), and the items that step had already published with what it
 * passed on for each. `input` is null when the packets were too large to keep.
 */
export interface RunCheckpoint {
  /** The step's flow step id, and its 0-based place in the run's plan (ephemeral workflows' ids carry their job id). */
  flow_step_id: string;
  index: number;
  input: string | null;
  count: number;
  done: Array<{ item_id: string; output: string }>;
}

/** A fetch step's claim on an item (processed_items): the flow step and the item. */
export interface ReleasedClaim {
  flow_step_id: string;
  item_id: string;
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
