/**
 * POST /analytics/{tool} (spec 02, "Analytics"): dispatches to the registered analytics
 * tool of that name and answers its result untransformed. The spec's four keep its rules
 * (manage_options; a named one whose plugin is not loaded is 500 `ability_not_found`); a
 * plugin's own tool answers at its name with its declared permission and parameters. A
 * name no tool answers is 400 `invalid_tool`.
 */
import {
  actingUserOf,
  defineSurface,
  errorBody,
  isApiError,
  type Clock,
  type ExtensionPointContributions,
  type GuardedFetch,
  type JsonSchema,
  type SurfaceDefinition,
} from '../../sdk/index.js';
import { remoteFailure, scrub, analyticsError, type AnalyticsToolDefinition } from '../../sdk/analytics/index.js';
import { checkArguments } from './validate.js';
import { mayCall, resolveTool, toolNames } from './resolve.js';
import { defineRoute } from '../../sdk/define.js';

const resultBody: JsonSchema = {
  type: 'object',
  required: ['success', 'action', 'results_count', 'results'],
  properties: {
    success: { const: true },
    action: { type: 'string' },
    results_count: { type: 'integer', minimum: 0 },
    // Rows are the remote service's, as sent: their fields are not ours to close.
    results: { type: 'array', items: { type: ['object', 'array', 'string', 'number', 'boolean', 'null'], additionalProperties: true } },
  },
  // Each tool adds its own fields (site_url, dates, headers...).
  additionalProperties: true,
};

/** The statuses this route declares for analytics_error: anything else a tool throws becomes 502. */
const DECLARED_STATUSES = new Set([400, 422, 502]);

export function analyticsSurface(
  tools: ExtensionPointContributions<AnalyticsToolDefinition>,
  clock: Clock,
  fetch: GuardedFetch,
): SurfaceDefinition {
  return defineSurface({
    id: 'analytics',
    routes: [
      defineRoute({
        method: 'POST',
        path: '/analytics/{tool}',
        permission: {
          check: (request) => mayCall(tools, request),
          description: "manage_options; a plugin's own tool: the permission it declares (default manage_options)",
        },
        summary:
          "Runs an action of an analytics tool (search-stats, crawler-stats, site-analytics, page-performance, or a plugin's own tool)",
        schema: {
          params: {
            type: 'object',
            required: ['tool'],
            properties: {
              tool: {
                type: 'string',
                maxLength: 64,
                description: "search-stats, crawler-stats, site-analytics, page-performance, or a plugin's own tool",
              },
            },
          },
          // The tool's own schema checks the fields (so a bad one is an analytics_error listing the actions).
          body: { type: 'object', maxProperties: 32, additionalProperties: true },
          responses: {
            200: resultBody,
            400: errorBody('invalid_tool', 'analytics_error'),
            422: errorBody('analytics_error'),
            500: errorBody('ability_not_found'),
            502: errorBody('analytics_error'),
          },
        },
        async handle(request) {
          const id = String(request.params.tool);
          const resolved = resolveTool(tools, id);
          if (!resolved)
            throw analyticsError('invalid_tool', {
              message: `Unknown analytics tool '${id.slice(0, 64)}'. Tools: ${toolNames(tools).join(', ')}.`,
            });
          const { ref: entry, tool } = resolved;
          if (!tool)
            throw analyticsError('ability_not_found', {
              message: `The ${id} analytics tool is not available: its plugin (analytics-${id}) is not loaded in this build.`,
            });
          const body = (request.body ?? {}) as Record<string, unknown>;
          checkArguments(entry, tool, body);
          try {
            return (await tool.run(body, { user: actingUserOf(request.user), log: request.log, clock, fetch })) as Record<string, unknown>;
          } catch (error) {
            if (isApiError(error) && error.code === 'analytics_error' && DECLARED_STATUSES.has(error.status)) throw error;
            // A tool that fails otherwise (a third party's, a bug) still answers the spec's
            // code, its message stripped of URLs and key=… values like a remote's.
            const message = scrub(String((error as Error)?.message ?? error), []);
            request.log.warn({ tool: id, err: message }, 'analytics tool failed');
            throw remoteFailure(entry, `The ${id} tool failed: ${message}`, null);
          }
        },
      }),
    ],
  });
}
