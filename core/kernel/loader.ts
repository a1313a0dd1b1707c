import semver from 'semver';
import { PluginError } from '../errors.js';
import type { PluginDefinition, PluginHost } from './plugin.js';
import type { HookCatalogue } from './hooks.js';
import { createAjv, validateWith } from './validator.js';

const ID_PATTERN = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

export interface LoadedPlugin {
  id: string;
  version: string;
  description?: string;
  dependsOn: string[];
  /** Hook names this plugin tapped during setup. */
  hooks: string[];
}

export interface LoadOptions {
  /** The kernel version plugins' `flowhost` ranges are checked against. */
  kernelVersion: string;
  hooks: HookCatalogue;
  /** Raw settings per plugin id (from config); validated here against each schema. */
  settings: Record<string, unknown>;
  /** Builds the `host` object one plugin's setup receives. */
  makeHost(plugin: PluginDefinition<Record<string, unknown>>, settings: Record<string, unknown>): PluginHost<Record<string, unknown>>;
}

/**
 * Checks, orders and sets up plugins. Every refusal is a PluginError naming the plugin:
 * a malformed definition, a duplicate id, an unmet or cyclic dependency, an incompatible
 * `flowhost` range, settings that fail the schema, or a setup that throws.
 */
export async function loadPlugins(plugins: ReadonlyArray<PluginDefinition<never>>, options: LoadOptions): Promise<LoadedPlugin[]> {
  const defs = plugins as unknown as ReadonlyArray<PluginDefinition<Record<string, unknown>>>;
  const byId = new Map<string, PluginDefinition<Record<string, unknown>>>();
  for (const def of defs) {
    checkShape(def);
    if (byId.has(def.id)) throw new PluginError(def.id, 'is registered twice (duplicate plugin id)');
    byId.set(def.id, def);
  }
  for (const def of defs) {
    if (!semver.satisfies(options.kernelVersion, def.flowhost, { includePrerelease: true })) {
      throw new PluginError(def.id, `requires Flowhost ${def.flowhost}, but this is Flowhost ${options.kernelVersion}`);
    }
    for (const dep of def.dependsOn ?? []) {
      if (!byId.has(dep)) throw new PluginError(def.id, `depends on plugin '${dep}', which is not loaded`);
    }
  }
  const ordered = orderByDependencies(defs, byId);
  const ajv = createAjv();
  const loaded: LoadedPlugin[] = [];
  for (const def of ordered) {
    const settings = structuredClone((options.settings[def.id] ?? {}) as Record<string, unknown>);
    if (def.settingsSchema) {
      const issues = validateWith(ajv, def.settingsSchema, settings);
      if (issues.length) {
        throw new PluginError(def.id, `invalid settings: ${issues.map((i) => i.message).join('; ')}`);
      }
    }
    const host = options.makeHost(def, settings);
    try {
      await options.hooks.withPlugin(def.id, () => def.setup(host));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new PluginError(def.id, `setup failed: ${reason}`, { cause: error });
    }
    loaded.push({
      id: def.id,
      version: def.version,
      description: def.description,
      dependsOn: [...(def.dependsOn ?? [])],
      hooks: options.hooks.tapsOf(def.id),
    });
  }
  return loaded;
}

function checkShape(def: PluginDefinition<Record<string, unknown>>): void {
  const id = typeof def?.id === 'string' ? def.id : '(no id)';
  if (!def || typeof def !== 'object') throw new PluginError(id, 'is not a plugin object (did you default-export definePlugin(...)?)');
  if (!ID_PATTERN.test(def.id ?? '')) throw new PluginError(id, `has an invalid id (lower-case letters, digits, '.', '_' and '-', optionally @scope/)`);
  if (!semver.valid(def.version)) throw new PluginError(id, `has an invalid version '${def.version}' (semver expected)`);
  if (!semver.validRange(def.flowhost)) throw new PluginError(id, `has an invalid 'flowhost' range '${def.flowhost}'`);
  if (typeof def.setup !== 'function') throw new PluginError(id, 'has no setup(host) function');
  if (def.dependsOn !== undefined && (!Array.isArray(def.dependsOn) || def.dependsOn.some((d) => typeof d !== 'string'))) {
    throw new PluginError(id, 'dependsOn must be a list of plugin ids');
  }
}

/** Depth-first topological order that keeps the given order where dependencies allow. */
function orderByDependencies(
  defs: ReadonlyArray<PluginDefinition<Record<string, unknown>>>,
  byId: Map<string, PluginDefinition<Record<string, unknown>>>,
): Array<PluginDefinition<Record<string, unknown>>> {
  const ordered: Array<PluginDefinition<Record<string, unknown>>> = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (def: PluginDefinition<Record<string, unknown>>, path: string[]): void => {
    const mark = state.get(def.id);
    if (mark === 'done') return;
    if (mark === 'visiting') {
      const cycle = [...path.slice(path.indexOf(def.id)), def.id].join(' -> ');
      throw new PluginError(def.id, `has a cyclic dependency: ${cycle}`);
    }
    state.set(def.id, 'visiting');
    for (const dep of def.dependsOn ?? []) visit(byId.get(dep)!, [...path, def.id]);
    state.set(def.id, 'done');
    ordered.push(def);
  };
  for (const def of defs) visit(def, []);
  return ordered;
}
