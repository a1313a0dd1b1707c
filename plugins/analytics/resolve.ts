/**
 * Which tool a `{tool}` segment names: one of the spec's four (its catalogue entry, even
 * when its plugin is not loaded) or a plugin's own (its declared actions and permission).
 */
import type { ExtensionPointContributions, RouteRequest } from '../../sdk/index.js';
import {
  actionsOf,
  isToolId,
  TOOL_CATALOGUE,
  TOOL_IDS,
  type AnalyticsToolDefinition,
  type AnalyticsToolPermission,
  type ToolRef,
} from '../../sdk/analytics/index.js';

type Tools = ExtensionPointContributions<AnalyticsToolDefinition>;

export interface ResolvedTool {
  ref: ToolRef;
  /** Undefined for a spec tool whose plugin is not in this build. */
  tool: AnalyticsToolDefinition | undefined;
  /** One of the four the spec names: its behaviour is the spec's whoever provides it. */
  spec: boolean;
  permission: AnalyticsToolPermission;
}

const MANAGE: AnalyticsToolPermission = { capability: 'manage_options' };

export function resolveTool(tools: Tools, id: string): ResolvedTool | null {
  if (isToolId(id)) return { ref: TOOL_CATALOGUE[id], tool: tools.get(id), spec: true, permission: MANAGE };
  const tool = tools.get(id);
  if (!tool) return null;
  return { ref: { id, actions: actionsOf(tool.parameters) }, tool, spec: false, permission: tool.permission ?? MANAGE };
}

/** Every tool this build answers: the spec's four, then the plugins' own in the order added. */
export function toolNames(tools: Tools): string[] {
  return [...TOOL_IDS, ...tools.list().map((t) => t.name)].filter((name, i, all) => all.indexOf(name) === i);
}

/**
 * The route's permission: the tool's (manage_options for the spec's four and for a name no
 * tool answers, so a caller without it learns nothing of which names exist).
 */
export function mayCall(tools: Tools, request: RouteRequest): boolean {
  const permission = resolveTool(tools, String(request.params.tool ?? ''))?.permission ?? MANAGE;
  if (permission === 'authenticated') return request.user !== null;
  return request.user?.can(permission.capability) ?? false;
}
