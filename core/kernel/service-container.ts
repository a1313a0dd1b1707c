import type { DependencyContainer } from 'tsyringe';
import { PluginError } from '../errors.js';
import type { ResolvedDeps, ServiceDeps, ServiceFactory, ServiceRef } from './service-ref.js';
import { pointReadBy } from './extension-point.js';

interface Provided {
  factory: ServiceFactory;
  /** 'host' for the kernel's own services, else the providing plugin's id. */
  owner: string;
}

/**
 * Builds services from their factories through tsyringe: a root instance is registered in
 * the host's root container once, a plugin-scoped one in that plugin's child container,
 * and every reference is read back with `container.resolve(ref.token)`. A missing or
 * cyclic reference is an error naming the plugin and the reference chain.
 */
export class ServiceContainer {
  private readonly factories = new Map<symbol, Provided>();
  private readonly children = new Map<string, DependencyContainer>();
  /** In-flight constructions, so two dependents awaiting one service build it once. */
  private readonly building = new Map<string, Promise<unknown>>();

  constructor(private readonly root: DependencyContainer) {}

  provide(factory: ServiceFactory, owner: string): void {
    const existing = this.factories.get(factory.service.token);
    if (existing) {
      throw new PluginError(
        owner,
        `provides service '${factory.service.id}', which ${existing.owner === 'host' ? 'the host' : `plugin '${existing.owner}'`} already provides`,
      );
    }
    this.factories.set(factory.service.token, { factory, owner });
  }

  /** Whether anything provides this reference. */
  has(ref: ServiceRef<unknown>): boolean {
    return this.factories.has(ref.token);
  }

  /** The container a plugin's scoped services live in (a child of the root). */
  containerOf(pluginId: string): DependencyContainer {
    let child = this.children.get(pluginId);
    if (!child) {
      child = this.root.createChildContainer();
      this.children.set(pluginId, child);
    }
    return child;
  }

  /** Every reference in `deps`, built (with their own dependencies) for `pluginId`. */
  async resolveDeps<D extends ServiceDeps>(pluginId: string, deps: D): Promise<ResolvedDeps<D>> {
    const out: Record<string, unknown> = {};
    for (const [name, ref] of Object.entries(deps)) out[name] = await this.get(ref, pluginId, [`plugin '${pluginId}'`]);
    return out as ResolvedDeps<D>;
  }

  /** One service for `pluginId` (root services ignore it). */
  async get<T>(ref: ServiceRef<T>, pluginId: string, chain: string[] = [`plugin '${pluginId}'`]): Promise<T> {
    const provided = this.factories.get(ref.token);
    if (!provided) {
      throw new PluginError(pluginId, `needs service '${ref.id}' (${chain.join(' -> ')} -> '${ref.id}'), which no loaded plugin provides`);
    }
    if (chain.includes(`'${ref.id}'`)) {
      throw new PluginError(pluginId, `has a cyclic service dependency: ${[...chain, `'${ref.id}'`].join(' -> ')}`);
    }
    const container = ref.scope === 'root' ? this.root : this.containerOf(pluginId);
    if (container.isRegistered(ref.token, false)) return container.resolve<T>(ref.token);
    const key = ref.scope === 'root' ? ref.id : `${pluginId}\u0000${ref.id}`;
    let pending = this.building.get(key);
    if (!pending) {
      pending = this.build(provided, ref, pluginId, [...chain, `'${ref.id}'`], container);
      this.building.set(key, pending);
    }
    return (await pending) as T;
  }

  private async build(
    provided: Provided,
    ref: ServiceRef<unknown>,
    pluginId: string,
    chain: string[],
    container: DependencyContainer,
  ): Promise<unknown> {
    const { factory } = provided;
    const deps: Record<string, unknown> = {};
    for (const [name, dep] of Object.entries(factory.deps)) {
      if (ref.scope === 'root' && dep.scope === 'plugin') {
        // One exception: a domain's service reads its own extension points' lists, built
        // for the plugin that provides it (the reading refuses any plugin but the owner).
        if (provided.owner === 'host' || !pointReadBy(dep))
          throw new PluginError(provided.owner, `root service '${ref.id}' cannot depend on plugin-scoped service '${dep.id}'`);
        deps[name] = await this.get(dep, provided.owner, chain);
        continue;
      }
      deps[name] = await this.get(dep, pluginId, chain);
    }
    let instance: unknown;
    try {
      instance = await factory.factory(deps as ResolvedDeps<ServiceDeps>, { pluginId });
    } catch (error) {
      if (error instanceof PluginError) throw error;
      throw new PluginError(
        provided.owner === 'host' ? pluginId : provided.owner,
        `could not build service '${ref.id}': ${(error as Error).message}`,
        { cause: error },
      );
    }
    container.register(ref.token, { useValue: instance });
    return container.resolve(ref.token);
  }
}
