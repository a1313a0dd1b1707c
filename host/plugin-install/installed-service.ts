import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedPlugin } from '../../core/kernel/loader.js';
import type { DocumentStore } from '../../core/store/port.js';
import { allowPackage, checkApiSpec } from './allow-list.js';
import { PluginInstallError } from './install-error.js';
import { type InstallContext, findInstalled, installPlugin, removePlugin, setPluginEnabled, updatePlugin } from './install-plugin.js';
import { ensurePluginsFolder, type InstalledPlugin, pluginsFolder, readInstalled } from './plugins-folder.js';
import { recordInStore } from './store-record.js';
import { type PurgePlan, purgePlan, purgePlugin } from './purge.js';

export interface InstalledView extends InstalledPlugin {
  /** Whether this host runs it now (it was installed and enabled when the host started). */
  loaded: boolean;
}

export interface InstalledPluginsDeps {
  /** null: an in-memory host, which has no plugins folder. */
  dataDir: string | null;
  store: DocumentStore;
  loaded: readonly LoadedPlugin[];
  allow?: readonly string[];
}

const key = (plugins: readonly InstalledPlugin[]) =>
  plugins
    .filter((p) => p.enabled)
    .map((p) => `${p.id}@${p.version}@${p.installed_at}`)
    .sort()
    .join(',');

/**
 * The API's side of installing (GET/POST/PATCH/DELETE /installed-plugins): the same
 * operations as the CLI's, on the host's data directory, and `restart_needed` when the
 * folder's enabled set is no longer the one this host started with.
 */
export function installedPlugins(deps: InstalledPluginsDeps) {
  const startedWith = deps.dataDir ? key(readInstalled(deps.dataDir).plugins) : '';
  const dataDir = (): string => {
    if (!deps.dataDir)
      throw new PluginInstallError(
        'plugin_install_unavailable',
        'This host has no data directory (an in-memory store): nothing can be installed',
      );
    return deps.dataDir;
  };
  const context = (): InstallContext => {
    const installedIds = new Set(readInstalled(dataDir()).plugins.map((p) => p.id));
    const available = new Map(deps.loaded.filter((p) => !installedIds.has(p.id)).map((p) => [p.id, p.version] as const));
    return { dataDir: dataDir(), available, allow: allowPackage(deps.allow) };
  };
  const recorded = async (plugin: InstalledPlugin, removed = false) => {
    await recordInStore(deps.store, plugin, removed);
    return plugin;
  };
  const loadedIds = new Set(deps.loaded.map((p) => `${p.id}@${p.version}`));
  return {
    restartNeeded: (): boolean => (deps.dataDir ? key(readInstalled(deps.dataDir).plugins) !== startedWith : false),
    list(): InstalledView[] {
      if (!deps.dataDir) return [];
      return readInstalled(deps.dataDir).plugins.map((p) => ({ ...p, loaded: loadedIds.has(`${p.id}@${p.version}`) }));
    },
    async install(spec: string): Promise<InstalledPlugin> {
      checkApiSpec(deps.allow, spec);
      return recorded(await installPlugin(context(), spec));
    },
    /** A tarball sent as the body: kept in the folder (the lockfile names it), removed when refused. */
    async installTarball(bytes: Buffer): Promise<InstalledPlugin> {
      const existed = existsSync(pluginsFolder(dataDir()));
      const dir = join(ensurePluginsFolder(dataDir()), 'tarballs');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `upload-${Date.now()}-${randomBytes(4).toString('hex')}.tgz`);
      writeFileSync(file, bytes);
      try {
        return await recorded(await installPlugin(context(), file));
      } catch (error) {
        rmSync(file, { force: true });
        if (!existed) rmSync(pluginsFolder(dataDir()), { recursive: true, force: true });
        throw error;
      }
    },
    async update(id: string, version?: string): Promise<InstalledPlugin> {
      const current = findInstalled(dataDir(), id);
      if (version) checkApiSpec(deps.allow, `${current.package}@${version}`);
      return recorded(await updatePlugin(context(), id, version));
    },
    async setEnabled(id: string, enabled: boolean): Promise<InstalledPlugin> {
      return recorded(setPluginEnabled(dataDir(), id, enabled));
    },
    /** What a purge of it would remove from the store. */
    async purgePlan(id: string): Promise<PurgePlan> {
      findInstalled(dataDir(), id);
      return purgePlan(deps.store, id);
    },
    /** Uninstalls it; with `purge`, then removes its data (the plan returned says what went). */
    async remove(id: string, purge = false): Promise<{ plugin: InstalledPlugin; purged: PurgePlan | null }> {
      const found = findInstalled(dataDir(), id);
      // A plugin this host runs would write its data again (a request, a job) until the
      // restart: purge only what nothing here can recreate; the data stays until then.
      if (purge && deps.loaded.some((p) => p.id === found.id))
        throw new PluginInstallError(
          'plugin_running',
          `Plugin '${found.id}' runs on this host, which could write its data again before it restarts: disable it (flowhost plugins disable ${found.id}), restart the host, then remove it with purge`,
        );
      const plan = purge ? await purgePlan(deps.store, found.id) : null;
      const plugin = await recorded(await removePlugin(context(), id), true);
      if (plan) await purgePlugin(deps.store, plan);
      return { plugin, purged: plan };
    },
  };
}

export type InstalledPlugins = ReturnType<typeof installedPlugins>;
