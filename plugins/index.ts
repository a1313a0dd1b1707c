import type { PluginDefinition } from '../sdk/index.js';
import discovery from './discovery/index.js';

/** Built-in plugins every default build loads. */
export const defaultPlugins: ReadonlyArray<PluginDefinition<never>> = [discovery as PluginDefinition<never>];

/** Built-in plugins a build may enable by id (FLOWHOST_PLUGINS / config `plugins`). */
export const optionalPlugins: Readonly<Record<string, PluginDefinition<never>>> = {};
