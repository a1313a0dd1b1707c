/**
 * The tools the MCP server serves to one caller: the REST tools (tool-map.ts) and every
 * contributed chat tool, each with its input schema, annotations and the permission of
 * the route it stands for. A tool whose permission the caller lacks is not listed, and a
 * call to it is refused with REST's own 403 body (docs/mcp.md, "Permissions").
 */
import {
  apiError,
  parameterValidators,
  type ApiClient,
  type CallContext,
  type ChatToolDefinition,
  type Permission,
  type Principal,
} from '../../sdk/index.js';
import type { ChatToolbox } from '../../sdk/chat/index.js';
import { mayUse, restInput, type ArgumentPlaces, type RouteLookup } from './route-lookup.js';
import { CHAT_TOOL_ROUTES, REST_TOOLS, unknownChatTool, type Annotations, type RestTool, type RouteRef } from './tool-map.js';

/** What a tools/call answers: MCP's CallToolResult. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: Annotations;
  /** The route it stands for and that route's permission. */
  standsFor: RouteRef;
  permission: Permission;
  /** Whether it is offered now (a chat tool that needs configuration says no until configured). */
  enabled(ctx: CallContext): Promise<boolean>;
  call(args: Record<string, unknown>, ctx: CallContext): Promise<ToolResult>;
}

export interface CatalogueDeps {
  api: ApiClient;
  toolbox: ChatToolbox;
  routes: RouteLookup;
  coreNamespace: string;
  /** Chat tools that always delete or reset, served only when the site lists them (settings). */
  destructiveEnabled: (name: string) => boolean;
}

/** A result the agent reads: the JSON as text, and as structured content when it is an object. */
export function resultOf(value: unknown, isError = false): ToolResult {
  const text = JSON.stringify(value ?? null);
  const structured =
    value && typeof value === 'object' && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {};
  return { content: [{ type: 'text', text }], ...structured, ...(isError ? { isError: true } : {}) };
}

/** REST's refusal (403 rest_forbidden, or 401 without a user) as a tool error. */
export function refusal(user: Principal | null): ToolResult {
  return resultOf(apiError('rest_forbidden', { user }).toBody(), true);
}

const validatorOf = parameterValidators<ChatToolDefinition>();

function restTool(spec: RestTool, deps: CatalogueDeps): McpTool {
  const route = deps.routes.find(spec.route);
  const { schema, places } = restInput(route, Object.keys(spec.fixedQuery ?? {}));
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: schema,
    annotations: spec.annotations,
    standsFor: spec.route,
    permission: route.permission,
    enabled: async () => true,
    call: (args, ctx) => callRoute(spec.route, places, args, ctx, deps, spec.fixedQuery),
  };
}

/** The request in process, as the caller: the route checks its permission and arguments itself. */
async function callRoute(
  ref: RouteRef,
  places: ArgumentPlaces,
  args: Record<string, unknown>,
  ctx: CallContext,
  deps: CatalogueDeps,
  fixedQuery: Readonly<Record<string, string>> = {},
) {
  const known = new Set([...places.params, ...places.query, ...(places.body ?? ['body'])]);
  const unknown = Object.keys(args).filter((name) => !known.has(name));
  if (unknown.length)
    return resultOf(
      apiError('rest_invalid_param', {
        message: `Unknown argument(s): ${unknown.join(', ')}`,
        data: { params: Object.fromEntries(unknown.map((n) => [n, 'is not a parameter of this tool'])) },
      }).toBody(),
      true,
    );
  const missing = places.params.filter((name) => args[name] === undefined || args[name] === null || args[name] === '');
  if (missing.length)
    return resultOf(
      apiError('rest_missing_callback_param', {
        message: `Missing parameter(s): ${missing.join(', ')}`,
        data: { params: missing },
      }).toBody(),
      true,
    );
  const path = ref.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(args[name])));
  const query: Record<string, string | number | boolean | string[]> = { ...fixedQuery };
  for (const name of places.query) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    query[name] = Array.isArray(value)
      ? value.map(String)
      : typeof value === 'object'
        ? JSON.stringify(value)
        : (value as string | number | boolean);
  }
  let body: unknown;
  if (places.body === null) body = args.body ?? {};
  else if (places.body.length) body = Object.fromEntries(places.body.filter((n) => args[n] !== undefined).map((n) => [n, args[n]]));
  const answer = await deps.api.request(ref.method, `/${ref.namespace ?? deps.coreNamespace}${path}`, {
    user: ctx.user,
    query,
    body,
    log: ctx.log,
    // A flow or pipeline changed through MCP says so in its revisions.
    client: 'mcp',
  });
  return resultOf(answer.body, answer.status >= 400);
}

function chatTool(tool: ChatToolDefinition, deps: CatalogueDeps): McpTool {
  const mapped =
    CHAT_TOOL_ROUTES[tool.name] ?? unknownChatTool(tool.name, tool.destructive !== undefined && tool.destructive !== false, tool.title);
  const annotations =
    tool.destructive && !mapped.annotations.destructiveHint
      ? { ...mapped.annotations, readOnlyHint: false, destructiveHint: true }
      : mapped.annotations;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as Record<string, unknown>,
    annotations,
    standsFor: mapped.route,
    permission: deps.routes.find(mapped.route).permission,
    async enabled(ctx) {
      if (tool.destructive === true && !deps.destructiveEnabled(tool.name)) return false;
      if (!tool.enabled) return true;
      try {
        return await tool.enabled(ctx);
      } catch (error) {
        ctx.log.warn({ tool: tool.name, err: error }, `MCP tool ${tool.name}: its enabled() check failed; not offered`);
        return false;
      }
    },
    async call(args, ctx) {
      // Validated (defaults applied) as chat validates it: the tool relies on that.
      const given = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
      const validate = validatorOf(tool);
      if (!validate(given)) {
        const issues = (validate.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`);
        return resultOf(
          apiError('rest_invalid_param', { message: `Invalid arguments for ${tool.name}: ${issues.join('; ')}` }).toBody(),
          true,
        );
      }
      try {
        return resultOf(await tool.run(given, ctx));
      } catch (error) {
        // A tool's error is its message, as chat shows it to a model (the tools write them for that).
        return resultOf({ error: error instanceof Error ? error.message : String(error) }, true);
      }
    },
  };
}

/** Every tool, REST tools first; a chat tool never shadows one (names are distinct by construction). */
export function allTools(deps: CatalogueDeps): McpTool[] {
  const tools = REST_TOOLS.map((spec) => restTool(spec, deps));
  const taken = new Set(tools.map((t) => t.name));
  for (const { item } of deps.toolbox.entries()) if (!taken.has(item.name)) tools.push(chatTool(item, deps));
  return tools;
}

/** The tools this caller may use now (their permission passes and they are enabled). */
export async function toolsFor(tools: readonly McpTool[], user: Principal, ctx: CallContext): Promise<McpTool[]> {
  const offered = await Promise.all(tools.map(async (t) => mayUse(t.permission, user) && (await t.enabled(ctx))));
  return tools.filter((_, i) => offered[i]);
}
