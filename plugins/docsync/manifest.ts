/** What the CLI knows of docsync without importing it: `flowhost --help` reads this, not index.ts. */
import { definePluginManifest } from '../../sdk/manifest.js';

export default definePluginManifest({
  id: 'docsync',
  cli: [
    {
      noun: 'project',
      describe: 'Documentation projects (the project taxonomy)',
      load: async () => (await import('./cli.js')).projectNoun,
    },
    { noun: 'docs', describe: 'Documentation sync from the source-hosting service', load: async () => (await import('./cli.js')).docsNoun },
  ],
  load: async () => (await import('./index.js')).default,
});
