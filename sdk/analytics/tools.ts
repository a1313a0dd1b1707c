import { createExtensionPoint } from '../../core/kernel/extension-point.js';
import type { ToolDefinition } from '../../core/kernel/contributions.js';

/** A tool `POST /analytics/{name}` dispatches to: `run(args, ctx)` answers the request. */
export type AnalyticsToolDefinition = ToolDefinition;

/**
 * Analytics tools, keyed by `name` (the `{tool}` of the route); owned by plugin
 * 'analytics', which serves them. A plugin contributes one by listing the point in its
 * `deps` (`defineAnalyticsToolPlugin` does it for the four built-in tools).
 */
export const analyticsTools = createExtensionPoint<AnalyticsToolDefinition>({
  id: 'analytics.tools',
  owner: 'analytics',
  key: 'name',
  description: 'a tool POST /analytics/{tool} dispatches to',
  schemaOf: (tool) => tool.parameters,
});
