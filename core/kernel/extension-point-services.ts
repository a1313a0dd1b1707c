import { PluginError } from '../errors.js';
import type { ExtensionPoint, ExtensionPointContributions } from './extension-point.js';
import type { HostRegistries } from './registries.js';
import { createServiceFactory, type ServiceFactory, type ServiceRef } from './service-ref.js';

/**
 * What declaring an extension point provides: the contributors' registrar (plugin-scoped,
 * so each `add` is recorded as the plugin the container built it for), the same through
 * `point.optional`, and the owner's reading of the list, refused to any other plugin.
 */
export function extensionPointFactories<T extends object>(point: ExtensionPoint<T>, registries: HostRegistries): ServiceFactory[] {
  const registry = registries.declare(point);
  const contributions: ExtensionPointContributions<T> = {
    list: () => registry.list(),
    entries: () => registry.entries(),
    get: (key) => registry.get(key),
    ownerOf: (key) => registry.ownerOf(key),
  };
  const registrar = (pluginId: string) => ({ add: (item: T) => registry.add(pluginId, item) });
  return [
    createServiceFactory({ service: point, factory: (_deps, { pluginId }) => registrar(pluginId) }),
    createServiceFactory({ service: point.optional, factory: (_deps, { pluginId }) => registrar(pluginId) }),
    createServiceFactory({
      service: point.contributions,
      factory: (_deps, { pluginId }) => {
        if (pluginId !== point.owner)
          throw new PluginError(
            pluginId,
            `reads the contributions to extension point '${point.id}', which only its owner, plugin '${point.owner}', reads; list the point itself in deps to contribute`,
          );
        return contributions;
      },
    }),
  ] as ServiceFactory[];
}

/** `point.optional` when the point's owner is not loaded: a registrar that drops what it is given. */
export function droppingRegistrar(ref: ServiceRef<unknown>): ServiceFactory {
  return createServiceFactory({ service: ref, factory: () => ({ add: () => undefined }) }) as ServiceFactory;
}
