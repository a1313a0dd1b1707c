// A fake MCP server on 127.0.0.1 built with the official SDK's low-level Server and its
// stateless Streamable HTTP transport on a plain node:http server. It records what it
// receives (the JSON-RPC method, the tool and its arguments, the Authorization and other
// headers) and can fail a tools/call the ways a remote does: a 500, a dropped connection,
// an answer that never comes.
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface ReceivedRequest {
  method: string;
  headers: IncomingMessage['headers'];
  /** JSON-RPC method (initialize, tools/list, tools/call...). */
  rpc: string | null;
}

export interface ToolCallReceived {
  name: string;
  args: Record<string, unknown>;
  authorization: string | undefined;
  headers: IncomingMessage['headers'];
}

export type CallFailure = 'none' | '500' | 'drop' | 'hang';

export interface FakeMcpServer {
  url: string;
  requests: ReceivedRequest[];
  calls: ToolCallReceived[];
  /** How the next tools/call requests fail ('none': they succeed). */
  failCalls: CallFailure;
  close(): Promise<void>;
}

const TOOLS = [
  {
    name: 'search',
    description: 'Searches the archive.',
    inputSchema: {
      type: 'object' as const,
      properties: { query: { type: 'string' }, limit: { type: 'integer' } },
      required: ['query'],
    },
  },
  { name: 'delete_all', description: 'Deletes everything.', inputSchema: { type: 'object' as const, properties: {} } },
];

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw ? JSON.parse(raw) : undefined;
}

export async function startFakeMcpServer(): Promise<FakeMcpServer> {
  const fake: Partial<FakeMcpServer> & { requests: ReceivedRequest[]; calls: ToolCallReceived[]; failCalls: CallFailure } = {
    requests: [],
    calls: [],
    failCalls: 'none',
  };
  const hanging = new Set<import('node:http').ServerResponse>();
  const http: HttpServer = createServer(async (req, res) => {
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const rpc = body && typeof body === 'object' && 'method' in body ? String((body as { method: unknown }).method) : null;
    fake.requests.push({ method: req.method ?? '', headers: req.headers, rpc });
    if (rpc === 'tools/call' && fake.failCalls !== 'none') {
      if (fake.failCalls === '500') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded');
      if (fake.failCalls === 'drop') return void req.socket.destroy();
      hanging.add(res);
      return;
    }
    const server = new Server({ name: 'fake-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      fake.calls.push({ name: request.params.name, args, authorization: req.headers.authorization, headers: req.headers });
      if (request.params.name === 'search')
        return { content: [{ type: 'text', text: `3 results for ${String(args.query)}: tides, rivers, rain` }] };
      return { content: [{ type: 'text', text: 'deleted everything' }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  fake.close = async () => {
    for (const res of hanging) res.destroy();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };
  return fake as FakeMcpServer;
}
