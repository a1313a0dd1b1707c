import type { CliNounDefinition } from './cli.js';
import type { PluginDefinition } from './plugin.js';

/**
 * What the CLI needs of a plugin without importing it. A plugin module imports its
 * handlers, routes and their libraries; `flowhost --help` needs only the plugin's id and
 * the names of its CLI nouns. A manifest is a light module: the names and descriptions as
 * data, and a `load()` for each part that imports the real code only when it is used.
 */

/** One CLI noun as the manifest declares it: listed in `--help`, loaded when it runs. */
export interface CliNounManifest {
  /** The first word: `flowhost <noun> <command>`; must equal the loaded noun's. */
  readonly noun: string;
  /** The one line `flowhost --help` shows. */
  readonly describe: string;
  /** Imports the command module (`() => import('./cli.js').then((m) => m.myNoun)`). */
  load(): Promise<CliNounDefinition>;
}

export interface PluginManifest {
  /** The plugin's id; must equal the loaded definition's. */
  readonly id: string;
  /**
   * The plugin's CLI nouns. The CLI reads a manifest plugin's nouns from here only (the
   * definition's `cli` is for hosts built from definitions, e.g. tests).
   */
  readonly cli?: ReadonlyArray<CliNounManifest>;
  /** Imports the plugin itself (its definition) for a host that runs it. */
  load(): Promise<PluginDefinition>;
}

/** A module's default export, or the export itself: what `import()` of a plugin gives. */
export async function defaultExport<T>(loading: Promise<{ default: T } | T>): Promise<T> {
  const mod = await loading;
  return mod && typeof mod === 'object' && 'default' in mod ? (mod as { default: T }).default : (mod as T);
}

/** A manifest, told apart from a definition: it has `load` and no `setup`. */
export function isPluginManifest(value: unknown): value is PluginManifest {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as PluginManifest).load === 'function' &&
    typeof (value as { setup?: unknown }).setup !== 'function'
  );
}

/** Imports a manifest's plugin and checks it is the plugin the manifest names. */
export async function loadManifestPlugin(manifest: PluginManifest): Promise<PluginDefinition> {
  const plugin = await manifest.load();
  if (!plugin || typeof plugin !== 'object' || plugin.id !== manifest.id) {
    throw new Error(
      `Plugin manifest '${manifest.id}': load() gave ${plugin && typeof plugin === 'object' ? `plugin '${String(plugin.id)}'` : 'no plugin definition'}`,
    );
  }
  return plugin;
}
