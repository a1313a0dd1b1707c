import type { HookCatalogue } from './hooks.js';
import { contributionKinds, kindNames, type ItemOf, type KindName } from './contribution-kinds.js';

/**
 * Read access to the resolved registries. Resolved once, after every plugin's setup
 * (the `booted` point); reading earlier is a wiring mistake and says so.
 */
export class Registries {
  private resolved: { [K in KindName]?: ReadonlyArray<ItemOf<K>> } = {};
  private readonly owners = new WeakMap<object, string>();

  constructor(private readonly hooks: HookCatalogue) {}

  /** Calls every registry hook once and checks keys are unique; throws naming both plugins. */
  resolveAll(): void {
    for (const name of kindNames) this.resolveOne(name);
  }

  get isResolved(): boolean {
    return this.resolved.handlers !== undefined;
  }

  list<K extends KindName>(name: K): ReadonlyArray<ItemOf<K>> {
    const items = this.resolved[name];
    if (!items) throw new Error(`Registry '${name}' is read before the host booted; read it inside a route handler or a 'booted' tap`);
    return items as ReadonlyArray<ItemOf<K>>;
  }

  get<K extends KindName>(name: K, key: string): ItemOf<K> | undefined {
    const field = contributionKinds[name].key as string;
    return this.list(name).find((item) => (item as unknown as Record<string, unknown>)[field] === key);
  }

  /** The plugin that contributed an item. */
  ownerOf(item: object): string | undefined {
    return this.owners.get(item);
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

  private resolveOne<K extends KindName>(name: K): void {
    const field = contributionKinds[name].key as string;
    const items: Array<ItemOf<K>> = [];
    const seen = new Map<string, object>();
    const hook = this.hooks.contributions.for(name);
    // tapable tells an interceptor which tap runs next: that tap's name is the plugin.
    let owner = 'unknown';
    hook.intercept({ tap: (tap) => void (owner = tap.name) });
    hook.call({
      add: (item: unknown) => {
        if (!item || typeof item !== 'object') throw new Error(`Plugin '${owner}' added a '${name}' entry that is not an object`);
        const key = (item as Record<string, unknown>)[field];
        if (typeof key !== 'string' || key === '') throw new Error(`A '${name}' entry from plugin '${owner}' has no '${field}'`);
        const before = seen.get(key);
        if (before) throw new Error(`Duplicate ${name} '${key}': contributed by plugin '${this.owners.get(before)}' and plugin '${owner}'`);
        seen.set(key, item);
        this.owners.set(item, owner);
        items.push(item as ItemOf<K>);
      },
    });
    this.resolved[name] = Object.freeze(items) as never;
  }
}
