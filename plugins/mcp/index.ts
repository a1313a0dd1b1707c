/**
 * MCP: Flowhost's abilities served to AI agents as Model Context Protocol tools at
 * `{prefix}/mcp` (Streamable HTTP, stateless), with the official SDK. The tools are the
 * chat assistant's when chat is loaded (every `chat.tools` contribution, read through
 * chat's toolbox) and the
 * admin operations chat has none for, each standing for a REST route whose permission it
 * checks (tool-map.ts, docs/mcp.md).
 */
import { definePlugin, optionalService, services } from '../../sdk/index.js';
import { chatToolbox } from '../../sdk/chat/index.js';
import { allTools, type McpTool } from './catalogue.js';
import { routeLookup } from './route-lookup.js';
import { mcpSurface } from './surface.js';

export interface McpSettings {
  /** Chat tools that always delete or reset (docsync_reset_docs) served over MCP; default none. */
  destructive_chat_tools?: string[];
}

export default definePlugin({
  id: 'mcp',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description:
    "MCP server: the chat tools and the admin operations as Model Context Protocol tools at {prefix}/mcp, with the caller's rights.",
  settingsSchema: {
    type: 'object',
    properties: {
      destructive_chat_tools: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true, default: [] },
    },
  },
  deps: {
    routes: services.routes,
    // Chat's tools when chat is loaded; a build without chat serves the admin tools alone.
    toolbox: optionalService(chatToolbox, () => ({ entries: () => [] })),
    api: services.api,
    registries: services.registries,
    hostInfo: services.hostInfo,
    clock: services.clock,
    fetch: services.fetch,
    config: services.configOf<McpSettings>(),
  },
  setup({ routes, toolbox, api, registries, hostInfo, clock, fetch, config }) {
    const lookup = routeLookup(registries);
    // Built on the first request (the route table is complete only after every setup), then kept.
    let tools: McpTool[] | undefined;
    const destructiveEnabled = (name: string) => (config.destructive_chat_tools ?? []).includes(name);
    routes.add(
      mcpSurface({
        tools: () => (tools ??= allTools({ api, toolbox, routes: lookup, coreNamespace: hostInfo.coreNamespace, destructiveEnabled })),
        version: hostInfo.version,
        clock,
        fetch,
      }),
    );
  },
});
