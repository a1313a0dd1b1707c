/**
 * The plugins of a build loaded into a wired kernel: each plugin's scoped services (its
 * settings, store, logger), its settings layered (saved at run time over file and
 * environment), its migrations run, then the registries sealed and checked, and the
 * interrupted work of the last run closed before anything is scheduled or served.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { corePlugins } from '../core/core-plugins.js';
import type { Clock } from '../core/kernel/clock.js';
import type { HookCatalogue } from '../core/kernel/hooks.js';
import { interruptedWork } from '../core/kernel/interrupted-work.js';
import { loadPlugins } from '../core/kernel/loader.js';
import type { PluginDefinition } from '../core/kernel/plugin.js';
import type { HostRegistries } from '../core/kernel/registries.js';
import type { ServiceContainer } from '../core/kernel/service-container.js';
import { services as coreKernelServices } from '../core/kernel/services.js';
import type { HostVault } from '../core/security/vault.js';
import type { DocumentStore } from '../core/store/port.js';
import type { HostConfig } from './config/schema.js';
import { migrationRunner } from './migrations/run-migrations.js';
import { layerSettings } from './plugin-settings/layer-settings.js';
import { pluginSettingsStore } from './plugin-settings/stored-settings.js';
import { CollectionClaims, pluginScopedFactories, type PluginScopeDeps } from './services/plugin-scoped-services.js';
import { checkContributions } from './services/check-contributions.js';
import { FLOWHOST_VERSION } from '../core/kernel/version.js';

export async function loadHostPlugins(parts: {
  plugins: ReadonlyArray<PluginDefinition>;
  config: HostConfig;
  store: DocumentStore;
  vault: HostVault;
  hooks: HookCatalogue;
  clock: Clock;
  registries: HostRegistries;
  container: ServiceContainer;
  /** What each plugin's scoped services are made from (its settings come from the loading itself). */
  scope: Omit<PluginScopeDeps, 'settingsOf'>;
}) {
  const { config, store, vault, hooks, clock, registries, container } = parts;
  const log = parts.scope.log;
  const pluginSettings = new Map<string, Record<string, unknown>>();
  const claims = new CollectionClaims();
  for (const factory of pluginScopedFactories({ ...parts.scope, settingsOf: (id) => pluginSettings.get(id) ?? {} }, claims))
    container.provide(factory, 'host');

  const definitions = [...corePlugins, ...parts.plugins];
  // Settings saved at run time win over the file's and the environment's, key by key.
  const storedSettings = pluginSettingsStore(store, vault);
  const layered = layerSettings(definitions, config.pluginSettings, await storedSettings.readAllOpened(), log);
  const loaded = await loadPlugins(definitions, {
    kernelVersion: FLOWHOST_VERSION,
    hooks,
    services: container,
    settings: layered,
    onSettings: (id, value) => pluginSettings.set(id, value),
    onCollections: (id, names) => claims.claim(id, names),
    migrate: migrationRunner({
      store,
      clock,
      owner: `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
      storeOf: (id) => container.get(coreKernelServices.store, id),
      logOf: (id) => container.get(coreKernelServices.logger, id),
    }),
    registries,
  });
  registries.seal();
  // Every contributed schema is sound now, or start-up stops naming the plugin and item.
  checkContributions(registries, { compile: config.checkResponses });
  // The kernel closed its interrupted runs while its services were built; plugins close
  // theirs now, before anything is scheduled or served.
  await hooks.repairInterrupted.promise(interruptedWork(store.kind, clock.now()));
  await hooks.booted.promise({ url: '' });
  return { definitions, loaded, pluginSettings, storedSettings };
}
