// The three functions, not the package's index: that loads all 47 of semver's modules (~20 ms of a start).
import satisfies from 'semver/functions/satisfies.js';
import valid from 'semver/functions/valid.js';
import validRange from 'semver/ranges/valid.js';
import { PluginError } from '../errors.js';
import { parseDependency } from './plugin-dependency.js';
import type { PluginDefinition } from './plugin.js';
import type { PluginMigration } from '../../sdk/migrations.js';
import type { HookCatalogue } from './hooks.js';
import type { ServiceContainer } from './service-container.js';
import { createServiceFactory, isServiceFactory, isServiceRef, optionalFallbackOf, type ServiceDeps } from './service-ref.js';
import { isExtensionPoint, optionalContributionTo, type ExtensionPoint } from './extension-point.js';
import { droppingRegistrar, extensionPointFactories } from './extension-point-services.js';
import type { HostRegistries } from './registries.js';
import { createAjv, schemaProblem, validateWith } from './validator.js';

const ID_PATTERN = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

export interface LoadedPlugin {
  id: string;
  version: string;
  description?: string;
  dependsOn: string[];
  /** Service ids this plugin asked for. */
  deps: string[];
  /** Service ids this plugin provides. */
  provides: string[];
  /** Hook names this plugin tapped during setup (events and waterfalls). */
  hooks: string[];
  /** What this plugin contributed, by list ('handlers', 'chat.tools'...): the items' keys. */
  contributions: Record<string, string[]>;
  /** Ids of the extension points this plugin owns. */
  extensionPoints: string[];
}

export interface LoadOptions {
  /** The kernel version plugins' `flowhost` ranges are checked against. */
  kernelVersion: string;
  hooks: HookCatalogue;
  services: ServiceContainer;
  /** The contribution lists: each plugin's extension points open one here. */
  registries: HostRegistries;
  /** Raw settings per plugin id (from config); validated here against each schema. */
  settings: Record<string, unknown>;
  /** Receives each plugin's validated settings (defaults applied) before any setup runs. */
  onSettings(pluginId: string, settings: Record<string, unknown>): void;
  /** Receives each plugin's declared collections; throws when two plugins claim one. */
  onCollections(pluginId: string, collections: readonly string[]): void;
  /**
   * Runs a plugin's pending migrations, just before its setup (after its dependencies'
   * setups); throws a PluginError naming the plugin and the step that failed.
   */
  migrate?(pluginId: string, steps: ReadonlyArray<PluginMigration>): Promise<unknown>;
}

type AnyPlugin = PluginDefinition<ServiceDeps>;

/**
 * Checks, orders and sets up plugins. Every refusal is a PluginError naming the plugin:
 * a malformed definition, a duplicate id, an unmet or cyclic dependency, an incompatible
 * `flowhost` range, settings that fail the schema, a service nobody provides or two
 * providers of one, or a setup that throws.
 */
export async function loadPlugins(plugins: ReadonlyArray<PluginDefinition>, options: LoadOptions): Promise<LoadedPlugin[]> {
  const defs = plugins as unknown as ReadonlyArray<AnyPlugin>;
  const byId = new Map<string, AnyPlugin>();
  for (const def of defs) {
    checkShape(def);
    if (byId.has(def.id)) throw new PluginError(def.id, 'is registered twice (duplicate plugin id)');
    byId.set(def.id, def);
  }
  // Schemas are checked by the shared checker (schemaProblem): this instance need not
  // compile the meta-schema's validator again.
  const ajv = createAjv({ validateSchema: false });
  for (const def of defs) {
    if (!satisfies(options.kernelVersion, def.flowhost, { includePrerelease: true })) {
      throw new PluginError(def.id, `requires Flowhost ${def.flowhost}, but this is Flowhost ${options.kernelVersion}`);
    }
    for (const entry of def.dependsOn ?? []) {
      const { id: dep, range } = parseDependency(entry);
      const other = byId.get(dep);
      if (!other) throw new PluginError(def.id, `depends on plugin '${dep}', which is not loaded`);
      if (range && !satisfies(other.version, range, { includePrerelease: true }))
        throw new PluginError(def.id, `depends on plugin '${dep}' ${range}, but version ${other.version} is loaded`);
    }
    for (const factory of def.provides ?? []) options.services.provide(factory, def.id);
    for (const point of def.extensionPoints ?? []) {
      for (const factory of extensionPointFactories(point as unknown as ExtensionPoint<object>, options.registries))
        options.services.provide(factory, def.id);
    }
    options.onCollections(def.id, def.collections ?? []);
    const settings = structuredClone((options.settings[def.id] ?? {}) as Record<string, unknown>);
    if (def.settingsSchema) {
      let issues;
      try {
        const problem = schemaProblem(def.settingsSchema as object);
        if (problem) throw new Error(problem);
        issues = validateWith(ajv, def.settingsSchema, settings);
      } catch (error) {
        throw new PluginError(def.id, `its settingsSchema does not compile: ${(error as Error).message}`);
      }
      if (issues.length) throw new PluginError(def.id, `invalid settings: ${issues.map((i) => i.message).join('; ')}`);
    }
    options.onSettings(def.id, settings);
  }
  // Every reference must have a provider before any setup runs: fail fast, naming both.
  for (const def of defs) {
    for (const [name, ref] of Object.entries(def.deps ?? {})) {
      if (options.services.has(ref)) continue;
      // An optional service nobody provides: the plugin gets its stand-in.
      const fallback = optionalFallbackOf(ref);
      if (fallback) {
        options.services.provide(createServiceFactory({ service: ref, factory: fallback }), 'host');
        continue;
      }
      // An optional contribution to a point nobody declared: what the plugin adds is dropped.
      if (optionalContributionTo(ref)) {
        options.services.provide(droppingRegistrar(ref), 'host');
        continue;
      }
      if (isExtensionPoint(ref)) {
        throw new PluginError(
          def.id,
          `contributes to extension point '${ref.id}' (as '${name}'), owned by plugin '${ref.owner}', which is not loaded: load plugin '${ref.owner}' too, or leave '${def.id}' out (its author may list the point's .optional to contribute only when '${ref.owner}' is loaded)`,
        );
      }
      throw new PluginError(def.id, `needs service '${ref.id}' (as '${name}'), which no loaded plugin provides`);
    }
  }
  const loaded: LoadedPlugin[] = [];
  for (const def of orderByDependencies(defs, byId)) {
    // Before setup: a setup may read, index or cache the data a step reshapes.
    if (def.migrations?.length && options.migrate) {
      try {
        await options.migrate(def.id, def.migrations);
      } catch (error) {
        if (error instanceof PluginError) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw new PluginError(def.id, `its migrations could not run: ${reason}`, { cause: error });
      }
    }
    const deps = await options.services.resolveDeps(def.id, def.deps ?? {});
    try {
      await options.hooks.withPlugin(def.id, () => def.setup(deps));
    } catch (error) {
      if (error instanceof PluginError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new PluginError(def.id, `setup failed: ${reason}`, { cause: error });
    }
    loaded.push({
      id: def.id,
      version: def.version,
      description: def.description,
      dependsOn: (def.dependsOn ?? []).map((entry) => parseDependency(entry).id),
      deps: Object.values(def.deps ?? {}).map((ref) => ref.id),
      provides: (def.provides ?? []).map((f) => f.service.id),
      hooks: options.hooks.tapsOf(def.id),
      contributions: {},
      extensionPoints: (def.extensionPoints ?? []).map((point) => point.id),
    });
  }
  // Read once every setup ran: a plugin may add to a list from another plugin's callback.
  for (const plugin of loaded) plugin.contributions = options.registries.contributionsOf(plugin.id);
  return loaded;
}

function checkShape(def: AnyPlugin): void {
  const id = typeof def?.id === 'string' ? def.id : '(no id)';
  if (!def || typeof def !== 'object') throw new PluginError(id, 'is not a plugin object (did you default-export definePlugin(...)?)');
  if (!ID_PATTERN.test(def.id ?? ''))
    throw new PluginError(id, `has an invalid id (lower-case letters, digits, '.', '_' and '-', optionally @scope/)`);
  if (!valid(def.version)) throw new PluginError(id, `has an invalid version '${def.version}' (semver expected)`);
  if (!validRange(def.flowhost)) throw new PluginError(id, `has an invalid 'flowhost' range '${def.flowhost}'`);
  if (typeof def.setup !== 'function') throw new PluginError(id, 'has no setup(deps) function');
  if (def.dependsOn !== undefined && (!Array.isArray(def.dependsOn) || def.dependsOn.some((d) => typeof d !== 'string'))) {
    throw new PluginError(id, 'dependsOn must be a list of plugin ids');
  }
  for (const entry of def.dependsOn ?? []) {
    const { id: dep, range } = parseDependency(entry);
    if (!ID_PATTERN.test(dep) || (range !== null && !validRange(range)))
      throw new PluginError(id, `dependsOn entry '${entry}' is not a plugin id with an optional version range ('other' or 'other@^1.2')`);
  }
  for (const [name, ref] of Object.entries(def.deps ?? {})) {
    if (!isServiceRef(ref))
      throw new PluginError(id, `deps.${name} is not a service reference (use one of \`services.*\` or createServiceRef)`);
  }
  for (const factory of def.provides ?? []) {
    if (!isServiceFactory(factory)) throw new PluginError(id, 'provides must list service factories (createServiceFactory)');
    if (factory.service.scope !== 'root')
      throw new PluginError(id, `provides '${factory.service.id}', a plugin-scoped service; plugins provide root services`);
  }
  for (const point of def.extensionPoints ?? []) {
    if (!isExtensionPoint(point)) throw new PluginError(id, 'extensionPoints must list extension points (createExtensionPoint)');
    if (point.owner !== def.id)
      throw new PluginError(
        id,
        `declares extension point '${point.id}', which belongs to plugin '${point.owner}' (its owner); only the owner declares it, others list it in deps`,
      );
  }
  checkMigrations(id, def.migrations);
  if (def.collections !== undefined && (!Array.isArray(def.collections) || def.collections.some((c) => typeof c !== 'string'))) {
    throw new PluginError(id, 'collections must be a list of collection names');
  }
}

function checkMigrations(id: string, migrations: unknown): void {
  if (migrations === undefined) return;
  if (!Array.isArray(migrations)) throw new PluginError(id, 'migrations must be a list of steps ({ id, up(context) })');
  const ids = new Set<string>();
  for (const [index, step] of migrations.entries()) {
    const stepId: unknown = step?.id;
    if (typeof stepId !== 'string' || !stepId.trim() || stepId.length > 200)
      throw new PluginError(id, `migrations[${index}] has no id (a non-empty string of at most 200 characters)`);
    if (typeof step.up !== 'function') throw new PluginError(id, `migration '${stepId}' has no up(context) function`);
    if (ids.has(stepId)) throw new PluginError(id, `migration id '${stepId}' is listed twice`);
    ids.add(stepId);
  }
}

/** Depth-first topological order that keeps the given order where dependencies allow. */
function orderByDependencies(defs: ReadonlyArray<AnyPlugin>, byId: Map<string, AnyPlugin>): AnyPlugin[] {
  const ordered: AnyPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (def: AnyPlugin, path: string[]): void => {
    const mark = state.get(def.id);
    if (mark === 'done') return;
    if (mark === 'visiting') {
      const cycle = [...path.slice(path.indexOf(def.id)), def.id].join(' -> ');
      throw new PluginError(def.id, `has a cyclic dependency: ${cycle}`);
    }
    state.set(def.id, 'visiting');
    for (const entry of def.dependsOn ?? []) visit(byId.get(parseDependency(entry).id)!, [...path, def.id]);
    state.set(def.id, 'done');
    ordered.push(def);
  };
  for (const def of defs) visit(def, []);
  return ordered;
}
