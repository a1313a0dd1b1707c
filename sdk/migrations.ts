/**
 * A plugin's data migrations (`definePlugin({ migrations })`): ordered steps the host runs
 * once per store, before the plugin's `setup`, under a lock held in the store so two hosts
 * on one MongoDB database never both run a step. See docs/plugin-authoring.md.
 */
import type { Logger } from './kernel/logger.js';
import type { PluginStore } from './kernel/plugin-services.js';

/** What a step receives: the plugin's own collections (as `services.store` gives them in setup) and a logger. */
export interface MigrationContext {
  /** The plugin's id. */
  readonly pluginId: string;
  /** The step's id. */
  readonly stepId: string;
  /** The plugin's collections: the same names, the same namespacing as `services.store`. */
  readonly store: PluginStore;
  /** The plugin's logger, bound to the step (`migration: stepId`). */
  readonly log: Logger;
}

/**
 * One step. Steps run in the order listed; each runs once per store and is recorded as
 * applied when it returns. A step must be safe to run again: a host killed in the middle
 * of one leaves it unrecorded, and the next host to start runs it again from the top.
 */
export interface PluginMigration {
  /** Unique within the plugin, never reused or renamed: '2024-01-add-slug', '1.2.0'. */
  id: string;
  /** What the step changes, shown by `flowhost plugins migrations`. */
  description?: string;
  up(context: MigrationContext): Promise<void> | void;
}
