import { pathToFileURL } from 'node:url';
import { isAbsolute, resolve } from 'node:path';
import type { PluginDefinition } from '../core/kernel/plugin.js';

/**
 * Resolves FLOWHOST_PLUGINS entries: ids of optional built-ins, or module specifiers
 * (package names or paths) whose default export is a plugin.
 */
export async function resolvePlugins(
  entries: readonly string[],
  optional: Readonly<Record<string, PluginDefinition>>,
): Promise<Array<PluginDefinition>> {
  const out: Array<PluginDefinition> = [];
  for (const entry of entries) {
    const builtin = optional[entry];
    if (builtin) {
      out.push(builtin);
      continue;
    }
    const specifier = entry.startsWith('.') || isAbsolute(entry) ? pathToFileURL(resolve(entry)).href : entry;
    let mod: { default?: unknown };
    try {
      mod = (await import(specifier)) as { default?: unknown };
    } catch (error) {
      throw new Error(`Plugin '${entry}' (from FLOWHOST_PLUGINS) could not be loaded: ${(error as Error).message}`);
    }
    if (!mod.default || typeof mod.default !== 'object') {
      throw new Error(`Plugin '${entry}' (from FLOWHOST_PLUGINS) has no default export; export default definePlugin({...})`);
    }
    out.push(mod.default as PluginDefinition);
  }
  return out;
}
