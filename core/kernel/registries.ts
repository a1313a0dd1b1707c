import { HookCatalogue } from './hooks.js';
import { registryKeys, type RegistryItems, type RegistryName } from './contributions.js';

/**
 * Read access to the resolved registries. Resolved once, after every plugin's setup
 * (the `booted` point); reading earlier is a wiring mistake and says so.
 */
export class Registries {
  private resolved: { [K in RegistryName]?: ReadonlyArray<RegistryItems[K]> } = {};

  constructor(private readonly hooks: HookCatalogue) {}

  /** Calls every registry filter once and checks keys are unique; throws naming both plugins. */
  resolveAll(): void {
    for (const name of HookCatalogue.registryNames) this.resolveOne(name);
  }

  get isResolved(): boolean {
    return this.resolved.handlers !== undefined;
  }

  list<K extends RegistryName>(name: K): ReadonlyArray<RegistryItems[K]> {
    const items = this.resolved[name];
    if (!items) throw new Error(`Registry '${name}' is read before the host booted; read it inside a route handler or a 'booted' tap`);
    return items as ReadonlyArray<RegistryItems[K]>;
  }

  get<K extends RegistryName>(name: K, key: string): RegistryItems[K] | undefined {
    const field = registryKeys[name];
    return this.list(name).find((item) => (item as unknown as Record<string, unknown>)[field] === key);
  }

  /** The plugin that contributed an item. */
  ownerOf(item: object): string | undefined {
    return this.hooks.ownerOf(item);
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

  private resolveOne<K extends RegistryName>(name: K): void {
    const items = this.hooks.resolve(name);
    const field = registryKeys[name];
    const seen = new Map<string, object>();
    for (const item of items) {
      const key = (item as unknown as Record<string, unknown>)[field];
      if (typeof key !== 'string' || key === '') {
        throw new Error(`A '${name}' entry from plugin '${this.hooks.ownerOf(item) ?? 'unknown'}' has no '${field}'`);
      }
      const before = seen.get(key);
      if (before) {
        throw new Error(
          `Duplicate ${name} '${key}': contributed by plugin '${this.hooks.ownerOf(before) ?? 'unknown'}' and plugin '${this.hooks.ownerOf(item) ?? 'unknown'}'`,
        );
      }
      seen.set(key, item);
    }
    this.resolved[name] = Object.freeze([...items]) as never;
  }
}
