/**
 * The remote tools offered to models: to the ai step through `ai.toolSources` (the step
 * setting `mcp_tools`), to the chat assistant as two chat tools, `mcp_tools` (what may be
 * called, with input schemas) and `mcp_call` (call one). Chat sees only servers registered
 * with `chat: true`, and only a user with the configured capability (manage_options unless
 * the plugin setting says otherwise) may use them.
 */
import type { AiStepTool, AiToolSource } from '../../sdk/ai/index.js';
import { defineChatTool, type CallContext, type ChatToolDefinition } from '../../sdk/index.js';
import { parseToolName, type CatalogueTool, type ToolCatalogue } from './catalogue.js';

/** A name every provider accepts: letters, digits, `_` and `-`, at most 64 characters, unique in the step. */
function modelName(tool: CatalogueTool, taken: Set<string>): string {
  const base = `${tool.server}__${tool.tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 60 - String(n).length)}_${n}`;
  taken.add(name);
  return name;
}

export function aiToolSource(catalogue: ToolCatalogue): AiToolSource {
  return {
    setting: 'mcp_tools',
    async resolve(names) {
      const taken = new Set<string>();
      return (await catalogue.resolve(names)).map(
        (tool): AiStepTool => ({
          name: modelName(tool, taken),
          label: tool.label,
          description: tool.description,
          parameters: tool.parameters,
          run: (args) => tool.call(args),
        }),
      );
    },
  };
}

const forChat = (doc: { chat: boolean }) => doc.chat;

export function mcpChatTools(catalogue: ToolCatalogue, capability: () => string, anyForChat: () => Promise<boolean>): ChatToolDefinition[] {
  const may = (ctx: CallContext) => Boolean(ctx.user?.can(capability()));
  // Offered only to a user who may use them, once a server is registered for chat.
  const offered = async (ctx: CallContext) => may(ctx) && (await anyForChat());
  const require = (ctx: CallContext, name: string) => {
    if (!may(ctx))
      throw new Error(
        `${name} needs the ${capability()} capability, which ${ctx.user ? `user ${ctx.user.login}` : 'this caller'} does not have`,
      );
  };
  const list = defineChatTool({
    name: 'mcp_tools',
    title: 'List external MCP tools',
    description:
      'Lists the tools of external MCP servers you may call with mcp_call: each name (server/tool), what it does and its input JSON schema.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    enabled: offered,
    async run(_args, ctx) {
      require(ctx, 'mcp_tools');
      const tools = await catalogue.allowed(forChat);
      return { tools: tools.map((t) => ({ name: t.label, description: t.description, input_schema: t.parameters })) };
    },
  });
  const call = defineChatTool({
    name: 'mcp_call',
    title: 'Call an external MCP tool',
    description: 'Calls a tool of an external MCP server (names from mcp_tools, as server/tool) with its arguments.',
    parameters: {
      type: 'object',
      required: ['tool'],
      additionalProperties: false,
      properties: {
        tool: { type: 'string', minLength: 3, maxLength: 200, description: 'server/tool, as mcp_tools lists it' },
        arguments: { type: 'object', description: "The tool's arguments, per its input schema" },
      },
    },
    enabled: offered,
    async run(args, ctx) {
      require(ctx, 'mcp_call');
      const name = String(args.tool);
      if (!parseToolName(name)) throw new Error(`'${name}' is not an MCP tool name (server/tool)`);
      const [tool] = await catalogue.resolve([name], forChat);
      return tool!.call((args.arguments as Record<string, unknown> | undefined) ?? {});
    },
  });
  return [list, call];
}
