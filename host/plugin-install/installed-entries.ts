import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type InstalledPlugin, packageEntry, pluginsFolder, readInstalled } from './plugins-folder.js';

/**
 * The installed plugins a host on this data directory loads: the enabled ones, each as the
 * module its package resolves to in the plugins folder. A disabled one stays installed and
 * is not loaded. None for an in-memory store (no data directory).
 */
export function installedEntryPaths(dataDir: string): { found: Array<{ plugin: InstalledPlugin; path: string }>; missing: string[] } {
  const found: Array<{ plugin: InstalledPlugin; path: string }> = [];
  const missing: string[] = [];
  if (dataDir === ':memory:') return { found, missing };
  const folder = pluginsFolder(resolve(dataDir));
  for (const plugin of readInstalled(dataDir).plugins) {
    if (!plugin.enabled) continue;
    try {
      // Its URL names the install: a process that loads a build again after an update (a test,
      // an embedding) gets the new module, not the one it cached.
      const url = `${pathToFileURL(packageEntry(folder, plugin.package)).href}?installed=${encodeURIComponent(plugin.installed_at)}`;
      found.push({ plugin, path: url });
    } catch (error) {
      // Said by the host that would load it, not by every command (`plugins remove` must still run).
      missing.push(
        `installed plugin '${plugin.id}' (package ${plugin.package}) is missing from ${folder} (${(error as Error).message.split('\n')[0]}): ` +
          `install it again (flowhost plugins install ${plugin.spec}) or remove it (flowhost plugins remove ${plugin.id})`,
      );
    }
  }
  return { found, missing };
}
