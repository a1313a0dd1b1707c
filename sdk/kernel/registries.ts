import { PluginError } from '../errors.js';
import { contributionKinds, kindNames, type ItemOf, type KindName } from './contribution-kinds.js';
import type { ExtensionPoint } from './extension-point.js';
import { Registry } from './registry.js';

type Items<K extends KindName> = ReadonlyArray<ItemOf<K>>;

/**
 * What plugins and core domains see of the contribution lists (`services.registries`):
 * reading only. A plugin adds through its registrars, which record it as the owner; it
 * can neither add in another plugin's name nor seal or declare lists.
 */
export interface Registries {
  list<K extends KindName>(name: K): Items<K>;
  get<K extends KindName>(name: K, key: string): ItemOf<K> | undefined;
  /** The plugin that contributed an item. */
  ownerOf(item: object): string | undefined;
  providers(): Items<'providers'>;
  surfaces(): Items<'surfaces'>;
}

/**
 * The host's contribution lists: one `Registry` per kind, written by the registrar
 * services with the plugin id the container built them for, and one per declared
 * extension point; sealed once every plugin's setup has run (the `booted` point).
 * Reading earlier is a wiring mistake and says so.
 */
export class HostRegistries implements Registries {
  private readonly kinds = new Map<KindName, Registry<object>>(
    kindNames.map((name) => [name, new Registry<object>(name, contributionKinds[name].key as never)]),
  );
  /** The lists of the extension points plugins declared, by point id. */
  private readonly points = new Map<string, { point: ExtensionPoint<object>; registry: Registry<object> }>();

  /** Opens the list of a plugin-owned extension point (its owner declares it). */
  declare<T extends object>(point: ExtensionPoint<T>): Registry<T> {
    const before = this.points.get(point.id);
    if (before) throw new PluginError(point.owner, `declares extension point '${point.id}' twice (was another copy of its module loaded?)`);
    const registry = new Registry<T>(point.id, point.key, point.check ? (item) => point.check!(item) : undefined);
    this.points.set(point.id, { point: point as unknown as ExtensionPoint<object>, registry: registry as unknown as Registry<object> });
    return registry;
  }

  /** The list of a declared extension point (the host's view; a plugin reads through `point.contributions`). */
  extensionPoint<T extends object>(point: ExtensionPoint<T>): Registry<T> {
    const declared = this.points.get(point.id);
    if (!declared) throw new Error(`Extension point '${point.id}' is not declared: is plugin '${point.owner}' loaded?`);
    return declared.registry as unknown as Registry<T>;
  }

  /** Every declared extension point with its list (for boot-time checks). */
  extensionPoints(): ReadonlyArray<{ point: ExtensionPoint<object>; registry: Registry<object> }> {
    return [...this.points.values()];
  }

  /** The list of one kind (what a registrar writes to). */
  registry<K extends KindName>(name: K): Registry<ItemOf<K> & object> {
    return this.kinds.get(name) as unknown as Registry<ItemOf<K> & object>;
  }

  /** Closes every list: from now on they are read, never added to. */
  seal(): void {
    for (const registry of this.all()) registry.seal();
  }

  get isSealed(): boolean {
    return this.registry('surfaces').isSealed;
  }

  list<K extends KindName>(name: K): ReadonlyArray<ItemOf<K>> {
    return this.registry(name).list();
  }

  get<K extends KindName>(name: K, key: string): ItemOf<K> | undefined {
    return this.registry(name).get(key);
  }

  /** The plugin that contributed an item. */
  ownerOf(item: object): string | undefined {
    for (const registry of this.all()) {
      const owner = registry.ownerOfItem(item);
      if (owner) return owner;
    }
    return undefined;
  }

  /** What a plugin contributed, by list name (only lists it added to): for `flowhost plugins list`. */
  contributionsOf(pluginId: string): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const registry of this.all()) {
      const keys = registry.keysOf(pluginId);
      if (keys.length) out[registry.name] = keys;
    }
    return out;
  }

  providers() {
    return this.list('providers');
  }
  surfaces() {
    return this.list('surfaces');
  }

  private all(): Array<Registry<object>> {
    return [...this.kinds.values(), ...[...this.points.values()].map((p) => p.registry)];
  }
}
