/**
 * The boot's check for orphan flows (issue 54): one warning per flow naming what it misses
 * and the plugin that provided it, so an operator who left a plugin out of the build learns
 * it at start rather than from a run failing later. Nothing is changed on the flows: loading
 * the plugin again makes them whole.
 */
import type { Logger } from '../kernel/logger.js';
import type { FlowsService } from './service.js';

export async function reportOrphans(flows: Pick<FlowsService, 'orphans' | 'orphaned'>, log: Pick<Logger, 'warn'>): Promise<number> {
  // First what is loaded now: a plugin removed later is then still named.
  await flows.orphans.recordOwners();
  const orphaned = await flows.orphaned();
  for (const [flowId, { flow, missing }] of orphaned) {
    log.warn(
      { flow_id: flowId, orphaned: missing.map((m) => ({ kind: m.kind, name: m.name, plugin: m.plugin })) },
      `Flow ${flowId} "${flow.flow_name}" is orphaned, not run by its schedule and listed by GET /flows/problems: ${missing.map((m) => m.reason).join('; ')}`,
    );
  }
  return orphaned.size;
}
