/**
 * flowhost/analytics: building analytics-tool plugins for `POST /analytics/{tool}` (spec 02).
 * `defineAnalyticsToolPlugin` gives a tool its configuration routes (secrets sealed and
 * masked), a per-request cache in the store, service-account tokens, remote error
 * mapping and a chat tool with the same operations; the catalogue holds the four tools
 * the spec names (their actions and parameters), shared by the surface, the tools and the
 * CLI. `analyticsTools` is the extension point the analytics plugin owns and serves.
 * Kept out of the main SDK entry so plugins that report nothing never load `jose`.
 */
export { analyticsTools, type AnalyticsToolDefinition, type AnalyticsToolPermission } from './tools.js';
export { actionsOf } from './actions.js';
export { defineAnalyticsTool } from '../define.js';
export { TOOL_CATALOGUE, TOOL_IDS, isToolId, parametersSchema, allowedActions } from './catalogue.js';
export type { ToolId, ToolCatalogueEntry, ParameterSpec } from './catalogue.js';
export { defineAnalyticsToolPlugin } from './tool-plugin.js';
export type { AnalyticsToolPluginOptions, ToolAnswer, ToolEnv, ToolSettings } from './tool-plugin.js';
export { analyticsError, invalidParameter, notConfigured, remoteFailure, type ToolRef } from './errors.js';
export { dateRange, limitOf, textOf, requireParam } from './params.js';
export { daysAgo, isRealDate } from './dates.js';
export { callJson, scrub, type RemoteCall } from './remote.js';
export { serviceAccountToken } from './bearer.js';
export { parseServiceAccount, ServiceAccountTokens, TokenExchangeError, type ServiceAccountKey } from './service-account.js';
export type { ConfigValues } from './config.js';
