import type { PluginDefinition } from './plugin.js';
import type { ServiceDeps } from './service-ref.js';

/** A plugin, `setup` typed by its `deps` (the SDK re-exports this; core domains use it directly). */
export function definePlugin<D extends ServiceDeps = Record<never, never>>(definition: PluginDefinition<D>): PluginDefinition<D> {
  return definition;
}
