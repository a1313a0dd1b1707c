/**
 * Duplicates a flow within its pipeline (its handler settings and schedule; not its run
 * history or webhook). Copying into another pipeline is not offered: flow steps belong to
 * their pipeline's steps, so there is no one right mapping (export and import do that).
 */
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager } from './access.js';
import { flowStepsOf } from './workflow-common.js';
import type { ResolvedChatServices } from '../types.js';

export function copyFlowTool({ flows, pipelines }: ResolvedChatServices): ChatToolDefinition {
  return defineChatTool({
    name: 'copy_flow',
    description:
      'Duplicate a flow in the same pipeline: its handlers, their settings and its schedule (not its run history or webhook trigger). name: the copy\'s name (default "<name> (Copy)"). Returns the new flow_id and its steps with their flow_step_ids.',
    parameters: {
      type: 'object',
      required: ['flow_id'],
      properties: {
        flow_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        name: { type: 'string', minLength: 1, maxLength: 200 },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      const by = requireManager(ctx, 'copy_flow');
      let copy = await flows.duplicate(args.flow_id, by);
      if (args.name !== undefined) copy = await flows.update(copy.flow_id, { flow_name: args.name }, by);
      const pipeline = await pipelines.get(copy.pipeline_id);
      return {
        flow_id: copy.flow_id,
        source_flow_id: args.flow_id,
        name: copy.flow_name,
        pipeline_id: copy.pipeline_id,
        schedule: copy.scheduling_config.interval,
        steps: flowStepsOf(copy, pipeline),
      };
    },
  });
}
