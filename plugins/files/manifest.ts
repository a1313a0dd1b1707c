/** What the CLI knows of the files plugin without importing it: `flowhost --help` reads this. */
import { definePluginManifest } from '../../sdk/manifest.js';

export default definePluginManifest({
  id: 'files',
  cli: [{ noun: 'files', describe: 'Uploaded files (the files plugin)', load: async () => (await import('./cli.js')).filesNoun }],
  load: async () => (await import('./index.js')).default,
});
