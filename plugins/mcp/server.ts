/**
 * One MCP request, stateless: a new low-level `Server` and a web-standard Streamable HTTP
 * transport per POST (no session id, JSON answers rather than an event stream), fed the
 * body the host already read, limited and decoded. The SDK is loaded on the first request:
 * a host that never serves MCP does not pay for loading it at start.
 */
import { actingUserOf, type CallContext, type Clock, type GuardedFetch, type RouteRequest } from '../../sdk/index.js';
import { refusal, toolsFor, type McpTool } from './catalogue.js';

/** What the transport answered: status, headers, body text (empty for 202). */
export interface McpAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

type Sdk = {
  Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server;
  Transport: typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js').WebStandardStreamableHTTPServerTransport;
  types: typeof import('@modelcontextprotocol/sdk/types.js');
};
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, transport, types]) => ({
    Server: server.Server,
    Transport: transport.WebStandardStreamableHTTPServerTransport,
    types,
  })));

const PASSED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const;

export interface McpServerDeps {
  tools: () => readonly McpTool[];
  version: string;
  clock: Clock;
  fetch: GuardedFetch;
}

export async function serveMcp(request: RouteRequest, deps: McpServerDeps): Promise<McpAnswer> {
  const { Server, Transport, types } = await loadSdk();
  const user = request.user!; // the route's permission is 'authenticated'
  // `client`: what chat's tools change or run says an MCP agent did it (revisions, job source).
  const ctx: CallContext = { user: actingUserOf(user), log: request.log, clock: deps.clock, fetch: deps.fetch, client: 'mcp' };
  const all = deps.tools();
  const server = new Server({ name: 'flowhost', version: deps.version }, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: (await toolsFor(all, user, ctx)).map((tool) => ({
      name: tool.name,
      title: tool.annotations.title,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object' },
      annotations: tool.annotations,
    })),
  }));
  server.setRequestHandler(types.CallToolRequestSchema, async (call) => {
    const tool = all.find((t) => t.name === call.params.name);
    if (!tool || !(await tool.enabled(ctx))) throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
    // The permission of the route it stands for, checked as REST checks it (same 403 body).
    if (!(await toolsFor([tool], user, ctx)).length) return refusal(user);
    return tool.call(call.params.arguments ?? {}, ctx);
  });
  const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    // Only what the transport reads: the body is already read, framing headers would lie.
    const headers = new Headers();
    for (const name of PASSED_HEADERS) {
      const value = request.headers[name];
      if (value !== undefined) headers.set(name, value);
    }
    const answer = await transport.handleRequest(new Request('http://mcp.invalid/mcp', { method: 'POST', headers }), {
      parsedBody: request.body,
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length') out[name] = value;
    });
    return { status: answer.status, headers: out, text: await answer.text() };
  } finally {
    await server.close();
  }
}
