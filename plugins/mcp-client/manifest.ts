/** What the CLI knows of the MCP client without importing it: `flowhost --help` reads this. */
import { definePluginManifest } from '../../sdk/manifest.js';

export default definePluginManifest({
  id: 'mcp-client',
  cli: [
    {
      noun: 'mcp-servers',
      describe: 'External MCP servers whose tools the ai step and chat may use (the mcp-client plugin)',
      load: async () => (await import('./cli.js')).mcpServersNoun,
    },
  ],
  load: async () => (await import('./index.js')).default,
});
