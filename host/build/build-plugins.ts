import { dirname, isAbsolute, resolve } from 'node:path';
import { defaultManifests, optionalManifests } from '../../plugins/manifests.js';
import { ConfigError } from '../config/load-config.js';
import type { HostConfig } from '../config/schema.js';
import { type PluginEntry, resolvePluginEntries } from '../plugin-resolver.js';
import type { BuildDeclaration, DeclaredBuild } from './build-declaration.js';
import { installedEntryPaths } from '../plugin-install/installed-entries.js';

/** A build ready to load: its plugins (as manifests until a host imports them) and the config with its settings. */
export interface ResolvedBuild {
  entries: PluginEntry[];
  config: HostConfig;
  /** Where the build was declared: the file, or 'the stock build' (default built-ins + FLOWHOST_PLUGINS). */
  describe: string;
  /** Ids of the entries that are plugins installed in the data directory (`flowhost plugins install`), enabled. */
  installed: string[];
  /** Installed plugins whose package is gone from the plugins folder: a host of this build refuses to start, naming them. */
  missing: string[];
}

/**
 * The one place a build becomes plugins: `serve`, every CLI command that starts a host and
 * the CLI's plugin nouns all come here, so they cannot disagree. Built from the manifests,
 * so the CLI lists nouns without importing a plugin; a host loads them (loadPluginEntries).
 */
export async function resolveBuild(config: HostConfig, declared: DeclaredBuild): Promise<ResolvedBuild> {
  const own = await resolveOwnBuild(config, declared);
  // After the build's own: the plugins installed in the data directory, enabled ones only.
  const { found, missing } = installedEntryPaths(config.dataDir);
  const installed = await resolvePluginEntries(
    found.map((p) => p.path),
    {},
    `the plugins folder of ${config.dataDir}`,
  );
  return { ...own, entries: [...own.entries, ...installed], installed: found.map((p) => p.plugin.id), missing };
}

async function resolveOwnBuild(config: HostConfig, declared: DeclaredBuild): Promise<Omit<ResolvedBuild, 'installed' | 'missing'>> {
  const { declaration, source } = declared;
  if (!declaration || !source) {
    const extra = await resolvePluginEntries(config.plugins, optionalManifests);
    return { entries: [...defaultManifests, ...extra], config, describe: 'the stock build' };
  }
  if (config.plugins.length > 0)
    throw new ConfigError(
      `Both the build declaration ${source} and FLOWHOST_PLUGINS (or the config's plugins) name plugins: list ${config.plugins.join(', ')} in the declaration's 'plugins' instead`,
    );
  const builtins = chooseBuiltins(declaration.builtins, source);
  // A path in the declaration is relative to the declaration, not to where the command runs.
  const named = declaration.plugins.map((entry) => (entry.startsWith('.') && !isAbsolute(entry) ? resolve(dirname(source), entry) : entry));
  const extra = await resolvePluginEntries(named, optionalManifests, `build declaration ${source}`);
  const entries = [...builtins, ...extra];
  const ids = new Set(entries.map((e) => e.id));
  for (const id of Object.keys(declaration.settings))
    if (!ids.has(id)) throw new ConfigError(`Build declaration ${source}: 'settings.${id}' is for a plugin this build does not load`);
  // The declaration's settings are the build's defaults; the config file and environment still override them per key.
  const pluginSettings: HostConfig['pluginSettings'] = { ...config.pluginSettings };
  for (const [id, settings] of Object.entries(declaration.settings))
    pluginSettings[id] = { ...settings, ...(config.pluginSettings[id] ?? {}) };
  return { entries, config: { ...config, pluginSettings }, describe: `the build declared in ${source}` };
}

function chooseBuiltins(builtins: BuildDeclaration['builtins'], source: string): PluginEntry[] {
  if (builtins === 'default') return [...defaultManifests];
  const [kind, ids] = 'only' in builtins ? (['only', builtins.only] as const) : (['exclude', builtins.exclude] as const);
  const known = new Set(defaultManifests.map((m) => m.id));
  ids.forEach((id, index) => {
    if (known.has(id)) return;
    const optional = id in optionalManifests ? ` ('${id}' is an optional built-in: name it in 'plugins')` : '';
    throw new ConfigError(
      `Build declaration ${source}: 'builtins.${kind}[${index}]' names '${id}', which is no default built-in${optional}; the default built-ins are ${[...known].join(', ')}`,
    );
  });
  const chosen = new Set(ids);
  return defaultManifests.filter((m) => (kind === 'only' ? chosen.has(m.id) : !chosen.has(m.id)));
}
