import type { PluginManifest } from '../sdk/manifest.js';
import alerts from './alerts/manifest.js';
import analytics from './analytics/manifest.js';
import billing from './billing/manifest.js';
import docsync from './docsync/manifest.js';
import files from './files/manifest.js';
import mcpClient from './mcp-client/manifest.js';

/**
 * The built-in plugins as manifests: what the CLI reads to list the plugin nouns without
 * importing any plugin (plugins/index.ts imports them all, with their libraries). The
 * lists match plugins/index.ts entry for entry, in the same order (test/plugins/manifests
 * checks it); a plugin with CLI nouns declares them in its own manifest.ts.
 */
export const defaultManifests: ReadonlyArray<PluginManifest> = [
  { id: 'discovery', load: async () => (await import('./discovery/index.js')).default },
  { id: 'intervals-core', load: async () => (await import('./intervals-core/index.js')).default },
  { id: 'steps-core', load: async () => (await import('./steps-core/index.js')).default },
  { id: 'rss', load: async () => (await import('./rss/index.js')).default },
  { id: 'webhook-items', load: async () => (await import('./webhook-items/index.js')).default },
  { id: 'cms', load: async () => (await import('./cms/index.js')).default },
  { id: 'microblog', load: async () => (await import('./microblog/index.js')).default },
  { id: 'social', load: async () => (await import('./social/index.js')).default },
  { id: 'forum', load: async () => (await import('./forum/index.js')).default },
  { id: 'spreadsheet', load: async () => (await import('./spreadsheet/index.js')).default },
  { id: 'federated', load: async () => (await import('./federated/index.js')).default },
  files,
  { id: 'provider-openai', load: async () => (await import('./provider-openai/index.js')).default },
  { id: 'provider-anthropic', load: async () => (await import('./provider-anthropic/index.js')).default },
  { id: 'provider-gemini', load: async () => (await import('./provider-gemini/index.js')).default },
  { id: 'provider-xai', load: async () => (await import('./provider-xai/index.js')).default },
  { id: 'provider-openrouter', load: async () => (await import('./provider-openrouter/index.js')).default },
  { id: 'chat', load: async () => (await import('./chat/index.js')).default },
  { id: 'global-tools', load: async () => (await import('./global-tools/index.js')).default },
  { id: 'mcp', load: async () => (await import('./mcp/index.js')).default },
  { id: 'metrics', load: async () => (await import('./metrics/index.js')).default },
  billing,
  analytics,
  { id: 'analytics-search-stats', load: async () => (await import('./analytics-search-stats/index.js')).default },
  { id: 'analytics-crawler-stats', load: async () => (await import('./analytics-crawler-stats/index.js')).default },
  { id: 'analytics-site-analytics', load: async () => (await import('./analytics-site-analytics/index.js')).default },
  { id: 'analytics-page-performance', load: async () => (await import('./analytics-page-performance/index.js')).default },
  { id: 'events', load: async () => (await import('./events/index.js')).default },
  docsync,
  { id: 'console', load: async () => (await import('./console/index.js')).default },
  mcpClient,
];

/** The optional built-ins by id, as plugins/index.ts `optionalPlugins`. */
export const optionalManifests: Readonly<Record<string, PluginManifest>> = {
  'webhook-presets': { id: 'webhook-presets', load: async () => (await import('./webhook-presets/index.js')).default },
  alerts,
};
