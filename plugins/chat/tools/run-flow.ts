/** Starts a run of a saved flow. */
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager, runSourceOf } from './access.js';
import type { ResolvedChatServices } from '../types.js';

export function runFlowTool({ execute }: ResolvedChatServices): ChatToolDefinition {
  return defineChatTool({
    name: 'run_flow',
    description: 'Start a run of a saved flow now. Returns the job id; the run goes on in the background.',
    parameters: {
      type: 'object',
      required: ['flow_id'],
      properties: { flow_id: { type: 'integer', minimum: 1 } },
      additionalProperties: false,
    },
    async run(args, ctx) {
      const by = requireManager(ctx, 'run_flow');
      const answer = await execute.execute({ flow_id: args.flow_id }, runSourceOf(ctx), by);
      const data = answer.data as { job_id: number; flow_id: number; flow_name: string };
      return { job_id: data.job_id, flow_id: data.flow_id, message: String(answer.message) };
    },
  });
}
