/**
 * The kernel's own service references: what the host provides (clock, hooks, registries,
 * vault, fetch, logger, the in-process API) and the plugin-scoped ones (logger, config,
 * store namespace, scheduler, blobs, registrars). Root services are one instance per host;
 * plugin-scoped ones are built for the plugin that asks. The domains' references are
 * declared with their contract (sdk/contract/), the privileged ones in
 * core/internal-services.ts: the kernel knows no domain.
 */
import { createServiceRef } from './service-ref.js';
import { contributionKinds } from './contribution-kinds.js';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import type { HookCatalogue } from './hooks.js';
import type { Registries } from './registries.js';
import type { HostInfo } from './plugin.js';
import type { PluginScheduler, PluginStore } from './plugin-services.js';
import type { BlobBucket } from '../store/blob-port.js';
import type { Vault } from '../security/vault.js';
import type { GuardedFetch } from '../security/guarded-fetch-types.js';
import type { ApiClient } from './api-client.js';

const root = <T>(id: string) => createServiceRef<T, 'root'>({ id, scope: 'root' });
const scoped = <T>(id: string) => createServiceRef<T, 'plugin'>({ id, scope: 'plugin' });

/** The plugin's own settings, validated against its `settingsSchema`, defaults applied. */
const config = scoped<Record<string, unknown>>('config');

export const services = {
  // The kernel's own (the composition root provides them).
  clock: root<Clock>('clock'),
  hooks: root<HookCatalogue>('hooks'),
  registries: root<Registries>('registries'),
  hostInfo: root<HostInfo>('hostInfo'),
  /** Guarded fetch for user-given URLs (refuses private addresses unless allowed). */
  fetch: root<GuardedFetch>('fetch'),
  /** The host's own logger (root services log without a plugin binding). */
  rootLogger: root<Logger>('rootLogger'),
  /** This host's REST API in process: a GET as a given user through the same route table and checks as HTTP. */
  api: root<ApiClient>('api'),

  // Plugin-scoped.
  logger: scoped<Logger>('logger'),
  /**
   * Seals and opens under this plugin's id: nothing the core or another plugin sealed opens
   * with it, whatever context is given.
   */
  vault: scoped<Vault>('vault'),
  config,
  /** `services.configOf<MySettings>()`: the same reference, typed with your settings. */
  configOf<S extends object>() {
    return config as unknown as ReturnType<typeof scoped<S>>;
  },
  store: scoped<PluginStore>('store'),
  scheduler: scoped<PluginScheduler>('scheduler'),
  /** Stored files in a bucket named after the plugin (data dir files, or GridFS on MongoDB). */
  blobs: scoped<BlobBucket>('blobs'),

  // Contribution registrars (plugin-scoped: what you add is recorded as yours).
  routes: contributionKinds.surfaces.registrar,
  providers: contributionKinds.providers.registrar,
} as const;
