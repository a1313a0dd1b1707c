import { createExtensionPoint } from '../kernel/extension-point.js';
import type { ToolDefinition } from '../kernel/contributions.js';
import type { Capability } from '../kernel/principal.js';
import { actionsOf } from './actions.js';

/**
 * Who may call a tool at `POST /analytics/{name}`: any logged-in user, or one with the
 * capability. No `'public'`: a report of the site's traffic is never for strangers.
 */
export type AnalyticsToolPermission = 'authenticated' | { capability: Capability };

/**
 * A tool `POST /analytics/{name}` dispatches to: `run(args, ctx)` answers the request with
 * the spec's result body (`{ success: true, action, results_count, results, ...its fields }`).
 * `parameters` must declare a required string `action` with its values (`enum`), as the
 * spec's endpoint takes one; the host checks the body against `parameters` before `run`.
 */
export interface AnalyticsToolDefinition extends ToolDefinition {
  /**
   * Who may call it (default `{ capability: 'manage_options' }`, the spec's). The spec's
   * four tools always need manage_options, whoever provides them.
   */
  permission?: AnalyticsToolPermission;
}

function checkTool(tool: AnalyticsToolDefinition): void {
  if (actionsOf(tool.parameters).length === 0)
    throw new Error(
      "its parameters must be an object schema with a required string 'action' listing its values (enum), as POST /analytics/{tool} takes one",
    );
  const permission = tool.permission;
  if (permission === undefined || permission === 'authenticated') return;
  const capability = (permission as { capability?: unknown } | null)?.capability;
  if (typeof capability !== 'string' || capability === '')
    throw new Error(`its permission must be 'authenticated' or { capability: '<capability>' } (got ${JSON.stringify(permission)})`);
}

/**
 * Analytics tools, keyed by `name` (the `{tool}` of the route); owned by plugin
 * 'analytics', which serves them. A plugin contributes one by listing the point in its
 * `deps` (`defineAnalyticsToolPlugin` does it for the four built-in tools). A name is
 * one tool: a second plugin adding a taken name (one of the spec's four included) stops
 * start-up naming both plugins.
 */
export const analyticsTools = createExtensionPoint<AnalyticsToolDefinition>({
  id: 'analytics.tools',
  owner: 'analytics',
  key: 'name',
  description: 'a tool POST /analytics/{tool} dispatches to',
  check: checkTool,
  schemaOf: (tool) => tool.parameters,
});
