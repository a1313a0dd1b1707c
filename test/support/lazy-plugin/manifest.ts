/**
 * A plugin given to FLOWHOST_PLUGINS as a manifest, for the manifest tests: its command
 * module refuses to load for a command that does not name its noun, so a CLI that imports
 * it for `--help` or for another noun fails loudly.
 */
import { definePluginManifest } from '../../../sdk/manifest.js';

export default definePluginManifest({
  id: 'lazy-fixture',
  cli: [
    { noun: 'lazy-fixture', describe: 'A noun whose commands load only when named', load: async () => (await import('./cli.js')).lazyNoun },
  ],
  load: async () => (await import('./index.js')).default,
});
