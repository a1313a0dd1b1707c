import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isAbsolute, join, resolve } from 'node:path';
import type { PluginDefinition } from '../core/kernel/plugin.js';
import { isPluginManifest, loadManifestPlugin, type PluginManifest } from '../core/kernel/plugin-manifest.js';

/** A plugin as a build names it: its definition, or a manifest that loads it on demand. */
export type PluginEntry = PluginDefinition | PluginManifest;

/**
 * Resolves FLOWHOST_PLUGINS entries: ids of optional built-ins, or module specifiers
 * (package names or paths) whose default export is a plugin or a plugin manifest
 * (`definePluginManifest`). Manifests stay manifests: the CLI lists their nouns without
 * importing the plugin.
 */
export async function resolvePluginEntries(
  entries: readonly string[],
  optional: Readonly<Record<string, PluginEntry>>,
  origin = 'FLOWHOST_PLUGINS',
): Promise<PluginEntry[]> {
  const out: PluginEntry[] = [];
  for (const entry of entries) {
    const builtin = optional[entry];
    if (builtin) {
      out.push(builtin);
      continue;
    }
    const isPath = entry.startsWith('.') || isAbsolute(entry);
    const specifier = isPath ? pathToFileURL(resolve(entry)).href : entry;
    let mod: { default?: unknown };
    try {
      mod = (await importPackage(specifier, isPath)) as { default?: unknown };
    } catch (error) {
      // Only a package that was not found gets the where-we-looked hint; a plugin that was
      // found but failed to load (a syntax error, a missing dependency) is named as it is.
      const notFound = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && (error as Error).message.includes(`'${entry}'`);
      const hint =
        isPath || !notFound
          ? ''
          : ` (a package name is looked up where flowhost is installed, then from the working directory ${process.cwd()}; ` +
            `install it there, or give its path instead, e.g. FLOWHOST_PLUGINS=./dist/index.js)`;
      throw new Error(`Plugin '${entry}' (from ${origin}) could not be loaded: ${(error as Error).message}${hint}`);
    }
    if (!mod.default || typeof mod.default !== 'object') {
      throw new Error(`Plugin '${entry}' (from ${origin}) has no default export; export default definePlugin({...})`);
    }
    out.push(mod.default as PluginEntry);
  }
  return out;
}

/**
 * A package name is looked up from flowhost's own install first (a build's dependencies),
 * then from the working directory, so a plugin author running `flowhost serve` from the
 * plugin's own folder can name the packages installed there.
 */
async function importPackage(specifier: string, isPath: boolean): Promise<unknown> {
  try {
    return await import(specifier);
  } catch (error) {
    if (isPath || (error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    let local: string;
    try {
      local = createRequire(join(process.cwd(), 'package.json')).resolve(specifier);
    } catch {
      throw error;
    }
    return import(pathToFileURL(local).href);
  }
}

/** The plugins themselves: a manifest's plugin is imported here. */
export async function loadPluginEntries(entries: readonly PluginEntry[]): Promise<PluginDefinition[]> {
  return Promise.all(entries.map((entry) => (isPluginManifest(entry) ? loadManifestPlugin(entry) : entry)));
}

/** FLOWHOST_PLUGINS entries as plugin definitions (manifests loaded), for a host to run. */
export async function resolvePlugins(
  entries: readonly string[],
  optional: Readonly<Record<string, PluginEntry>>,
): Promise<Array<PluginDefinition>> {
  return loadPluginEntries(await resolvePluginEntries(entries, optional));
}
