/**
 * The core's own service catalogue: the public references (kernel's and domains') seen as
 * the classes that implement them, and the privileged services no plugin outside `core/`
 * may name: the whole store, the run scheduler, the rate limiters, the engine and the
 * webhooks domain. Imported by the core domain plugins and the host, never by sdk/index.ts
 * (test/sdk/privileged.test.ts holds that). A privileged reference cannot be forged: its token
 * is a symbol of its own, where public references are keyed by id (so a second copy of
 * flowhost still names the host's public services).
 */
import { createPrivilegedServiceRef, type ServiceRef } from './kernel/service-ref.js';
import { services as kernelServices } from './kernel/services.js';
import { domainServices } from '../sdk/contract/services.js';
import type { DocumentStore } from './store/port.js';
import type { HostVault } from './security/vault.js';
import type { ContentService } from './content/service.js';
import type { FlowSchedule, FlowsService } from './flows/service.js';
import type { FlowRunMarks } from './flows/run-marks.js';
import type { JobsService } from './jobs/service.js';
import type { PipelinesService } from './pipelines/service.js';
import type { UsersService } from './users/service.js';
import type { SettingsService } from './settings/service.js';
import type { LogsService } from './logs/service.js';
import type { WebhooksService } from './webhooks/service.js';
import type { CredentialsService } from './credentials/service.js';
import type { Engine } from './engine/engine.js';
import type { ExecuteService } from './engine/execute.js';
import type { RunScheduler } from './engine/dispatcher.js';
import type { ScheduledRuns } from './engine/scheduled-run.js';
import type { TriggerLimiterFactory } from './webhooks/trigger-limits.js';
import type { EngineHooks } from './engine/engine-hooks.js';
import type { LogHooks } from './logs/log-hooks.js';
import type { WebhookHooks } from './webhooks/webhook-hooks.js';
import type { HostContentTypes } from './content/content-types.js';
import type { SiteHooks } from './content/site-hooks.js';

// Privileged references have tokens of their own (not keyed by id): they cannot be forged.
const root = <T>(id: string) => createPrivilegedServiceRef<T>(id);

/**
 * A public reference as the core sees it: the same reference (one token, one instance),
 * typed by the class that implements its interface.
 */
function seen<C>(ref: ServiceRef<unknown, 'root'>): ServiceRef<C, 'root'> {
  // Each class declares `implements` its interface: that is where the fit is checked.
  return ref as ServiceRef<C, 'root'>;
}

const d = domainServices;

const coreOnly = {
  users: seen<UsersService>(d.users),
  content: seen<ContentService>(d.content),
  logs: seen<LogsService>(d.logs),
  pipelines: seen<PipelinesService>(d.pipelines),
  /**
   * Flows and jobs as stored (sealed settings, the webhook trigger): the core's. Plugins'
   * `services.flows` and `services.jobs` are views of them (core/flows/plugin-view.ts).
   */
  flows: root<FlowsService>('flowRecords'),
  /** Site settings with every provider's key: plugins' `services.settings` opens only their own providers' keys. */
  settings: root<SettingsService>('siteSettings'),
  jobs: root<JobsService>('jobRecords'),
  execute: seen<ExecuteService>(d.execute),
  credentials: seen<CredentialsService>(d.credentials),

  // Privileged: no public reference exists.
  /**
   * The core's vault (unscoped contexts: handler settings, webhook secrets, credentials).
   * It takes the public name's place here, so core plugins keep writing `services.vault`.
   */
  vault: root<HostVault>('rootVault'),
  /** The whole store: for the core domain plugins, which own collections by name. */
  rootStore: root<DocumentStore>('rootStore'),
  /** Rate limiters whose counters hold across hosts (in MongoDB when configured): the webhook trigger's. */
  rateLimiters: root<TriggerLimiterFactory>('rateLimiters'),
  /** Background runs: the host's Agenda, for the engine plugin. */
  runScheduler: root<RunScheduler>('runScheduler'),
  /** Flows' running marks and run outcomes: the engine's, and the start-up repair's. */
  flowRuns: root<FlowRunMarks>('flowRuns'),
  /** Where flows' schedules go (Agenda in a host): built from Agenda and the intervals only, so flows can depend on it. */
  flowSchedule: root<FlowSchedule>('flowSchedule'),
  /** What a schedule's or a delayed run's firing starts (core-engine): the host's scheduler calls it. */
  scheduledRuns: root<ScheduledRuns>('scheduledRuns'),
  /** Runs jobs step by step; plugins start runs through `execute`. */
  engine: root<Engine>('engine'),
  /** The webhook trigger; plugins listen to `webhookEvents.webhookReceived`. */
  webhooks: root<WebhooksService>('webhooks'),

  // Domains' own hooks, privileged: only the owner fires them (issue 54). Plugins listen
  // through the public views (`engineEvents`, `logEvents`, `webhookEvents`, `siteEvents`).
  engineHooks: root<EngineHooks>('engineHooks'),
  logHooks: root<LogHooks>('logHooks'),
  webhookHooks: root<WebhookHooks>('webhookHooks'),
  siteHooks: root<SiteHooks>('siteHooks'),
  engineEvents: d.engineEvents,
  logEvents: d.logEvents,
  webhookEvents: d.webhookEvents,
  siteEvents: d.siteEvents,

  // Domains' extension points the core plugins contribute to or read (issue 54).
  postTypes: d.postTypes,
  taxonomies: d.taxonomies,
  /** Post types and taxonomies with the content domain's boot check. */
  contentTypes: seen<HostContentTypes>(d.contentTypes),
  intervals: d.intervals,
  scheduleIntervals: d.scheduleIntervals,
  handlers: d.handlers,
  stepTypes: d.stepTypes,
  handlerCatalogue: d.handlerCatalogue,
} as const;

/** Named, not inferred: the declaration of a spread of the kernel's catalogue is too deep for tsc to print. */
export type CoreServices = Omit<typeof kernelServices, keyof typeof coreOnly> & typeof coreOnly;

export const coreServices: CoreServices = { ...kernelServices, ...coreOnly };
