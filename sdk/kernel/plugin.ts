import type { JsonSchema } from './json-schema.js';
import type { CliNounDefinition } from './cli.js';
import type { ResolvedDeps, ServiceDeps, ServiceFactory } from './service-ref.js';
import type { ExtensionPointDeclaration } from './extension-point.js';
import type { PluginMigration } from '../migrations.js';

/** Facts about the running host a plugin may need (URLs, namespaces). */
export interface HostInfo {
  readonly version: string;
  /** e.g. '/api' or '/wp-json'. */
  readonly apiPrefix: string;
  /** e.g. 'automation/v1'. */
  readonly coreNamespace: string;
  /** The address senders see (FLOWHOST_PUBLIC_URL), else the listening URL once known. */
  publicUrl(): string;
  /** FLOWHOST_ALLOW_PRIVATE_URLS: loopback and private addresses (and plain-http OAuth endpoints) are allowed. */
  readonly allowsPrivateUrls: boolean;
  /**
   * Whether `debug` entries (item-level run detail) are stored in the searchable log:
   * FLOWHOST_LOG_DEBUG, or FLOWHOST_LOG_LEVEL debug/trace. Absent means no.
   */
  readonly storesDebugLogs?: boolean;
  /** How much of each step's input and of its output a job keeps (FLOWHOST_STEP_RECORD_BYTES); absent: 64 KiB. */
  readonly stepRecordBytes?: number;
  /**
   * FLOWHOST_RUN_LEASE_SECONDS: how long a run's hold on its job and flow lasts without a
   * renewal before a host that stopped renewing it is taken for dead. Absent: the engine's default.
   */
  readonly runLeaseSeconds?: number;
}

/**
 * A plugin: what it needs (`deps`, typed service references), what it provides to others
 * (`provides`, service factories), and a `setup` that receives the resolved deps.
 *
 *   export default definePlugin({
 *     id: 'rss', version: '1.0.0', flowhost: '^1.0.0',
 *     deps: { handlers: services.handlers, log: services.logger },
 *     setup({ handlers, log }) { handlers.add(defineHandler({ ... })); },
 *   });
 */
export interface PluginDefinition<D extends ServiceDeps = ServiceDeps> {
  /** Unique id, lower-case: `rss`, `webhook-presets`, `@acme/flowhost-hello`. */
  id: string;
  /** The plugin's own semver version. */
  version: string;
  /** Semver range of Flowhost versions it supports, e.g. '^1.0.0'. */
  flowhost: string;
  description?: string;
  /**
   * Ids of plugins whose setup must run first (services need no such ordering), each with an
   * optional semver range of the versions it works with: `['core-content', 'billing@^1.2']`.
   */
  dependsOn?: string[];
  /**
   * JSON Schema of the plugin's settings (config `plugins.<id>`, or set at run time through
   * `PATCH /plugins/{id}/settings`), read with `services.config`. A top-level property
   * marked `writeOnly: true` is a secret: sealed in the store, never returned.
   */
  settingsSchema?: JsonSchema;
  /**
   * Called when an administrator changes the settings at run time, with the new effective
   * settings (validated, defaults applied, secrets opened). The object `services.config`
   * gave is updated in place before the call. Without it, a change waits for a restart.
   */
  onSettingsChanged?(next: Readonly<Record<string, unknown>>): void | Promise<void>;
  /**
   * Called once when the host stops, after requests and runs have ended and before the
   * store closes, in reverse load order: close what `setup` opened. A throw is logged.
   */
  dispose?(): void | Promise<void>;
  /**
   * Collections this plugin owns under their plain names (the core domains: 'flows',
   * 'jobs'...). Any other name it opens through `services.store` is namespaced to it.
   * Two plugins claiming one collection refuse start-up.
   */
  collections?: string[];
  /** Root services this plugin builds for everyone (the core domains provide flows, jobs...). */
  provides?: ReadonlyArray<ServiceFactory>;
  /**
   * Extension points this plugin owns (createExtensionPoint with `owner` set to this id):
   * others contribute by listing a point in their `deps`; this plugin reads what they
   * added through `point.contributions` in its own `deps`.
   */
  extensionPoints?: ReadonlyArray<ExtensionPointDeclaration>;
  /**
   * Data migrations, in order: each runs once per store, before `setup`, under a store-wide
   * lock (docs/plugin-authoring.md, "Migrations"). A step that throws stops start-up.
   */
  migrations?: ReadonlyArray<PluginMigration>;
  /** CLI nouns this plugin adds (`flowhost <noun> <command>`), listed without starting a host. */
  cli?: CliNounDefinition[];
  /** The services `setup` receives, by the names given here. */
  deps?: D;
  setup(deps: ResolvedDeps<D>): void | Promise<void>;
}
