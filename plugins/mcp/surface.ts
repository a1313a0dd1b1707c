/**
 * `{prefix}/mcp`: the MCP server's one endpoint (Streamable HTTP, stateless). POST carries
 * a JSON-RPC message; GET (a server-to-client event stream) and DELETE (ending a session)
 * have no meaning without sessions and answer 405, which the SDK's client expects. The
 * host reads the POST body as for any route (body limit, slow-body timeout, connection
 * limits, JSON depth), authenticates the caller (an application password with Basic or as
 * a bearer token, or the local credential) and refuses an anonymous one 401, as REST does
 * but with a `WWW-Authenticate` challenge (`challenge: true`); the transport's own
 * refusals (406, 415, 400 on a message that is no JSON-RPC) are Flowhost error bodies too
 * (errors.ts), the JSON-RPC error kept in `data.jsonrpc`.
 */
import { defineSurface, errorBody, json, type JsonSchema, type RouteRequest } from '../../sdk/index.js';
import { mcpError } from './errors.js';
import { serveMcp, type McpServerDeps } from './server.js';

const open = (properties: Record<string, JsonSchema> = {}, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: true,
});

const rpcAnswer: JsonSchema = {
  ...open({ jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, result: open(), error: open() }, ['jsonrpc', 'id']),
  description: 'A JSON-RPC 2.0 response: `result` (tools/list, tools/call, initialize...) or `error`',
};

/** The transport's refusals by status, as Flowhost errors (the JSON-RPC error kept in data). */
const REFUSALS = {
  400: 'mcp_invalid_message',
  406: 'mcp_not_acceptable',
  415: 'mcp_unsupported_media_type',
} as const;

function refused(status: number, text: string) {
  const code = REFUSALS[status as keyof typeof REFUSALS] ?? 'mcp_invalid_message';
  let jsonrpc: unknown = null;
  try {
    jsonrpc = (JSON.parse(text) as { error?: unknown }).error ?? null;
  } catch {
    // no JSON-RPC error to keep
  }
  return mcpError(code, { data: { jsonrpc } });
}

/** GET and DELETE: no sessions, so no stream to open and none to end. */
const notAllowed = () => {
  throw mcpError('mcp_method_not_allowed', { headers: { Allow: 'POST' } });
};

export function mcpSurface(deps: McpServerDeps) {
  const summary = 'MCP server (Streamable HTTP, stateless)';
  return defineSurface({
    id: 'mcp',
    namespace: 'mcp',
    routes: [
      {
        method: 'POST',
        path: '/',
        permission: 'authenticated',
        // Anonymous: 401 with both challenges (MCP clients read it to know how to authenticate).
        challenge: true,
        summary,
        description:
          "A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call...). Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`; the answer is JSON. Tools are listed and run with the caller's rights: docs/mcp.md.",
        schema: {
          body: { type: 'object', description: 'A JSON-RPC 2.0 request or notification' },
          responses: {
            200: rpcAnswer,
            202: { type: 'null', description: 'A notification, accepted' },
            400: errorBody('mcp_invalid_message'),
            406: errorBody('mcp_not_acceptable'),
            415: errorBody('mcp_unsupported_media_type'),
          },
        },
        async handle(request: RouteRequest) {
          const answer = await serveMcp(request, deps);
          if (answer.status >= 400) throw refused(answer.status, answer.text);
          const { 'content-type': _type, ...headers } = answer.headers;
          return json(answer.status, answer.text ? (JSON.parse(answer.text) as unknown) : null, headers);
        },
      },
      // Both only refuse: without sessions there is no stream to open and none to end.
      ...(['GET', 'DELETE'] as const).map((method) => ({
        method,
        path: '/',
        permission: 'authenticated' as const,
        challenge: true,
        summary,
        openapi: false as const,
        schema: { responses: { 405: errorBody('mcp_method_not_allowed') } },
        handle: notAllowed,
      })),
    ],
  });
}
