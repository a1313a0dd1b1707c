/** Renames a flow or changes its schedule. */
import { Type } from '../../../sdk/index.js';
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager } from './access.js';
import type { ResolvedChatServices } from '../types.js';

export function updateFlowTool({ flows }: ResolvedChatServices): ChatToolDefinition {
  return defineChatTool({
    name: 'update_flow',
    description:
      "Rename a flow and/or change its schedule. schedule: a registered interval (manual, hourly, daily, weekly, every_5_minutes, ...; one_time needs timestamp, a future Unix time in seconds). Returns the flow's name, schedule and next run.",
    parameters: Type.Object(
      {
        flow_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        schedule: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        timestamp: Type.Optional(Type.Integer({ minimum: 1, maximum: 253402300799 })),
      },
      { additionalProperties: false },
    ),
    async run(args, ctx) {
      const by = requireManager(ctx, 'update_flow');
      const { flow_id, name, schedule, timestamp } = args;
      if (name === undefined && schedule === undefined) throw new Error('Nothing to change: give name and/or schedule');
      if (timestamp !== undefined && schedule !== 'one_time') throw new Error('timestamp goes with schedule "one_time"');
      const flow = await flows.update(
        flow_id,
        {
          flow_name: name,
          scheduling_config: schedule === undefined ? undefined : { interval: schedule, ...(timestamp !== undefined ? { timestamp } : {}) },
        },
        by,
      );
      const next = await flows.nextRun(flow.flow_id);
      return {
        flow_id: flow.flow_id,
        name: flow.flow_name,
        schedule: flow.scheduling_config.interval,
        ...(flow.scheduling_config.timestamp !== undefined ? { timestamp: flow.scheduling_config.timestamp } : {}),
        next_run: next ? next.toISOString() : null,
      };
    },
  });
}
