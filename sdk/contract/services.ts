/**
 * The domain references of the public contract: each typed by its narrow interface (what
 * a plugin may do), never by the class that implements it. The core domain plugins
 * provide them; `services` (sdk/services.ts) is these plus the kernel's own.
 */
import { contentService } from './content-ref.js';
import { credentialsService } from './credentials.js';
import { executeService } from './execute.js';
import { engineEventsService } from './engine-events.js';
import { flowsService } from './flows.js';
import { jobsService } from './jobs.js';
import { logsService } from './logs.js';
import { logEventsService } from './log-events.js';
import { mailService } from './mail.js';
import { pipelinesService } from './pipelines.js';
import { settingsService } from './settings.js';
import { siteEventsService } from './site-events.js';
import { usersService } from './users.js';
import { webhookEventsService } from './webhook-events.js';
import { webhookPresets, webhookVerifiers } from './webhook-points.js';
import { authProviders } from './credential-points.js';
import { contentTypesService, postTypes, taxonomies } from './content-types.js';
import { intervals, scheduleIntervalsService } from './schedule-intervals.js';
import { handlerCatalogueService, handlers, stepTypes } from './handler-catalogue.js';

export const domainServices = {
  users: usersService,
  settings: settingsService,
  content: contentService,
  logs: logsService,
  pipelines: pipelinesService,
  flows: flowsService,
  jobs: jobsService,
  execute: executeService,
  /** Handler credentials (handlers get theirs through `ctx.credentials`). */
  credentials: credentialsService,
  /** Sending e-mail through an SMTP server the caller names (provided by the host). */
  mail: mailService,

  // Domains' events: each domain owns and alone fires its hooks; plugins listen (issue 54).
  /** The engine's `stepStarting`, `stepFinished`, `jobFinished`, `jobFailed`. */
  engineEvents: engineEventsService,
  /** The log's `logged`. */
  logEvents: logEventsService,
  /** The webhook trigger's `webhookReceived`. */
  webhookEvents: webhookEventsService,
  /** The site's `siteHome`. */
  siteEvents: siteEventsService,

  // Domains' extension points: each domain alone reads what plugins add (issue 54).
  /** Webhook HMAC presets (core-webhooks' `webhooks.presets`). */
  presets: webhookPresets,
  /** Webhook verification modes (core-webhooks' `webhooks.verifiers`). */
  verifiers: webhookVerifiers,
  /** OAuth handlers' browser authorization (core-credentials' `credentials.authProviders`). */
  authProviders,
  /** Kinds of post (core-content's `content.postTypes`). */
  postTypes,
  /** Taxonomies of terms (core-content's `content.taxonomies`). */
  taxonomies,
  /** The registered post types and taxonomies, to read (provided by core-content). */
  contentTypes: contentTypesService,
  /** Schedule intervals (core-workflows' `flows.intervals`). */
  intervals,
  /** The registered intervals, to read (provided by core-workflows). */
  scheduleIntervals: scheduleIntervalsService,
  /** Fetch, publish and update handlers (core-workflows' `flows.handlers`). */
  handlers,
  /** Kinds of pipeline step (core-workflows' `flows.stepTypes`). */
  stepTypes,
  /** The registered handlers and step types, to read (provided by core-workflows). */
  handlerCatalogue: handlerCatalogueService,
} as const;
