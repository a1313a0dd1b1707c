/**
 * `{prefix}/mcp`: the MCP server's one endpoint (Streamable HTTP, stateless). POST carries
 * a JSON-RPC message; GET (a server-to-client event stream) and DELETE (ending a session)
 * have no meaning without sessions and answer 405, which the SDK's client expects. The
 * host reads the POST body as for any route (body limit, slow-body timeout, connection
 * limits, JSON depth), authenticates the caller (application password or the local
 * credential) and refuses an anonymous one 401, as REST does; the transport's own
 * refusals (406, 415, 400 on a message that is no JSON-RPC) are JSON-RPC error bodies.
 */
import { defineSurface, json, type JsonSchema, type RouteRequest } from '../../sdk/index.js';
import { serveMcp, type McpServerDeps } from './server.js';

const open = (properties: Record<string, JsonSchema> = {}, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: true,
});

/** A JSON-RPC 2.0 error answer, as the SDK's transport writes it. */
const rpcError: JsonSchema = {
  type: 'object',
  required: ['jsonrpc', 'error', 'id'],
  properties: {
    jsonrpc: { const: '2.0' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
      additionalProperties: false,
    },
    id: { type: ['string', 'integer', 'null'] },
  },
  additionalProperties: false,
};

const rpcAnswer: JsonSchema = {
  ...open({ jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, result: open(), error: open() }, ['jsonrpc', 'id']),
  description: 'A JSON-RPC 2.0 response: `result` (tools/list, tools/call, initialize...) or `error`',
};

/** GET and DELETE: no sessions, so no stream to open and none to end. */
const notAllowed = () =>
  json(
    405,
    {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST.' },
      id: null,
    },
    { Allow: 'POST' },
  );

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
        summary,
        description:
          "A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call...). Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`; the answer is JSON. Tools are listed and run with the caller's rights: docs/mcp.md.",
        schema: {
          body: { type: 'object', description: 'A JSON-RPC 2.0 request or notification' },
          responses: {
            200: rpcAnswer,
            202: { type: 'null', description: 'A notification, accepted' },
            400: rpcError,
            406: rpcError,
            415: rpcError,
          },
        },
        async handle(request: RouteRequest) {
          const answer = await serveMcp(request, deps);
          const { 'content-type': _type, ...headers } = answer.headers;
          return json(answer.status, answer.text ? (JSON.parse(answer.text) as unknown) : null, headers);
        },
      },
      { method: 'GET', path: '/', permission: 'authenticated', summary, schema: { responses: { 405: rpcError } }, handle: notAllowed },
      { method: 'DELETE', path: '/', permission: 'authenticated', summary, schema: { responses: { 405: rpcError } }, handle: notAllowed },
    ],
  });
}
