/** What the CLI knows of alerts without importing it: `flowhost --help` reads this. */
import { definePluginManifest } from '../../sdk/manifest.js';

export default definePluginManifest({
  id: 'alerts',
  cli: [
    {
      noun: 'alerts',
      describe: 'Alerts when a flow fails or recovers (the alerts plugin)',
      load: async () => (await import('./cli.js')).alertsCli,
    },
  ],
  load: async () => (await import('./index.js')).default,
});
