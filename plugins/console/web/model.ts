/** The API's shapes the console reads (the fields it uses, as the API documents them). */
export interface PipelineStep {
  pipeline_step_id: string;
  step_type: string;
  execution_order: number;
  label?: string;
}
export interface Pipeline {
  pipeline_id: number;
  pipeline_name: string;
  flow_count?: number;
  step_count?: number;
  pipeline_steps?: PipelineStep[];
  /** Each step's own configuration by pipeline step id (an ai step's provider, model, system_prompt). */
  pipeline_config?: Record<string, Record<string, unknown>>;
}
export interface FlowStep {
  flow_step_id: string;
  pipeline_step_id: string;
  step_type: string;
  execution_order: number;
  handler_slug: string | null;
  handler_config: Record<string, unknown>;
  enabled?: boolean;
  /** An ai step's message for this flow. */
  user_message?: string;
  /** Required settings of the handler still unset: a run refuses the step until they are. */
  missing_settings?: string[];
}
export interface Flow {
  flow_id: number;
  flow_name: string;
  pipeline_id: number;
  flow_config?: Record<string, FlowStep>;
  scheduling_config: { interval: string; timestamp?: number | string };
  last_run?: string | null;
  last_run_status?: string | null;
  next_run_display?: string;
  is_running?: boolean;
  consecutive_failures?: number;
  recent_jobs?: Array<{ job_id: number; status: string; created_at: string; error?: string }>;
  updated_at?: string;
  /** Its latest revision (the History section reads again when it changes). */
  revision?: number | null;
}
export interface Job {
  job_id: number;
  pipeline_id: number | null;
  pipeline_name?: string | null;
  flow_id: number | null;
  flow_name?: string | null;
  label?: string;
  status: string;
  source?: string;
  error?: string | null;
  created_at: string;
  started_at?: string | null;
  completed_at?: string | null;
  duration_ms?: number | null;
  /** The job this run retries, and the job that retries it (once retried). */
  retry_of?: number | null;
  retried_by?: number | null;
  steps?: Array<{
    flow_step_id: string;
    step_type: string;
    handler_slug: string | null;
    items_reused?: number;
    status: string;
    items_in: number;
    items_out: number;
    started_at?: string;
    finished_at?: string;
    error?: string | null;
    duration_ms?: number;
    /** The step's 1-based place in the flow's pipeline (a retry from the failed step starts past 1). */
    position?: number | null;
    published?: Array<{ id: string; url: string | null }>;
    /** With include=packets: what the step was given and what it passed on (null: not recorded). */
    input?: RecordedItems | null;
    output?: RecordedItems | null;
  }>;
  engine_data?: Record<string, unknown>;
  /** A job that waits (or waited) at an approval step: its items as they will go on, and their decisions. */
  review?: JobReview;
  trigger?: {
    kind: string;
    retry_of: number | null;
    /** A retry: where it started. */
    retry_from?: 'failed_step' | 'start';
    /** The run that retries this one, once retried. */
    retried_by?: number | null;
    user_login: string | null;
    webhook?: { request_id: string | null; received_at: string | null; payload: unknown; truncated: { bytes: number } | null };
  };
}
/** A waiting job's review (GET /jobs?status=waiting, GET /jobs/{id}; docs/api.md "Waiting jobs"). */
export interface JobReview {
  flow_step_id: string;
  position: number;
  mode: 'review' | 'webhook';
  since: string;
  timeout_at: string | null;
  on_timeout: 'approve' | 'reject';
  pending: number;
  ended_at: string | null;
  ended_by: 'decided' | 'timeout' | 'webhook' | null;
  items: ReviewItem[];
}
export interface ReviewItem {
  item_id: string;
  title: string | null;
  /** The packet as it will go on to the next step (secrets masked); null when it was too large to keep. */
  packet: { type?: string; data?: Record<string, unknown>; metadata?: Record<string, unknown> } | null;
  decision: 'approved' | 'rejected' | null;
  decided_at: string | null;
  decided_by: string | null;
}
/** A step's input or output as a run keeps it: the first items, the count, what did not fit. */
export interface RecordedItems {
  items: Array<{ type?: string; data?: Record<string, unknown>; metadata?: Record<string, unknown> }>;
  count: number;
  truncated: { items: number; bytes: number } | null;
  masked: boolean;
}
export interface HandlerSummary {
  type: string;
  label: string;
  description?: string;
  requires_auth?: boolean;
  /** Present only on handlers that need credentials (GET /handlers). */
  auth_type?: AuthType;
  auth_fields?: string[];
  is_authenticated?: boolean;
  account_details?: AccountDetails;
}
export type AuthType = 'oauth1' | 'oauth2' | 'app_password';
export interface AccountDetails {
  username: string;
  id: string;
}
/** GET /auth/{slug}/status of a handler that needs credentials. */
export interface AuthStatus {
  handler_slug: string;
  requires_auth: boolean;
  authenticated: boolean;
  account_details?: AccountDetails;
  error?: boolean;
  error_code?: string;
  error_message?: string;
  /** Each auth field's saved value as the API masks it; '' when unset. */
  config_status: Record<string, string>;
  /** OAuth handlers: where the browser authorization starts. */
  oauth_url?: string;
}
export interface HandlerField {
  type: string;
  label?: string;
  description?: string;
  default?: unknown;
  options?: Array<string | { value: string; label: string }>;
  current_value?: unknown;
}
export interface Interval {
  value: string;
  label: string;
  seconds: number | null;
}
export interface LogEntry {
  id: number;
  level: string;
  message: string;
  context: Record<string, unknown>;
  created_at: string;
}

/** The step types of a default build, in the order a pipeline usually runs them. */
export const STEP_TYPES = [
  { type: 'fetch', label: 'Fetch' },
  { type: 'ai', label: 'AI' },
  { type: 'publish', label: 'Publish' },
  { type: 'update', label: 'Update' },
];

/** Where an HMAC template reads a value: a header or a parameter, and how it is taken out. */
export interface WebhookValueSource {
  header?: string;
  param?: string;
  extract?: { kind: 'raw' | 'prefix' | 'kv_pairs' | 'regex'; key?: string; separator?: string; pair_separator?: string };
}
/** An HMAC template as the API stores and answers it (core/webhooks/hmac-template.ts). */
export interface WebhookTemplate {
  mode: 'hmac';
  algo: 'sha1' | 'sha256' | 'sha512';
  signed_template: string;
  signature_source: WebhookValueSource & { encoding: 'hex' | 'base64' | 'base64url'; entry_separator?: string };
  timestamp_source?: WebhookValueSource & { format: 'unix' | 'unix_ms' | 'iso8601' };
  id_source?: WebhookValueSource;
  secret_encoding?: { encoding: 'utf8' | 'base64' | 'hex'; prefix?: string };
  tolerance_seconds?: number;
  max_body_bytes?: number;
}
/** GET /flows/{id}/webhook: values masked (`••••••••` + last 4), never the token or a secret. */
export interface WebhookStatus {
  flow_id: number;
  enabled: boolean;
  mode?: string;
  preset?: string | null;
  token?: string;
  secrets?: Array<{ id: string; value: string; expires_at: string | null; created_at: string }>;
  template?: WebhookTemplate | null;
  rate_limit?: { max: number; window_seconds: number };
  max_body_bytes?: number;
  dedupe_window_seconds?: number;
}
/** GET /webhook-presets (empty unless the webhook-presets plugin is loaded). */
export interface WebhookPreset {
  slug: string;
  label: string;
  template: WebhookTemplate;
}
/**
 * GET /settings: each value typed by itself (the console draws a field per scalar, so a
 * setting added on the server shows without a console change); the provider keys masked.
 */
export type SettingValue = string | number | boolean | null;
export interface SettingsData {
  settings: Record<string, SettingValue | Record<string, string>> & { ai_provider_keys?: Record<string, string> };
  defaults: Record<string, SettingValue>;
}
export interface Provider {
  label: string;
  /** A key is saved (through the API or the config file); the key itself is never answered. */
  configured: boolean;
  models: string[];
}
export interface ProvidersData {
  providers: Record<string, Provider>;
  defaults: { provider: string; model: string };
}
export interface ProviderTest {
  provider: string;
  ok: boolean;
  code?: string;
  message: string;
}
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  turn?: number;
  result?: unknown;
  error?: string;
  skipped?: boolean;
}
export interface ChatMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: ChatToolCall[];
  metadata?: { type?: string; timestamp?: string; turn?: number; tool_name?: string; success?: boolean };
}
export interface ChatSessionSummary {
  session_id: string;
  title: string;
  first_message: string;
  created_at: string;
  updated_at: string;
  message_count: number;
  agent_type: 'chat' | 'cli';
}
export interface ChatSession extends ChatSessionSummary {
  provider: string;
  model: string;
  conversation: ChatMessage[];
}
/** POST /chat and POST /chat/continue: both answer the whole conversation at the top level. */
export interface ChatAnswer {
  session_id: string;
  conversation: ChatMessage[];
  data: {
    session_id: string;
    response: string;
    completed: boolean;
    turn_number: number;
    max_turns_reached: boolean;
    pending_confirmation?: ChatToolCall | null;
  };
}
