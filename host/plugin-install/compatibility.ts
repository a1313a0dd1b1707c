import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import satisfies from 'semver/functions/satisfies.js';
import valid from 'semver/functions/valid.js';
import validRange from 'semver/ranges/valid.js';
import { parseDependency } from '../../core/kernel/plugin-dependency.js';
import { isPluginManifest, loadManifestPlugin } from '../../core/kernel/plugin-manifest.js';
import type { PluginDefinition } from '../../core/kernel/plugin.js';
import { FLOWHOST_VERSION } from '../../core/kernel/version.js';
import { packageRoot } from '../../core/kernel/package-root.js';
import { packageEntry } from './plugins-folder.js';

/** The plugins a newly installed one may depend on: id to version (null: known only by id, a manifest). */
export type AvailablePlugins = ReadonlyMap<string, string | null>;

export interface CheckedPlugin {
  id: string;
  version: string;
  dependsOn: string[];
}

interface PackageJson {
  name?: string;
  version?: string;
  engines?: { node?: string };
  peerDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}

/**
 * Everything checked before an installed package becomes a plugin of this data directory:
 * its package.json (`peerDependencies.flowhost`, `engines.node`), that it resolves the
 * host's own `flowhost` (one module instance, not a second copy), and its definition (id,
 * version, `flowhost` range, `dependsOn` with ranges against the plugins it would run beside).
 * Returns the problems, each a sentence; none means compatible.
 */
export async function checkInstalledPackage(
  folder: string,
  name: string,
  available: AvailablePlugins,
): Promise<{ plugin: CheckedPlugin | null; problems: string[] }> {
  const problems: string[] = [];
  const dir = join(folder, 'node_modules', name);
  let pkg: PackageJson;
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  } catch (error) {
    return { plugin: null, problems: [`its package.json cannot be read: ${(error as Error).message}`] };
  }
  const peer = pkg.peerDependencies?.flowhost;
  if (pkg.dependencies?.flowhost)
    problems.push(`it lists flowhost in dependencies; a plugin names it in peerDependencies, so it runs on the host's own package`);
  if (peer && !(validRange(peer) && satisfies(FLOWHOST_VERSION, peer, { includePrerelease: true })))
    problems.push(`its package needs flowhost ${peer} (peerDependencies), but this is Flowhost ${FLOWHOST_VERSION}`);
  const engine = pkg.engines?.node;
  if (engine && !(validRange(engine) && satisfies(process.version, engine, { includePrerelease: true })))
    problems.push(`it needs Node.js ${engine} (engines.node), but this is Node.js ${process.version}`);
  if (!resolvesHostFlowhost(dir)) problems.push(`its import of 'flowhost' does not resolve to this host's package (${packageRoot()})`);
  if (problems.length) return { plugin: null, problems };
  let definition: PluginDefinition;
  try {
    definition = await importFresh(packageEntry(folder, name));
  } catch (error) {
    return { plugin: null, problems: [`it cannot be loaded: ${(error as Error).message}`] };
  }
  problems.push(...definitionProblems(definition, available));
  const plugin = { id: definition.id, version: definition.version, dependsOn: [...(definition.dependsOn ?? [])] };
  return { plugin: problems.length ? null : plugin, problems };
}

function resolvesHostFlowhost(dir: string): boolean {
  try {
    const found = createRequire(join(dir, 'package.json')).resolve('flowhost/package.json');
    return realpathSync(found) === realpathSync(join(packageRoot(), 'package.json'));
  } catch {
    return false;
  }
}

/** Its default export, imported anew (an update at the same path must not answer from the module cache). */
async function importFresh(entry: string): Promise<PluginDefinition> {
  const mod = (await import(`${pathToFileURL(entry).href}?installed=${Date.now()}`)) as { default?: unknown };
  const value = mod.default;
  if (!value || typeof value !== 'object') throw new Error('it has no default export; export default definePlugin({...})');
  return isPluginManifest(value) ? loadManifestPlugin(value) : (value as PluginDefinition);
}

function definitionProblems(def: PluginDefinition, available: AvailablePlugins): string[] {
  const problems: string[] = [];
  if (typeof def.id !== 'string' || !def.id) return ['its default export has no plugin id (is it a Flowhost plugin?)'];
  if (!valid(def.version)) problems.push(`its version '${def.version}' is not semver`);
  if (!validRange(def.flowhost) || !satisfies(FLOWHOST_VERSION, def.flowhost, { includePrerelease: true }))
    problems.push(`plugin '${def.id}' requires Flowhost ${def.flowhost}, but this is Flowhost ${FLOWHOST_VERSION}`);
  for (const entry of def.dependsOn ?? []) {
    const { id, range } = parseDependency(entry);
    if (!available.has(id)) {
      problems.push(`it depends on plugin '${id}'${range ? ` ${range}` : ''}, which this build does not load`);
      continue;
    }
    const version = available.get(id);
    if (range && version && !satisfies(version, range, { includePrerelease: true }))
      problems.push(`it depends on plugin '${id}' ${range}, but version ${version} is loaded`);
  }
  return problems;
}
