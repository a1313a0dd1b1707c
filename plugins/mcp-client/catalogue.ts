/**
 * The allow-listed remote tools, as the ai step and the chat assistant use them: a name
 * `server/tool` is usable only when the server is registered, the tool is on its allow-list
 * and the server lists it now (its input schema comes from that listing).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { GuardedFetch, JsonSchema, JsonValue } from '../../sdk/index.js';
import { callRemoteTool, listRemoteTools, type RemoteTarget } from './remote.js';
import { toolOutput } from './result.js';
import type { McpServers, ServerDoc } from './servers.js';

/** One usable tool. */
export interface CatalogueTool {
  /** `server/tool`. */
  label: string;
  server: string;
  tool: string;
  description: string;
  parameters: JsonSchema;
  call(args: Record<string, unknown>): Promise<{ [key: string]: JsonValue }>;
}

/** `server/tool` split at its first slash, or null. */
export function parseToolName(name: string): { server: string; tool: string } | null {
  const at = name.indexOf('/');
  if (at < 1 || at === name.length - 1) return null;
  return { server: name.slice(0, at), tool: name.slice(at + 1) };
}

export class ToolCatalogue {
  constructor(
    private readonly servers: McpServers,
    private readonly fetch: GuardedFetch,
  ) {}

  target(doc: ServerDoc): RemoteTarget {
    return {
      name: doc.name,
      url: doc.url,
      headers: this.servers.headersOf(doc),
      timeoutMs: doc.timeout_ms,
      secret: this.servers.secretOf(doc),
    };
  }

  /** What the server lists now; a failure names the server. */
  async listed(doc: ServerDoc): Promise<Tool[]> {
    try {
      return await listRemoteTools(this.fetch, this.target(doc));
    } catch (error) {
      throw new Error(`MCP server '${doc.name}' could not list its tools: ${(error as Error).message}`);
    }
  }

  /**
   * The named tools, each checked; throws naming the first that may not be used. `only`
   * narrows the servers (the chat uses those with `chat` on).
   */
  async resolve(names: readonly string[], only: (doc: ServerDoc) => boolean = () => true): Promise<CatalogueTool[]> {
    const wanted = new Map<string, string[]>();
    for (const name of new Set(names)) {
      const parsed = parseToolName(name);
      if (!parsed) throw new Error(`'${name}' is not an MCP tool name (server/tool)`);
      wanted.set(parsed.server, [...(wanted.get(parsed.server) ?? []), parsed.tool]);
    }
    const out: CatalogueTool[] = [];
    for (const [server, tools] of wanted) {
      const doc = await this.servers.get(server).catch(() => null);
      if (!doc || !only(doc)) throw new Error(`MCP server '${server}' is not registered${doc ? ' for this use' : ''}`);
      const refused = tools.filter((t) => !doc.allowed_tools.includes(t));
      if (refused.length)
        throw new Error(
          `MCP tool ${refused.map((t) => `'${server}/${t}'`).join(', ')} is not on the allow-list of server '${server}' (allowed: ${doc.allowed_tools.join(', ') || 'none'})`,
        );
      const listed = await this.listed(doc);
      for (const tool of tools) {
        const found = listed.find((t) => t.name === tool);
        if (!found) throw new Error(`MCP server '${server}' does not offer a tool '${tool}' now`);
        out.push(this.usable(doc, found));
      }
    }
    return out;
  }

  /** Every allow-listed tool of the servers `only` keeps that the servers list now (a server that fails is left out). */
  async allowed(only: (doc: ServerDoc) => boolean): Promise<CatalogueTool[]> {
    const out: CatalogueTool[] = [];
    for (const doc of (await this.servers.list()).filter(only)) {
      const listed = await this.listed(doc).catch(() => []);
      for (const tool of listed) if (doc.allowed_tools.includes(tool.name)) out.push(this.usable(doc, tool));
    }
    return out;
  }

  private usable(doc: ServerDoc, tool: Tool): CatalogueTool {
    const label = `${doc.name}/${tool.name}`;
    return {
      label,
      server: doc.name,
      tool: tool.name,
      description: tool.description ?? tool.title ?? label,
      parameters: tool.inputSchema as JsonSchema,
      call: async (args) => {
        try {
          return toolOutput(await callRemoteTool(this.fetch, this.target(doc), tool.name, args));
        } catch (error) {
          throw new Error(`MCP server '${doc.name}' failed on ${tool.name}: ${(error as Error).message}`);
        }
      },
    };
  }
}
