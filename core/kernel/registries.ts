import { contributionKinds, kindNames, type ItemOf, type KindName } from './contribution-kinds.js';
import { Registry } from './registry.js';

/**
 * The host's contribution lists: one `Registry` per kind, written by the registrar
 * services with the plugin id the container built them for, sealed once every plugin's
 * setup has run (the `booted` point). Reading earlier is a wiring mistake and says so.
 */
export class Registries {
  private readonly kinds = new Map<KindName, Registry<object>>(kindNames.map((name) => [name, new Registry<object>(name, contributionKinds[name].key as never)]));

  /** The list of one kind (what a registrar writes to). */
  registry<K extends KindName>(name: K): Registry<ItemOf<K> & object> {
    return this.kinds.get(name) as unknown as Registry<ItemOf<K> & object>;
  }

  /** Closes every list: from now on they are read, never added to. */
  seal(): void {
    for (const registry of this.all()) registry.seal();
  }

  get isSealed(): boolean {
    return this.registry('handlers').isSealed;
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

  handlers() { return this.list('handlers'); }
  providers() { return this.list('providers'); }
  presets() { return this.list('presets'); }
  intervals() { return this.list('intervals'); }
  analyticsTools() { return this.list('analyticsTools'); }
  chatTools() { return this.list('chatTools'); }
  verifiers() { return this.list('verifiers'); }
  surfaces() { return this.list('surfaces'); }
  authProviders() { return this.list('authProviders'); }
  stepTypes() { return this.list('stepTypes'); }
  postTypes() { return this.list('postTypes'); }
  taxonomies() { return this.list('taxonomies'); }

  private all(): Array<Registry<object>> {
    return [...this.kinds.values()];
  }
}
