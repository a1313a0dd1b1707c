/** Runs an ephemeral workflow (POST /execute with `workflow`): no pipeline or flow is saved. */
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager, runSourceOf } from './access.js';
import type { ResolvedChatServices } from '../types.js';

const step = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', minLength: 1, maxLength: 64 },
    handler_slug: { type: 'string', minLength: 1, maxLength: 100 },
    handler_config: { type: 'object', maxProperties: 100 },
    provider: { type: 'string', minLength: 1, maxLength: 100 },
    model: { type: 'string', maxLength: 200 },
    system_prompt: { type: 'string', maxLength: 20000 },
    user_message: { type: 'string', maxLength: 20000 },
  },
  additionalProperties: false,
} as const;

export function executeWorkflowTool({ execute }: ResolvedChatServices): ChatToolDefinition {
  return defineChatTool({
    name: 'execute_workflow',
    description:
      'Run a one-off workflow without saving a pipeline or flow. steps in order, each {type, handler_slug, handler_config} (fetch/publish/update) or {type: "ai", provider, model, system_prompt, user_message}, e.g. [{"type": "fetch", "handler_slug": "rss", "handler_config": {"feed_url": "..."}}, {"type": "publish", "handler_slug": "cms", "handler_config": {}}]. timestamp: a future Unix time (seconds) to run once then instead of now. initial_data: merged into the job\'s data. Handler settings are checked like POST /execute checks them. Returns the job id; the run goes on in the background.',
    parameters: {
      type: 'object',
      required: ['steps'],
      properties: {
        steps: { type: 'array', minItems: 1, maxItems: 20, items: step },
        timestamp: { type: 'integer', minimum: 1, maximum: 253402300799 },
        initial_data: { type: 'object', maxProperties: 50 },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      const by = requireManager(ctx, 'execute_workflow');
      const steps = args.steps;
      const answer = await execute.execute(
        {
          workflow: { steps },
          ...(args.timestamp !== undefined ? { timestamp: args.timestamp } : {}),
          ...(args.initial_data !== undefined ? { initial_data: args.initial_data } : {}),
        },
        runSourceOf(ctx),
        by,
      );
      const data = answer.data as { job_id: number; execution_type: string; step_count: number };
      return { job_id: data.job_id, execution_type: data.execution_type, step_count: data.step_count, message: String(answer.message) };
    },
  });
}
