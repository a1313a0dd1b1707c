/** What the CLI knows of analytics without importing it: `flowhost --help` reads this. */
import { definePluginManifest } from '../../sdk/manifest.js';

export default definePluginManifest({
  id: 'analytics',
  cli: [
    {
      noun: 'analytics',
      describe: 'Analytics tools: configure them and run their reports',
      load: async () => (await import('./cli.js')).analyticsNoun,
    },
  ],
  load: async () => (await import('./index.js')).default,
});
