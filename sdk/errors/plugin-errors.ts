/**
 * A plugin's own error codes, declared as the core declares its own: once, with status and
 * default message, and thrown through the typed factory this returns. A plugin reuses the
 * core's codes (`rest_invalid_param`, `rest_forbidden`...) through `apiError`; declaring one
 * of them again is refused, so a code cannot get a second status from a plugin.
 */
import { PluginError } from '../errors.js';
import { apiError } from './catalogue.js';
import { defineErrors, type ErrorEntries, type ErrorFactory } from './define-errors.js';

export function definePluginErrors<const E extends ErrorEntries>(pluginId: string, entries: E): ErrorFactory<E> {
  const taken = Object.keys(entries).filter((code) => Object.hasOwn(apiError.entries, code));
  if (taken.length) {
    throw new PluginError(
      pluginId,
      `declares the core error code(s) ${taken.join(', ')}: throw them with apiError(...) instead of declaring them again`,
    );
  }
  return defineErrors(pluginId, entries);
}
