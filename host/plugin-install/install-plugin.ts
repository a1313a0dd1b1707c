import { existsSync, rmSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import validRange from 'semver/ranges/valid.js';
import { parseDependency } from '../../core/kernel/plugin-dependency.js';
import { type AvailablePlugins, checkInstalledPackage } from './compatibility.js';
import { withFolderLock } from './folder-lock.js';
import { linkHost, unlinkHost } from './host-link.js';
import { PluginInstallError } from './install-error.js';
import {
  ensurePluginsFolder,
  folderDependencies,
  type InstalledPlugin,
  pluginsFolder,
  readInstalled,
  restoreSnapshot,
  snapshotFolder,
  writeInstalled,
} from './plugins-folder.js';
import { type Progress, runNpm } from './run-npm.js';

export interface InstallContext {
  dataDir: string;
  /** The build's own plugins (id to version), which an installed plugin may depend on and must not repeat. */
  available: AvailablePlugins;
  progress?: Progress;
  /** Run the packages' install scripts (off unless asked: `--scripts`). */
  scripts?: boolean;
  now?: () => Date;
  /** Throws for a package the caller may not install (the API's allow-list), once npm has named it. */
  allow?: (packageName: string) => void;
}

/** A local tarball or folder given by a relative path: absolute, as npm runs in the plugins folder. */
export function npmSpec(spec: string): string {
  const isPath = spec.startsWith('.') || isAbsolute(spec) || /\.(tgz|tar\.gz)$/i.test(spec);
  return isPath && !/^[a-z+]+:/i.test(spec) ? resolve(spec) : spec;
}

/** What the new plugin may depend on: the build's plugins and the other enabled installed ones. */
function dependable(ctx: InstallContext, except: string | null): Map<string, string | null> {
  const map = new Map(ctx.available);
  for (const p of readInstalled(ctx.dataDir).plugins) if (p.enabled && p.id !== except) map.set(p.id, p.version);
  return map;
}

/**
 * npm installs `spec` into the folder; the package is checked; only then is it recorded. A
 * refusal puts the folder's package.json, lockfile and record back as they were and takes
 * the package out of node_modules, so nothing is changed.
 */
async function installChecked(ctx: InstallContext, spec: string, replacing: InstalledPlugin | null): Promise<InstalledPlugin> {
  const existed = existsSync(pluginsFolder(ctx.dataDir));
  const folder = ensurePluginsFolder(ctx.dataDir);
  return withFolderLock(folder, async () => {
    const snapshot = snapshotFolder(folder);
    const before = folderDependencies(folder);
    unlinkHost(folder);
    let name: string | undefined;
    let after: Record<string, string> = before;
    try {
      await runNpm(folder, ['install', '--save', npmSpec(spec)], { progress: ctx.progress, scripts: ctx.scripts });
      after = folderDependencies(folder);
      const changed = Object.keys(after).find((key) => before[key] !== after[key]);
      name = replacing?.package ?? changed;
      if (replacing && changed && changed !== replacing.package)
        throw new PluginInstallError('plugin_incompatible', `${spec} is package ${changed}, not ${replacing.package}`);
      if (!name || (!replacing && before[name] !== undefined))
        throw new PluginInstallError(
          'plugin_already_installed',
          `${spec} is installed already${name ? ` (package ${name})` : ''}: update it instead`,
        );
      ctx.allow?.(name);
      linkHost(folder);
      const { plugin, problems } = await checkInstalledPackage(folder, name, dependable(ctx, replacing?.id ?? null));
      if (plugin && ctx.available.has(plugin.id)) problems.push(`plugin '${plugin.id}' is part of this build already`);
      const other = readInstalled(ctx.dataDir).plugins.find((p) => p.id === plugin?.id && p.id !== replacing?.id);
      if (other) problems.push(`plugin '${other.id}' is installed already (package ${other.package})`);
      if (replacing && plugin && plugin.id !== replacing.id) problems.push(`it is plugin '${plugin.id}', not '${replacing.id}'`);
      if (!plugin || problems.length)
        throw new PluginInstallError('plugin_incompatible', `${spec} cannot be installed: ${problems.join('; ')}`, problems);
      const record = readInstalled(ctx.dataDir);
      const entry: InstalledPlugin = {
        id: plugin.id,
        package: name,
        spec: npmSpec(spec),
        version: plugin.version,
        enabled: replacing?.enabled ?? true,
        installed_at: (ctx.now?.() ?? new Date()).toISOString(),
        depends_on: plugin.dependsOn,
      };
      writeInstalled(ctx.dataDir, { plugins: [...record.plugins.filter((p) => p.id !== entry.id), entry] });
      return entry;
    } catch (error) {
      await putBack(ctx, folder, snapshot, { before, after }, existed);
      throw error;
    } finally {
      if (existsSync(folder)) linkHost(folder);
    }
  });
}

async function putBack(
  ctx: InstallContext,
  folder: string,
  snapshot: ReturnType<typeof snapshotFolder>,
  dependencies: { before: Record<string, string>; after: Record<string, string> },
  existed: boolean,
): Promise<void> {
  if (!existed) {
    rmSync(folder, { recursive: true, force: true });
    return;
  }
  restoreSnapshot(folder, snapshot);
  // npm's own record of node_modules is rebuilt from the tree on its next run.
  rmSync(join(folder, 'node_modules', '.package-lock.json'), { force: true });
  const { before, after } = dependencies;
  // A package new to the folder is taken out again; one it had and npm replaced (an update,
  // a repeat) is installed again from the lockfile put back.
  for (const key of Object.keys(after))
    if (before[key] === undefined) rmSync(join(folder, 'node_modules', key), { recursive: true, force: true });
  if (Object.keys(before).some((key) => after[key] !== undefined && after[key] !== before[key]))
    await runNpm(folder, ['install'], { progress: ctx.progress, scripts: ctx.scripts }).catch(() => undefined);
}

/** `flowhost plugins install <spec>`: a package name[@range], a tarball (path or URL) or a git URL. */
export function installPlugin(ctx: InstallContext, spec: string): Promise<InstalledPlugin> {
  if (!spec.trim()) throw new PluginInstallError('plugin_install_failed', 'Name a package, a tarball or a git URL to install');
  return installChecked(ctx, spec, null);
}

export function findInstalled(dataDir: string, id: string): InstalledPlugin {
  const found = readInstalled(dataDir).plugins.find((p) => p.id === id);
  if (!found)
    throw new PluginInstallError('plugin_not_installed', `No installed plugin has the id '${id}' (see flowhost plugins installed)`);
  return found;
}

/**
 * `flowhost plugins update <id> [to]`: `to` is a version or range of its package, or another
 * tarball or git URL of it; without it, the registry's latest, or the same tarball or git URL again.
 */
export async function updatePlugin(ctx: InstallContext, id: string, to?: string): Promise<InstalledPlugin> {
  const current = findInstalled(ctx.dataDir, id);
  const fromRegistry = (spec: string) => !/^(\.|\/|[a-z+]+:)/i.test(spec) && !/\.(tgz|tar\.gz)$/i.test(spec);
  let spec: string;
  if (to && validRange(to)) spec = `${current.package}@${to}`;
  else if (to) spec = to;
  else spec = fromRegistry(current.spec) ? `${current.package}@latest` : current.spec;
  return installChecked(ctx, spec, current);
}

/** Refuses to take away a plugin an enabled installed one depends on (its host would refuse to start). */
function refuseIfNeeded(dataDir: string, id: string, doing: string): void {
  const needing = readInstalled(dataDir).plugins.filter(
    (p) => p.enabled && p.id !== id && (p.depends_on ?? []).some((d) => parseDependency(d).id === id),
  );
  if (needing.length)
    throw new PluginInstallError(
      'plugin_required',
      `Plugin '${id}' cannot be ${doing}: ${needing.map((p) => `'${p.id}'`).join(', ')} depend${needing.length === 1 ? 's' : ''} on it (disable or remove ${needing.length === 1 ? 'it' : 'them'} first)`,
    );
}

/** `flowhost plugins remove <id>`: npm uninstalls its package and the record forgets it. */
export async function removePlugin(ctx: InstallContext, id: string): Promise<InstalledPlugin> {
  const current = findInstalled(ctx.dataDir, id);
  refuseIfNeeded(ctx.dataDir, id, 'removed');
  const folder = pluginsFolder(ctx.dataDir);
  return withFolderLock(folder, async () => {
    unlinkHost(folder);
    try {
      await runNpm(folder, ['uninstall', '--save', current.package], { progress: ctx.progress });
    } finally {
      linkHost(folder);
    }
    const record = readInstalled(ctx.dataDir);
    writeInstalled(ctx.dataDir, { plugins: record.plugins.filter((p) => p.id !== id) });
    return current;
  });
}

/** `flowhost plugins enable|disable <id>`: a disabled plugin stays installed and is not loaded. */
export function setPluginEnabled(dataDir: string, id: string, enabled: boolean): InstalledPlugin {
  const current = findInstalled(dataDir, id);
  if (!enabled) refuseIfNeeded(dataDir, id, 'disabled');
  const record = readInstalled(dataDir);
  const next = { ...current, enabled };
  writeInstalled(dataDir, { plugins: record.plugins.map((p) => (p.id === id ? next : p)) });
  return next;
}
