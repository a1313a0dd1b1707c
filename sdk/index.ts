/**
 * Flowhost's public plugin SDK: the whole of it. Built-in plugins import only from here,
 * exactly as third-party authors do; test/sdk/exports.test.ts pins this list.
 */
import 'reflect-metadata';

export {
  definePlugin,
  defineHandler,
  defineProvider,
  definePreset,
  defineInterval,
  defineAnalyticsTool,
  defineChatTool,
  defineVerifier,
  defineAuthProvider,
  defineRoute,
  defineSurface,
  defineStepType,
  defineCliNoun,
  definePostType,
  defineTaxonomy,
} from './define.js';
export { definePluginManifest } from './manifest.js';
export { reply, page, json, stream, RouteReply, isRouteReply } from './kernel/routes.js';
export {
  ApiError,
  isApiError,
  PluginError,
  badRequest,
  notFound,
  forbidden,
  notLoggedIn,
  conflict,
  tooManyRequests,
} from './errors.js';
/** Error codes: the core's (`apiError('rest_invalid_param', {...})`) and a plugin's own, declared once with their status. */
export { apiError } from './errors/catalogue.js';
export { definePluginErrors } from './errors/plugin-errors.js';
export { services } from './services.js';
export { actingUserOf } from './kernel/acting-user.js';
export { oauth1Authorization } from './credentials/oauth1.js';
export { fetchHonouringRetryAfter } from './security/retry-after.js';
export { fitText, graphemeCount, graphemes, htmlToPlainText, packetText } from './kernel/post-text.js';
/** A post's stored text as the safe HTML wp/v2 answers as `content.rendered` (markdown rendered, sanitized). */
export { renderContent } from './content/render.js';
/**
 * WordPress's per-post rights (map_meta_cap's read_post, edit_post, delete_post) and a
 * post query filtered to what a reader may see: what a plugin showing or changing posts
 * for a user checks, so it does no more than wp/v2 lets that user do.
 */
export { canReadPost, canEditPost, canDeletePost, readsEverything } from './content/post-caps.js';
export { findReadablePosts } from './content/readable-posts.js';
/** WordPress's kses for users without unfiltered_html: post HTML, title HTML, plain text (term names). */
export { ksesPost, ksesTitle, stripTags } from './content/kses.js';
export { createServiceRef, createServiceFactory, isServiceRef, optionalService } from './kernel/service-ref.js';
export { createExtensionPoint, isExtensionPoint } from './kernel/extension-point.js';
export { HookCatalogue, isTapped } from './kernel/hooks.js';
export { FLOWHOST_VERSION } from './kernel/version.js';
export { DuplicateKeyError, UnsupportedQueryError } from './store/port.js';
export { BlobTooLargeError } from './store/blob-port.js';
export { successBody, errorBody, named } from './kernel/response-schemas.js';
export { DEFAULT_UPLOAD_TYPES, readUpload, sanitizeFilename } from './kernel/upload.js';
export { safeEqual } from './security/constant-time.js';
export { stableJson } from './kernel/stable-json.js';
// TypeBox's builders without loading TypeBox at run time (see schema-type.ts).
export { Type } from './schema-type.js';
export { maskSecret, maskDeep } from './security/mask.js';
export { isSecretParameter } from './security/secret-parameters.js';
export { UrlRefusedError, FetchLimitError } from './security/guarded-fetch-types.js';

export type { PluginDefinition, HostInfo } from './kernel/plugin.js';
export type { PluginMigration, MigrationContext } from './migrations.js';
export type { CoreErrorCode } from './errors/catalogue.js';
export type { ErrorEntry, ErrorEntries, ErrorFactory, ErrorOptions, ErrorStatus } from './errors/define-errors.js';
export type {
  ServiceRef,
  ServiceScope,
  ServiceDeps,
  ResolvedDeps,
  ServiceFactory,
  PluginScopeContext,
} from './kernel/service-ref.js';
export type { PluginStore, PluginScheduler, ScheduledJobContext, JobOptions } from './kernel/plugin-services.js';
export type { Registrar, ContributionKind, KindName, ItemOf } from './kernel/contribution-kinds.js';
export type {
  ExtensionPoint,
  ExtensionPointOptions,
  ExtensionPointContributions,
  ExtensionPointDeclaration,
} from './kernel/extension-point.js';
export type { RegistryEntry } from './kernel/registry.js';
export type {
  HandlerDefinition,
  FetchHandler,
  PublishHandler,
  UpdateHandler,
  HandlerContext,
  HandlerAuth,
  HandlerCredentials,
  CallContext,
  StepRunContext,
  StepWait,
  StepWaitRequest,
  ReviewDecision,
  HandlerStepType,
  DataPacket,
  AuthType,
  ProviderDefinition,
  ChatMessage,
  JsonValue,
  ProviderMessage,
  ProviderToolSpec,
  ProviderToolCall,
  ProviderGenerateRequest,
  ProviderGenerateResult,
  ProviderTestResult,
  ProviderModelList,
  ProviderErrorCode,
  TokenUsage,
  StepReport,
  AiStepReport,
  AiToolCallRecord,
  PresetDefinition,
  IntervalDefinition,
  ToolDefinition,
  VerifierDefinition,
  VerifierRequest,
  VerifierVerdict,
  AuthProviderDefinition,
  OAuth1Endpoints,
  OAuth2Endpoints,
  StepTypeDefinition,
  PostTypeDefinition,
  TaxonomyDefinition,
} from './kernel/contributions.js';
export type {
  HttpMethod,
  Permission,
  RouteRequest,
  RouteResult,
  RouteSchema,
  RequestHeader,
  ResponseHeader,
  UploadSchema,
  RouteDefinition,
  SurfaceDefinition,
} from './kernel/routes.js';
/** Chat and analytics tools are owned by their plugins: `flowhost/chat`, `flowhost/analytics` (these names stay for existing imports). */
export type { ChatToolDefinition } from './chat/index.js';
export type { AnalyticsToolDefinition } from './analytics/tools.js';
export type { Principal, Capability } from './kernel/principal.js';
export type { ActingUser } from './kernel/acting-user.js';
export type { Registries } from './kernel/registries.js';
export type { ContentTypes } from './contract/content-types.js';
export type { ScheduleIntervals } from './contract/schedule-intervals.js';
export type { HandlerCatalogue } from './contract/handler-catalogue.js';
export type { ApiClient, ApiGetOptions, ApiMethod, ApiRequestOptions, ApiResponse } from './kernel/api-client.js';
export type { InterruptedWork } from './kernel/interrupted-work.js';
export type {
  LifecycleInfo,
  StepTiming,
  RequestTiming,
  ScheduledRunTiming,
  StoreOperationTiming,
} from './kernel/hooks.js';
/** Hooks owned by the domain that fires them: plugins listen through its service (`services.engineEvents`...). */
export type { Listen, ListenOnly } from './kernel/domain-hooks.js';
export type { EngineEvents, EngineHookSet, StepInfo, JobOutcome, JobWaiting } from './contract/engine-events.js';
export type { LogEvents, LogHookSet, LogEntry } from './contract/log-events.js';
export type { WebhookEvents, WebhookHookSet, WebhookEvent } from './contract/webhook-events.js';
export type { SiteEvents, SiteHookSet } from './contract/site-events.js';
export type { JsonSchema } from './kernel/json-schema.js';
export type { HmacPresetDefinition } from './define.js';
export type {
  SchemaInput,
  StaticOf,
  TypeBoxSchema,
  TypedHandlerDefinition,
  TypedRequest,
  TypedRouteDefinition,
  TypedRouteSchema,
  TypedToolDefinition,
} from './typed-schemas.js';
export type {
  HmacTemplate,
  HmacAlgo,
  SignatureEncoding,
  TimestampFormat,
  ExtractSpec,
  SignatureSource,
  TimestampSource,
  IdSource,
  SecretEncoding,
} from './webhooks/hmac-template.js';
export { parameterValidators } from './kernel/validator.js';
export type { ValidateFunction } from 'ajv';
export type { CliNounDefinition, CliCommandDefinition, CliContext, CliOption } from './kernel/cli.js';
export type { CliNounManifest, PluginManifest } from './kernel/plugin-manifest.js';
export type { Logger, LogFn } from './kernel/logger.js';
export type { Clock } from './kernel/clock.js';
export type {
  DocumentStore,
  Collection,
  Filter,
  Update,
  FindOptions,
  FindOneAndUpdateOptions,
  IndexSpec,
  StoredDocument,
  NewDocument,
  TotalsSpec,
  TotalsGroup,
} from './store/port.js';
export type { BlobBucket, BlobInfo, BlobPutOptions } from './store/blob-port.js';
export type { ReadUploadOptions, Upload, UploadTypes } from './kernel/upload.js';
export type { Vault } from './security/vault.js';
// The contract: what a plugin may do with each domain (sdk/contract/), the types its
// references carry. The classes behind them are the core's.
export type {
  ContentStore,
  Post,
  NewPost,
  PostPatch,
  PostQuery,
  PostStatus,
  Term,
  NewTerm,
  TermPatch,
  TermQuery,
} from './contract/content.js';
export type { FlowsApi, FlowRecord, FlowStepSettings, SchedulingConfig, HandlerDefaultsMode, NewFlowStepConfig } from './contract/flows.js';
export type { PipelinesApi, PipelineRecord, PipelineStep } from './contract/pipelines.js';
export type { JobsApi, JobRecord, JobSource, JobStatus, RunSource } from './contract/jobs.js';
export type { ExecuteApi, ExecuteRequest } from './contract/execute.js';
export type { CredentialsApi } from './contract/credentials.js';
export type { SettingsApi, SiteSettings } from './contract/settings.js';
export type { UsersApi, UserView } from './contract/users.js';
export type { LogsApi, LogEntryInput, LogRecordView } from './contract/logs.js';
export type { MailApi, MailMessage, SmtpSettings, SmtpTransport } from './contract/mail.js';
export { smtpSettingsProperties, smtpTransportOf } from './contract/mail.js';
/** The credentials contract under its SDK 2 name. */
export type { CredentialsApi as CredentialsService } from './contract/credentials.js';
export type { PostReader } from './content/post-caps.js';
export type { GuardedFetch, GuardedRequestInit, GuardedResponse } from './security/guarded-fetch-types.js';
