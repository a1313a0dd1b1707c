import type { DependencyContainer } from 'tsyringe';
import type { HookCatalogue } from './hooks.js';
import type { JsonSchema } from './json-schema.js';
import type { Logger } from './logger.js';
import type { Clock } from './clock.js';
import type { Registries } from './registries.js';
import type { DocumentStore } from '../store/port.js';
import type { Vault } from '../security/vault.js';
import type { GuardedFetch } from '../security/guarded-fetch-types.js';
import type { ContentStore } from '../content/model.js';

/** Facts about the running host a plugin may need (URLs, namespaces). */
export interface HostInfo {
  readonly version: string;
  /** e.g. '/api' or '/wp-json'. */
  readonly apiPrefix: string;
  /** e.g. 'automation/v1'. */
  readonly coreNamespace: string;
  /** The address senders see (FLOWHOST_PUBLIC_URL), else the listening URL once known. */
  publicUrl(): string;
}

/** Services shared by every plugin. */
export interface SharedServices {
  readonly store: DocumentStore;
  readonly vault: Vault;
  /** Guarded fetch for user-given URLs (refuses private addresses unless allowed). */
  readonly fetch: GuardedFetch;
  readonly clock: Clock;
  /** Posts and taxonomy terms (the core content domain). */
  readonly content: ContentStore;
}

/** What a plugin's `setup` receives. */
export interface PluginHost<S = Record<string, unknown>> extends SharedServices {
  readonly id: string;
  readonly hooks: HookCatalogue;
  /** A child container scoped to this plugin; register your own services here. */
  readonly container: DependencyContainer;
  /** This plugin's settings, validated against its `settingsSchema` (defaults applied). */
  readonly settings: S;
  /** A logger whose lines carry `plugin: <id>`. */
  readonly log: Logger;
  /** Resolved registries; readable once the host has booted (e.g. inside route handlers). */
  readonly registries: Registries;
  readonly info: HostInfo;
}

export interface PluginDefinition<S = Record<string, unknown>> {
  /** Unique id, lower-case: `rss`, `webhook-presets`, `@acme/flowhost-hello`. */
  id: string;
  /** The plugin's own semver version. */
  version: string;
  /** Semver range of Flowhost versions it supports, e.g. '^1.0.0'. */
  flowhost: string;
  description?: string;
  /** Ids of plugins that must be set up first. */
  dependsOn?: string[];
  /** JSON Schema of the plugin's settings (from config `plugins.<id>`). */
  settingsSchema?: JsonSchema;
  setup(host: PluginHost<S>): void | Promise<void>;
}
