/**
 * Plugin settings set at run time (`PATCH /plugins/{id}/settings`), one document per plugin
 * in `plugin_settings`: plain values as given, `writeOnly` values sealed with the core vault
 * under `plugin-settings:<plugin>:<key>` (a plugin's own vault cannot open them: only the
 * host does, to hand them to that plugin's `services.config`). They are layered over the
 * file/env settings: stored wins, key by key (docs/plugin-authoring.md, "Settings at run time").
 */
import type { DocumentStore } from '../../core/store/port.js';
import type { Vault } from '../../core/security/vault.js';
import type { JsonSchema } from '../../core/kernel/json-schema.js';

export const PLUGIN_SETTINGS_COLLECTION = 'plugin_settings';

export interface StoredPluginSettings {
  /** Plain values by key. */
  values: Record<string, unknown>;
  /** Sealed `writeOnly` values by key. */
  secrets: Record<string, string>;
}

const sealContext = (pluginId: string, key: string) => `plugin-settings:${pluginId}:${key}`;

/** The top-level properties a schema marks `writeOnly: true`: the plugin's secret settings. */
export function writeOnlyKeys(schema: JsonSchema | undefined): Set<string> {
  const properties = (schema as { properties?: Record<string, { writeOnly?: unknown }> } | undefined)?.properties ?? {};
  return new Set(
    Object.entries(properties)
      .filter(([, p]) => p?.writeOnly === true)
      .map(([key]) => key),
  );
}

export function pluginSettingsStore(store: DocumentStore, vault: Vault) {
  const collection = store.collection(PLUGIN_SETTINGS_COLLECTION);
  const asRecord = (value: unknown): Record<string, unknown> =>
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return {
    async read(pluginId: string): Promise<StoredPluginSettings> {
      const doc = await collection.findOne({ _id: pluginId });
      return { values: asRecord(doc?.values), secrets: asRecord(doc?.secrets) as Record<string, string> };
    },
    /** Every stored plugin's settings, secrets opened: what the loader layers over the file's. */
    async readAllOpened(): Promise<Map<string, Record<string, unknown>>> {
      const out = new Map<string, Record<string, unknown>>();
      for (const doc of await collection.find({})) {
        const id = String(doc._id);
        out.set(id, this.open(id, { values: asRecord(doc.values), secrets: asRecord(doc.secrets) as Record<string, string> }));
      }
      return out;
    },
    /** Plain values and opened secrets of one stored record. */
    open(pluginId: string, stored: StoredPluginSettings): Record<string, unknown> {
      const opened: Record<string, unknown> = { ...stored.values };
      for (const [key, sealed] of Object.entries(stored.secrets)) opened[key] = vault.decrypt(sealed, sealContext(pluginId, key));
      return opened;
    },
    seal(pluginId: string, key: string, plaintext: string): string {
      return vault.encrypt(plaintext, sealContext(pluginId, key));
    },
    async write(pluginId: string, next: StoredPluginSettings, at: Date): Promise<void> {
      await collection.updateOne(
        { _id: pluginId },
        { $set: { values: next.values, secrets: next.secrets, updated_at: at } },
        { upsert: true },
      );
    },
  };
}

export type PluginSettingsStore = ReturnType<typeof pluginSettingsStore>;
