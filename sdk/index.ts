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
export { reply, page, json, stream, RouteReply, isRouteReply } from '../core/kernel/routes.js';
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
} from '../core/errors.js';
/** Error codes: the core's (`apiError('rest_invalid_param', {...})`) and a plugin's own, declared once with their status. */
export { apiError } from '../core/errors/catalogue.js';
export { definePluginErrors } from '../core/errors/plugin-errors.js';
export { services } from './services.js';
export { actingUserOf } from '../core/kernel/acting-user.js';
export { oauth1Authorization } from '../core/credentials/oauth1.js';
export { fetchHonouringRetryAfter } from '../core/security/retry-after.js';
export { fitText, graphemeCount, graphemes, htmlToPlainText, packetText } from '../core/kernel/post-text.js';
/** A post's stored text as the safe HTML wp/v2 answers as `content.rendered` (markdown rendered, sanitized). */
export { renderContent } from '../core/content/render.js';
/**
 * WordPress's per-post rights (map_meta_cap's read_post, edit_post, delete_post) and a
 * post query filtered to what a reader may see: what a plugin showing or changing posts
 * for a user checks, so it does no more than wp/v2 lets that user do.
 */
export { canReadPost, canEditPost, canDeletePost, readsEverything } from '../core/content/post-caps.js';
export { findReadablePosts } from '../core/content/readable-posts.js';
/** WordPress's kses for users without unfiltered_html: post HTML, title HTML, plain text (term names). */
export { ksesPost, ksesTitle, stripTags } from '../core/content/kses.js';
export { createServiceRef, createServiceFactory, isServiceRef } from '../core/kernel/service-ref.js';
export { createExtensionPoint, isExtensionPoint } from '../core/kernel/extension-point.js';
export { HookCatalogue, isTapped } from '../core/kernel/hooks.js';
export { FLOWHOST_VERSION } from '../core/kernel/version.js';
export { DuplicateKeyError, UnsupportedQueryError } from '../core/store/port.js';
export { BlobTooLargeError } from '../core/store/blob-port.js';
export { successBody, errorBody, named } from '../core/kernel/response-schemas.js';
export { DEFAULT_UPLOAD_TYPES, readUpload, sanitizeFilename } from '../core/kernel/upload.js';
export { safeEqual } from '../core/security/constant-time.js';
export { stableJson } from '../core/kernel/stable-json.js';
// TypeBox's builders without loading TypeBox at run time (see schema-type.ts).
export { Type } from './schema-type.js';
export { maskSecret, maskDeep } from '../core/security/mask.js';
export { isSecretParameter } from '../core/security/secret-parameters.js';
export { UrlRefusedError, FetchLimitError } from '../core/security/guarded-fetch-types.js';

export type { PluginDefinition, HostInfo } from '../core/kernel/plugin.js';
export type { PluginMigration, MigrationContext } from './migrations.js';
export type { CoreErrorCode } from '../core/errors/catalogue.js';
export type { ErrorEntry, ErrorEntries, ErrorFactory, ErrorOptions, ErrorStatus } from '../core/errors/define-errors.js';
export type {
  ServiceRef,
  ServiceScope,
  ServiceDeps,
  ResolvedDeps,
  ServiceFactory,
  PluginScopeContext,
} from '../core/kernel/service-ref.js';
export type { PluginStore, PluginScheduler, ScheduledJobContext, JobOptions } from '../core/kernel/plugin-services.js';
export type { Registrar, ContributionKind, KindName, ItemOf } from '../core/kernel/contribution-kinds.js';
export type {
  ExtensionPoint,
  ExtensionPointOptions,
  ExtensionPointContributions,
  ExtensionPointDeclaration,
} from '../core/kernel/extension-point.js';
export type { RegistryEntry } from '../core/kernel/registry.js';
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
} from '../core/kernel/contributions.js';
export type {
  HttpMethod,
  Permission,
  RouteRequest,
  RouteResult,
  RouteSchema,
  ResponseHeader,
  UploadSchema,
  RouteDefinition,
  SurfaceDefinition,
} from '../core/kernel/routes.js';
/** Chat and analytics tools are owned by their plugins: `flowhost/chat`, `flowhost/analytics` (these names stay for existing imports). */
export type { ChatToolDefinition } from './chat/index.js';
export type { AnalyticsToolDefinition } from './analytics/tools.js';
export type { Principal, Capability } from '../core/kernel/principal.js';
export type { ActingUser } from '../core/kernel/acting-user.js';
export type { Registries } from '../core/kernel/registries.js';
export type { ApiClient, ApiGetOptions, ApiResponse } from '../core/kernel/api-client.js';
export type { InterruptedWork } from '../core/kernel/interrupted-work.js';
export type {
  LifecycleInfo,
  StepInfo,
  JobOutcome,
  LogEntry,
  WebhookEvent,
  StepTiming,
  RequestTiming,
  ScheduledRunTiming,
  StoreOperationTiming,
} from '../core/kernel/hooks.js';
export type { JsonSchema } from '../core/kernel/json-schema.js';
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
} from '../core/webhooks/hmac-template.js';
export { parameterValidators } from '../core/kernel/validator.js';
export type { ValidateFunction } from 'ajv';
export type { CliNounDefinition, CliCommandDefinition, CliContext, CliOption } from '../core/kernel/cli.js';
export type { CliNounManifest, PluginManifest } from '../core/kernel/plugin-manifest.js';
export type { Logger, LogFn } from '../core/kernel/logger.js';
export type { Clock } from '../core/kernel/clock.js';
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
} from '../core/store/port.js';
export type { BlobBucket, BlobInfo, BlobPutOptions } from '../core/store/blob-port.js';
export type { ReadUploadOptions, Upload, UploadTypes } from '../core/kernel/upload.js';
export type { Vault } from '../core/security/vault.js';
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
export type { JobsApi, JobRecord, JobStatus } from './contract/jobs.js';
export type { ExecuteApi, ExecuteRequest } from './contract/execute.js';
export type { CredentialsApi } from './contract/credentials.js';
export type { SettingsApi, SiteSettings } from './contract/settings.js';
export type { UsersApi, UserView } from './contract/users.js';
export type { LogsApi, LogEntryInput, LogRecordView } from './contract/logs.js';
export type { MailApi, MailMessage, SmtpSettings, SmtpTransport } from './contract/mail.js';
export { smtpSettingsProperties, smtpTransportOf } from './contract/mail.js';
/** The credentials contract under its SDK 2 name. */
export type { CredentialsApi as CredentialsService } from './contract/credentials.js';
export type { PostReader } from '../core/content/post-caps.js';
export type { GuardedFetch, GuardedRequestInit, GuardedResponse } from '../core/security/guarded-fetch-types.js';
