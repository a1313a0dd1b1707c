import { PluginError } from '../errors.js';
import type { ExtensionPoint, ExtensionPointContributions } from './extension-point.js';
import type { HostRegistries } from './registries.js';
import { createServiceFactory, type ServiceFactory } from './service-ref.js';

/**
 * What declaring an extension point provides: the contributors' registrar (plugin-scoped,
 * so each `add` is recorded as the plugin the container built it for) and the owner's
 * reading of the list, refused to any other plugin.
 */
export function extensionPointFactories<T extends object>(point: ExtensionPoint<T>, registries: HostRegistries): ServiceFactory[] {
  const registry = registries.declare(point);
  const contributions: ExtensionPointContributions<T> = {
    list: () => registry.list(),
    entries: () => registry.entries(),
    get: (key) => registry.get(key),
    ownerOf: (key) => registry.ownerOf(key),
  };
  return [
    createServiceFactory({ service: point, factory: (_deps, { pluginId }) => ({ add: (item: T) => registry.add(pluginId, item) }) }),
    createServiceFactory({
      service: point.contributions,
      factory: (_deps, { pluginId }) => {
        if (pluginId !== point.owner) throw new PluginError(pluginId, `reads the contributions to extension point '${point.id}', which only its owner, plugin '${point.owner}', reads; list the point itself in deps to contribute`);
        return contributions;
      },
    }),
  ] as ServiceFactory[];
}
