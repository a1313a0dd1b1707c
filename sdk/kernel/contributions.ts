/**
 * What plugins contribute through the registry hooks. Each kind has a `define*` helper
 * in the SDK that only checks and returns its argument, so authors get types and early
 * errors without touching tapable.
 */
import type { JsonSchema } from './json-schema.js';
import type { Logger } from './logger.js';
import type { Clock } from './clock.js';
import type { GuardedFetch } from '../security/guarded-fetch-types.js';
import type { ContentStore } from '../contract/content.js';
import type { ActingUser } from './acting-user.js';

export type HandlerStepType = 'fetch' | 'publish' | 'update';
export type AuthType = 'oauth1' | 'oauth2' | 'app_password';

/** One unit of data flowing between steps. */
export interface DataPacket {
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** A handler's credentials, decrypted for the run (never logged, never in a response). */
export interface HandlerCredentials {
  /** The provider key the credentials belong to. */
  readonly provider: string;
  /** The saved credential fields by their listing names (api_key, client_id, handle...). */
  readonly fields: Readonly<Record<string, string>>;
  /** The connected account's tokens (OAuth) or null when not connected. */
  readonly tokens: Readonly<Record<string, string>> | null;
  readonly account: { readonly username: string; readonly id: string } | null;
  /** Records that the service refused the credentials: the status shows the error. */
  markFailed(code: string, message: string): Promise<void>;
  /** Stores refreshed tokens (an OAuth2 refresh). */
  saveTokens(tokens: Record<string, string>, expiresAt?: Date | null): Promise<void>;
}

/**
 * What every piece of plugin code runs with: who it acts for, a guarded fetch, a clock and
 * a logger. (Credentials for a handler's auth provider join it with the credentials domain.)
 */
export interface CallContext {
  /** The user the work was requested by, with their capabilities then; null for schedules and webhooks. */
  readonly user: ActingUser | null;
  readonly log: Logger;
  readonly clock: Clock;
  /** Guarded fetch for user-given URLs (refuses private addresses unless the host allows them). */
  readonly fetch: GuardedFetch;
  /**
   * Which client calls (a chat tool served over MCP: `mcp`); absent: the chat assistant.
   * A tool that changes or runs something records it (revisions' `client`, a job's `source`).
   */
  readonly client?: 'chat' | 'mcp';
}

/** What a handler sees while running: services, never the store itself. */
export interface HandlerContext extends CallContext {
  readonly flowId: number | null;
  readonly pipelineId: number | null;
  readonly jobId: number;
  readonly flowStepId: string;
  /** The credentials of the handler's auth provider; null for handlers without auth. */
  readonly credentials: HandlerCredentials | null;
  /**
   * The core content store (posts and terms). What a run writes through it is filtered as
   * the flow owner's own wp/v2 post would be: kses on post title, content and excerpt and on
   * term descriptions, unless the owner has unfiltered_html.
   */
  readonly content: ContentStore;
  /** The job's engine data (initial_data merged in); read-only for handlers. */
  readonly engineData: Readonly<Record<string, unknown>>;
}

/** What credentials a handler needs (spec: "Handler definition", "Auth"). */
export interface HandlerAuth {
  type: AuthType;
  /** Credential field names as the handler listing reports them (`auth_fields`), e.g. api_key, api_secret. */
  fields: string[];
  /**
   * Other names PUT /auth accepts for a field (the spec's PUT names differ from the
   * listing's): `{ consumer_key: 'api_key' }`.
   */
  aliases?: Record<string, string>;
  /** Provider key whose credentials this handler uses (default: its own slug); `threaded` uses `social`. */
  provider?: string;
}

interface HandlerBase {
  slug: string;
  label: string;
  description: string;
  /** Implementation identifier reported as `class`; defaults to `<plugin id>/<slug>`. */
  class?: string;
  /** JSON Schema of `handler_config`; compiled at boot. */
  settings?: JsonSchema;
  /** Credentials the handler needs; absent when it needs none. */
  auth?: HandlerAuth;
  /**
   * Maximum text length a publish handler accepts (the microblog's 280). The host makes each
   * item fit before `publish` sees it: its text (`packetText`: content as plain text, else
   * title, then the link) is cut at a word and ends with `…`, the link never cut, and the
   * published packet is marked `shortened` (docs/api.md, "Publish text limits"). Shown as
   * `text_limit` in GET /handlers.
   */
  textLimit?: number;
  /** How the service counts text against `textLimit` (default: graphemes, the characters a reader sees). */
  countText?(text: string): number;
}

/** Brings items in: returns new packets (the engine keeps only items not seen before). */
export interface FetchHandler<S = Record<string, unknown>> extends HandlerBase {
  type: 'fetch';
  fetch(ctx: HandlerContext, settings: S): Promise<DataPacket[]>;
}

/** Sends packets out (a post, a tweet...): returns what was published. */
export interface PublishHandler<S = Record<string, unknown>> extends HandlerBase {
  type: 'publish';
  publish(ctx: HandlerContext, settings: S, packets: DataPacket[]): Promise<DataPacket[]>;
}

/** Changes something that exists (a post's fields...). */
export interface UpdateHandler<S = Record<string, unknown>> extends HandlerBase {
  type: 'update';
  update(ctx: HandlerContext, settings: S, packets: DataPacket[]): Promise<DataPacket[]>;
}

/**
 * A handler: a discriminated union on `type`, so a fetch handler without `fetch` does not
 * compile. `S` is the type of its validated settings; an interface works.
 */
export type HandlerDefinition<S = Record<string, unknown>> = FetchHandler<S> | PublishHandler<S> | UpdateHandler<S>;

/** A plain chat message (the older `complete()` interface). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
}

/** A JSON value: what tool arguments, tool results and stored messages are made of. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A message of a conversation sent to `generate`. `response` messages are the ones a
 * previous `generate` returned in `responseMessages`, appended unchanged: they carry the
 * model's tool calls and provider data (thought signatures...) the next turn needs. They
 * are JSON, so a conversation can be stored and resumed.
 */
export type ProviderMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string }
  | { role: 'tool'; toolCallId: string; toolName: string; output: JsonValue }
  | { role: 'response'; message: { readonly [key: string]: JsonValue } };

/** A tool the model may call; the caller runs it (the provider never does). */
export interface ProviderToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

/** A tool call the model asked for. */
export interface ProviderToolCall {
  id: string;
  name: string;
  args: { [key: string]: JsonValue };
}

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface ProviderGenerateRequest {
  model: string;
  messages: ProviderMessage[];
  system?: string;
  tools?: ProviderToolSpec[];
  maxOutputTokens?: number;
  temperature?: number;
}

export interface ProviderGenerateResult {
  /** The model's text ('' when it only called tools). */
  text: string;
  toolCalls: ProviderToolCall[];
  usage: TokenUsage;
  finishReason: 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';
  /** The model that answered (as the provider names it). */
  model: string;
  /** Append these to `messages` (then the tool results) for the next turn. */
  responseMessages: ProviderMessage[];
}

/** What `test` reports: `message` is the provider's own words when it refused. */
export type ProviderTestResult = { ok: true; message: string } | { ok: false; code: ProviderErrorCode; message: string };

export type ProviderErrorCode =
  | 'not_configured'
  | 'key_refused'
  | 'rate_limited'
  | 'unavailable'
  | 'context_too_long'
  | 'bad_request'
  | 'unknown_model';

/** A models list and where it came from, as GET /providers says it. */
export interface ProviderModelList {
  models: string[];
  /** `service`: the provider's own list; `built-in`: the plugin's list, when the service's is not available. */
  source: 'service' | 'built-in';
  /** Why the built-in list is shown (no key, or the service's list could not be read). */
  note?: string;
}

export interface ProviderDefinition {
  slug: string;
  label: string;
  /** Whether the provider has what it needs (e.g. an API key). */
  configured(ctx: CallContext): boolean | Promise<boolean>;
  models(ctx: CallContext): string[] | Promise<string[]>;
  /** The models with their source (optional; GET /providers then says where the list came from). */
  modelList?(ctx: CallContext): Promise<ProviderModelList>;
  /**
   * One model call: text, tool calls (tools have no `execute`: the caller runs them and
   * calls again), usage. Throws `ProviderError` with a clear message on failure.
   */
  generate?(request: ProviderGenerateRequest, ctx: CallContext): Promise<ProviderGenerateResult>;
  /** A cheap authenticated call: does the key work? Never throws for a refused key. */
  test?(ctx: CallContext): Promise<ProviderTestResult>;
  /** @deprecated use `generate`; still used by the ai step when a provider has no `generate`. */
  complete?(request: { model: string; messages: ChatMessage[] }, ctx: CallContext): Promise<{ content: string }>;
}

export interface PresetDefinition {
  slug: string;
  label: string;
  /** The full webhook template this preset expands to. */
  template: Record<string, unknown>;
}

export interface IntervalDefinition {
  value: string;
  label: string;
  /** Null for intervals with no automatic repetition (manual, one_time). */
  seconds: number | null;
}

export interface ToolDefinition {
  name: string;
  /** A short title for people (what an MCP client shows, e.g. "Search the archive"); default: made from `name`. */
  title?: string;
  description: string;
  parameters: JsonSchema;
  /** `ctx.user` is the calling user: a tool must do no more than they may. */
  run(args: Record<string, unknown>, ctx: CallContext): Promise<unknown>;
  /**
   * Whether the tool is offered now (default: always). A tool that needs configuration
   * (an API key) answers false until it has it, so a model is never offered a tool that
   * can only fail.
   */
  enabled?(ctx: CallContext): boolean | Promise<boolean>;
  /**
   * The tool deletes or resets what the user cannot get back (true), or does so with some
   * arguments (a function of them). Chat offers such a tool only when the site enables it
   * (`plugins.chat.destructive_tools`), and runs such a call only once the user confirms
   * it in a request of their own: a model's mistake, or instructions injected through a
   * fetched page, must not be enough (docs/chat.md, "Tools that delete").
   */
  destructive?: boolean | ((args: Record<string, unknown>) => boolean);
}

/** What a verifier sees of an inbound trigger request. */
export interface VerifierRequest {
  /** The body exactly as received. */
  rawBody: Buffer;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Every value of each query parameter, in the order sent (a repeated name keeps them all). */
  query: Readonly<Record<string, readonly string[]>>;
  /** The full URL as the sender saw it (the configured public base URL + path and query). */
  url: string;
  /** The values of the flow's active secrets (in rotation grace, the older ones too). */
  secrets: readonly string[];
  /** The host clock's now, for replay windows. */
  now: Date;
}

/**
 * A verifier's answer. `reason` goes to the flow's log (never to the sender, who always
 * sees the same 401), so it may name headers and values but must never contain a secret.
 * `eventId` enables the flow's duplicate-event protection for this mode.
 */
export type VerifierVerdict = { ok: true; eventId?: string | null } | { ok: false; reason: string };

export interface VerifierDefinition {
  /** Auth mode name selected on a flow, e.g. 'twilio'. */
  mode: string;
  label: string;
  /** `true`/`false` is accepted as a verdict without details. */
  verify(request: VerifierRequest): VerifierVerdict | boolean | Promise<VerifierVerdict | boolean>;
}

/** What an ai step reports on its outcome in the job (`steps[].ai`). */
export interface AiStepReport {
  provider: string;
  model: string;
  usage: TokenUsage;
  /** Model calls made (one per packet) and the time they took together. */
  calls: number;
  latency_ms: number;
  /** The tools the step offered the model (`server/tool`), when its settings named any. */
  tools?: string[];
  /** Each call of those tools, in order: what the model asked and what came back (cut to a size) or went wrong. */
  tool_calls?: AiToolCallRecord[];
}

/** One tool call of an ai step, as its outcome in the job keeps it. */
export interface AiToolCallRecord {
  tool: string;
  args: { [key: string]: JsonValue };
  result?: JsonValue;
  error?: string;
}

/** Details a step adds to its outcome in the job (GET /jobs/{id} `steps[]`). */
export interface StepReport {
  ai?: AiStepReport;
  /** What an approval step let through and dropped (the job's `review` names each item). */
  review?: { approved: number; rejected: number };
}

/** A person's (or a timeout's) decision on one item a step waited for. */
export type ReviewDecision = 'approved' | 'rejected';

/**
 * How a step pauses its run (`return ctx.wait({...})`): the job becomes `waiting` in the
 * store with the packets the step was given, until each undecided item is approved or
 * rejected (`review`), or one delivery arrives at the job's signed URL (`webhook`), or the
 * timeout decides the rest. Then the step runs again with the same packets and
 * `ctx.decisionOf` answers for each.
 */
export interface StepWaitRequest {
  mode: 'review' | 'webhook';
  /** Minutes until the undecided items get `onTimeout`; null: no timeout. */
  timeoutMinutes: number | null;
  onTimeout: 'approve' | 'reject';
  /** How long the signed resume link and webhook URL stay valid (hours; the timeout caps it). */
  linkHours: number;
}

/** What `ctx.wait` answers: return it from `run` (the engine recognises it; do not build one yourself). */
export interface StepWait {
  readonly wait: StepWaitRequest;
}

/** What a step type's `run` gets: the step's configuration and the job around it. */
export interface StepRunContext extends HandlerContext {
  /** The flow step's own configuration (handler_config, provider, model, prompts...). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Adds details to this step's outcome in the job (later calls replace the same keys). */
  report(details: StepReport): void;
  /**
   * This step's decision on an item, made while this run waited here, or by the run it
   * retries (a retried run waits only for items not decided before); null when undecided.
   */
  decisionOf(packet: DataPacket): ReviewDecision | null;
  /** Pauses the run at this step (see StepWaitRequest); `run` returns what it answers. */
  wait(request: StepWaitRequest): StepWait;
}

/**
 * A kind of pipeline step the engine can run. A step type with a `handlerType` runs the
 * flow step's handler (fetch, publish, update); one without runs its own `run` (ai, or a
 * plugin's new kind of step).
 */
export interface StepTypeDefinition {
  type: string;
  label: string;
  /** The handler type a flow step of this kind picks (null: the step runs `run`). */
  handlerType: HandlerStepType | null;
  /**
   * JSON Schema of the step's own settings (the pipeline step's config, for a step type
   * that has no handler, e.g. approval's mode and timeout): checked when a pipeline step of
   * this type is configured (PUT /pipelines/steps/{id}/config answers 400 naming the
   * field), and shown with the step type (GET /step-types). Absent: anything is stored.
   */
  settings?: JsonSchema;
  run?(ctx: StepRunContext, packets: DataPacket[]): Promise<DataPacket[] | StepWait>;
}

/** OAuth 1.0a three-legged endpoints (RFC 5849). */
export interface OAuth1Endpoints {
  requestTokenUrl: string;
  authorizeUrl: string;
  accessTokenUrl: string;
}

/** OAuth 2.0 authorization-code endpoints (with PKCE S256 unless `pkce` is false). */
export interface OAuth2Endpoints {
  /** The authorization server's issuer identifier (its base URL when it publishes none). */
  issuer: string;
  authorizationUrl: string;
  tokenUrl: string;
  scopes: string[];
  pkce?: boolean;
  /** How the client authenticates at the token endpoint: secret in the body (default) or HTTP Basic. */
  clientAuth?: 'post' | 'basic';
  /** Extra authorization parameters the provider wants (e.g. `duration: permanent`, `access_type: offline`). */
  extraParams?: Record<string, string>;
}

/**
 * An auth provider: the browser authorization of OAuth handlers sharing one provider key.
 * Endpoints are functions so a base URL from the plugin's settings applies.
 */
export interface AuthProviderDefinition {
  /** Provider key several handlers may share (e.g. 'social' for 'threaded'). */
  key: string;
  type: AuthType;
  label: string;
  /** Credential fields accepted by PUT /auth/{slug}. */
  fields: string[];
  oauth1?: () => OAuth1Endpoints;
  oauth2?: () => OAuth2Endpoints;
  /** The account a token response names, e.g. `{ username: screen_name, id: user_id }`. */
  accountFrom?(tokenResponse: Readonly<Record<string, string>>): { username: string; id: string };
  /** The account an OAuth 2 access token belongs to (a call to the service's "me"). */
  account?(accessToken: string, fetch: GuardedFetch): Promise<{ username: string; id: string }>;
}

/**
 * A kind of post the content domain stores and `{prefix}/wp/v2/{rest_base}` serves
 * (the core registers `post`; the media library `attachment`; docs and events theirs).
 */
export interface PostTypeDefinition {
  /** Stored as the post's `post_type`, e.g. 'post', 'documentation'. */
  name: string;
  label: string;
  /** Path segment under wp/v2, e.g. 'posts', 'docs'. */
  rest_base: string;
  /** Public reads of published posts (default true). */
  public?: boolean;
  hierarchical?: boolean;
  /** Taxonomy names whose terms a post of this type carries (each also lists the type). */
  taxonomies?: string[];
  /**
   * Who serves the type's wp/v2 routes: 'posts' (default) the generic post routes;
   * 'custom' the registering plugin itself (core-media's `attachment` at /media), so the
   * generic routes skip the type.
   */
  rest_controller?: 'posts' | 'custom';
  /**
   * Typed post meta: a JSON Schema per meta key. wp/v2 writes check these keys (a `null`
   * still removes one) and answer 400 `rest_invalid_param` naming `meta.<key>`; other keys
   * stay free-form. Content-service writes (handlers) are not checked: validate there.
   */
  meta?: Record<string, JsonSchema>;
}

/** A taxonomy of terms served at `{prefix}/wp/v2/{rest_base}` (category, post_tag, project...). */
export interface TaxonomyDefinition {
  /** Stored as the term's `taxonomy`, and the key of a post's `terms`. */
  name: string;
  label: string;
  rest_base: string;
  hierarchical: boolean;
  /** Post types that carry terms of this taxonomy. */
  post_types: string[];
  public?: boolean;
}
