/**
 * `flowhost/manifest`: the plugin manifest helpers on their own, so a manifest module
 * imports nothing heavy (the main SDK entry loads markdown and HTML libraries). The main
 * SDK entry re-exports these too.
 */
import type { PluginManifest } from './kernel/plugin-manifest.js';

export type { CliNounManifest, PluginManifest } from './kernel/plugin-manifest.js';

const SLUG = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * A plugin's manifest: its id, its CLI nouns (name and description as data, the command
 * module behind a `load()`), and a `load()` of the plugin itself. Export it as the default
 * of the module FLOWHOST_PLUGINS names, and `flowhost --help` lists the nouns without
 * importing the plugin.
 */
export function definePluginManifest(manifest: PluginManifest): PluginManifest {
  if (typeof manifest.id !== 'string' || !SLUG.test(manifest.id))
    throw new TypeError(`definePluginManifest: '${String(manifest.id)}' is not a valid plugin id`);
  if (typeof manifest.load !== 'function')
    throw new TypeError(`definePluginManifest '${manifest.id}': give load(), which imports the plugin`);
  for (const noun of manifest.cli ?? []) {
    if (typeof noun.noun !== 'string' || !SLUG.test(noun.noun))
      throw new TypeError(`definePluginManifest '${manifest.id}': '${String(noun.noun)}' is not a valid CLI noun`);
    if (typeof noun.load !== 'function')
      throw new TypeError(`definePluginManifest '${manifest.id}': CLI noun '${noun.noun}' needs load(), which imports its commands`);
  }
  return manifest;
}
