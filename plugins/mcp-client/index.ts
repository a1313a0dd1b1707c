/**
 * MCP client: an administrator registers external MCP servers (Streamable HTTP; auth sealed,
 * answered masked; an allow-list of tools), and the ai step (step setting `mcp_tools`) and
 * the chat assistant (servers with `chat: true`) may call the allowed tools. Every request
 * goes through the guarded fetch. Built on the public SDK only. docs/mcp.md.
 */
import { aiToolSources } from '../../sdk/ai/index.js';
import { chatTools } from '../../sdk/chat/index.js';
import { definePlugin, services } from '../../sdk/index.js';
import { ToolCatalogue } from './catalogue.js';
import { mcpServersNoun } from './cli.js';
import { mcpServersSurface } from './routes.js';
import { McpServers, type ServerDoc } from './servers.js';
import { aiToolSource, mcpChatTools } from './tools.js';

export interface McpClientSettings {
  /** The capability a chat user needs to use MCP tools. */
  chat_capability: string;
}

export default definePlugin({
  id: 'mcp-client',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'External MCP servers whose allow-listed tools the ai step and the chat assistant may call.',
  settingsSchema: {
    type: 'object',
    properties: { chat_capability: { type: 'string', minLength: 1, maxLength: 100, default: 'manage_options' } },
    additionalProperties: false,
  },
  deps: {
    routes: services.routes,
    store: services.store,
    vault: services.vault,
    clock: services.clock,
    fetch: services.fetch,
    config: services.configOf<McpClientSettings>(),
    // Both work without their owner: a build without chat (or the ai step) still has the rest.
    toolSources: aiToolSources.optional,
    chatTools: chatTools.optional,
  },
  setup({ routes, store, vault, clock, fetch, config, toolSources, chatTools }) {
    const servers = new McpServers(store.collection<ServerDoc>('servers'), vault, clock);
    const catalogue = new ToolCatalogue(servers, fetch);
    toolSources.add(aiToolSource(catalogue));
    const anyForChat = async () => (await servers.list()).some((s) => s.chat && s.allowed_tools.length > 0);
    for (const tool of mcpChatTools(catalogue, () => config.chat_capability, anyForChat)) chatTools.add(tool);
    routes.add(mcpServersSurface(servers, catalogue));
  },
  cli: [mcpServersNoun],
});
