import type { PluginDefinition } from '../../core/kernel/plugin.js';
import type { Logger } from '../../core/kernel/logger.js';

/**
 * Calls each loaded plugin's `dispose` once, in reverse load order (a plugin goes before
 * the plugins it depends on). A throw is logged and the next plugin still disposes: a
 * stop always reaches the store's close.
 */
export async function disposePlugins(
  definitions: ReadonlyArray<PluginDefinition>,
  loadOrder: ReadonlyArray<{ id: string }>,
  log: Logger,
): Promise<void> {
  const byId = new Map(definitions.map((d) => [d.id, d]));
  for (const { id } of [...loadOrder].reverse()) {
    const def = byId.get(id);
    if (typeof def?.dispose !== 'function') continue;
    try {
      await def.dispose();
    } catch (error) {
      log.error(
        { plugin: id, err: { message: error instanceof Error ? error.message : String(error) } },
        `Plugin '${id}': dispose failed (the host stops anyway)`,
      );
    }
  }
}
