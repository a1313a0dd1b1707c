/**
 * `flowhost/chat`: the chat plugin's public face. The `chatTools` extension point is
 * owned by the chat plugin (plugins/chat), which offers its tools to models; any plugin
 * contributes a tool by listing the point in its `deps`:
 *
 *   import { definePlugin } from 'flowhost';
 *   import { chatTools, defineChatTool } from 'flowhost/chat';
 *   export default definePlugin({ id: 'weather', version: '1.0.0', flowhost: '^1.0.0',
 *     deps: { chatTools },
 *     setup({ chatTools }) { chatTools.add(defineChatTool({ name: 'weather', ... })); } });
 */
import { createExtensionPoint } from '../kernel/extension-point.js';
import type { ToolDefinition } from '../kernel/contributions.js';
import type { RegistryEntry } from '../kernel/registry.js';
import { createServiceRef } from '../kernel/service-ref.js';

/** A tool chat offers to models: `run(args, ctx)` answers with what the model sees. */
export type ChatToolDefinition = ToolDefinition;

/** Chat tools, keyed by `name`; owned by plugin 'chat'. Parameters are compiled at boot. */
export const chatTools = createExtensionPoint<ChatToolDefinition>({
  id: 'chat.tools',
  owner: 'chat',
  key: 'name',
  description: 'a tool the chat assistant may call',
  schemaOf: (tool) => tool.parameters,
});

/**
 * Every contributed chat tool, for another surface that serves the same abilities (the
 * MCP server): only the point's owner reads `chatTools.contributions`, so chat provides
 * this root service. Read it after boot (a route, a job); its tools check their caller
 * themselves (`ctx.user`), and the reader validates arguments against `parameters`.
 */
export interface ChatToolbox {
  /** The tools with the plugin that added each, in the order added. Throws before boot. */
  entries(): ReadonlyArray<RegistryEntry<ChatToolDefinition>>;
}

/** Provided by the chat plugin: list it in `deps` (and 'chat' in `dependsOn`). */
export const chatToolbox = createServiceRef<ChatToolbox, 'root'>({ id: 'chat.toolbox', scope: 'root' });

export { defineChatTool } from '../define.js';
