/**
 * /mcp-servers (manage_options): register, list, change and remove external MCP servers,
 * and list a server's tools live. Secrets are answered masked; the name is the id.
 */
import { defineRoute, defineSurface, errorBody, reply, successBody, type SurfaceDefinition } from '../../sdk/index.js';
import type { ToolCatalogue } from './catalogue.js';
import { mcpClientError } from './errors.js';
import { serverView, type McpServers, type ServerInput } from './servers.js';

const MANAGE = { capability: 'manage_options' } as const;
const NAME = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,39}$', description: 'lower-case letters, digits, _ and -; the id' } as const;
const TOOL_NAME = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_./-]+$' } as const;
const SECRET = { type: 'string', minLength: 1, maxLength: 4096, pattern: '^[^\\r\\n]+$' } as const;

const auth = {
  oneOf: [
    { type: 'object', required: ['type'], additionalProperties: false, properties: { type: { const: 'none' } } },
    { type: 'object', required: ['type', 'token'], additionalProperties: false, properties: { type: { const: 'bearer' }, token: SECRET } },
    {
      type: 'object',
      required: ['type', 'header', 'value'],
      additionalProperties: false,
      properties: { type: { const: 'header' }, header: { type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$" }, value: SECRET },
    },
  ],
} as const;

const fields = {
  url: { type: 'string', minLength: 8, maxLength: 2048, pattern: '^https?://' },
  auth,
  allowed_tools: { type: 'array', maxItems: 200, items: TOOL_NAME },
  chat: { type: 'boolean' },
  timeout_ms: { type: 'integer', minimum: 1000, maximum: 120_000 },
} as const;

const createBody = {
  type: 'object',
  required: ['name', 'url'],
  additionalProperties: false,
  properties: { name: NAME, ...fields },
} as const;
const patchBody = { type: 'object', additionalProperties: false, minProperties: 1, properties: fields } as const;
const nameParams = { type: 'object', required: ['name'], properties: { name: NAME } } as const;

const serverSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    url: { type: 'string' },
    auth: { type: 'object', additionalProperties: true, properties: { type: { enum: ['none', 'bearer', 'header'] } } },
    allowed_tools: { type: 'array', items: { type: 'string' } },
    chat: { type: 'boolean' },
    timeout_ms: { type: 'integer' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;
const toolsSchema = {
  type: 'object',
  properties: {
    server: { type: 'string' },
    tools: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          input_schema: { type: 'object', additionalProperties: true },
          allowed: { type: 'boolean' },
        },
      },
    },
  },
} as const;
const one = successBody({ data: serverSchema });
const notFound = errorBody('mcp_server_not_found');
const invalid = errorBody('mcp_server_invalid');

export function mcpServersSurface(servers: McpServers, catalogue: ToolCatalogue): SurfaceDefinition {
  return defineSurface({
    id: 'mcp-servers',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/mcp-servers',
        permission: MANAGE,
        summary: 'The registered MCP servers (secrets masked)',
        schema: { responses: { 200: successBody({ data: { type: 'array', items: serverSchema } }) } },
        async handle() {
          return { success: true, data: (await servers.list()).map(serverView) };
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/mcp-servers',
        permission: MANAGE,
        summary: 'Registers an MCP server (Streamable HTTP) with its auth, sealed, and the tools that may be used',
        schema: { body: createBody, responses: { 201: one, 400: invalid, 409: errorBody('mcp_server_exists') } },
        async handle(request) {
          const body = request.body as ServerInput & { name: string; url: string };
          return reply(201, { success: true, data: serverView(await servers.create(body)) });
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/mcp-servers/{name}',
        permission: MANAGE,
        summary: 'One MCP server (secret masked)',
        schema: { params: nameParams, responses: { 200: one, 404: notFound } },
        async handle(request) {
          return { success: true, data: serverView(await servers.get(request.params.name)) };
        },
      }),
      defineRoute({
        method: 'PATCH',
        path: '/mcp-servers/{name}',
        permission: MANAGE,
        summary: "Changes an MCP server's given fields (auth replaced whole; its masked secret sent back keeps the stored one)",
        schema: { params: nameParams, body: patchBody, responses: { 200: one, 400: invalid, 404: notFound } },
        async handle(request) {
          return { success: true, data: serverView(await servers.update(request.params.name, request.body as ServerInput)) };
        },
      }),
      defineRoute({
        method: 'DELETE',
        path: '/mcp-servers/{name}',
        permission: MANAGE,
        summary: 'Removes an MCP server (steps naming its tools then fail, naming it)',
        schema: { params: nameParams, responses: { 200: one, 404: notFound } },
        async handle(request) {
          return { success: true, data: serverView(await servers.remove(request.params.name)) };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/mcp-servers/{name}/tools',
        permission: MANAGE,
        summary: 'The tools the server lists now, each with its input schema and whether the allow-list lets it be used',
        schema: {
          params: nameParams,
          responses: { 200: successBody({ data: toolsSchema }), 404: notFound, 502: errorBody('mcp_remote_failed') },
        },
        async handle(request) {
          const doc = await servers.get(request.params.name);
          let listed;
          try {
            listed = await catalogue.listed(doc);
          } catch (error) {
            throw mcpClientError('mcp_remote_failed', { message: (error as Error).message, data: { name: doc.name } });
          }
          const tools = listed.map((t) => ({
            name: t.name,
            description: t.description ?? '',
            input_schema: t.inputSchema,
            allowed: doc.allowed_tools.includes(t.name),
          }));
          return { success: true, data: { server: doc.name, tools } };
        },
      }),
    ],
  });
}
