import type { PluginDefinition } from '../../core/kernel/plugin.js';
import type { Logger } from '../../core/kernel/logger.js';
import { createAjv, validateWith } from '../../core/kernel/validator.js';

const ajv = createAjv({ validateSchema: false });

/**
 * The settings the loader validates: each plugin's stored settings over its file/env ones,
 * key by key. Stored settings that no longer pass the plugin's schema (a new version made
 * a field stricter) are set aside for this start, loudly, rather than stopping it: the
 * host would otherwise never start to let an administrator fix them through the API. A
 * bad file value still stops start-up, as it always did.
 */
export function layerSettings(
  definitions: ReadonlyArray<PluginDefinition>,
  fileSettings: Record<string, Record<string, unknown>>,
  stored: Map<string, Record<string, unknown>>,
  log: Logger,
): Record<string, Record<string, unknown>> {
  const layered: Record<string, Record<string, unknown>> = { ...fileSettings };
  for (const def of definitions) {
    const own = stored.get(def.id);
    if (!own) continue;
    const candidate = { ...fileSettings[def.id], ...own };
    const issues = def.settingsSchema ? validateWith(ajv, def.settingsSchema, structuredClone(candidate)) : [];
    if (issues.length === 0) {
      layered[def.id] = candidate;
      continue;
    }
    log.error(
      { plugin: def.id, fields: issues.map((i) => i.field) },
      `Plugin '${def.id}': its settings saved at run time no longer pass its settingsSchema (${issues.map((i) => i.message).join('; ')}); it starts with its file/env settings: fix them with \`flowhost plugins settings ${def.id}\` (--set or --clear)`,
    );
  }
  return layered;
}
