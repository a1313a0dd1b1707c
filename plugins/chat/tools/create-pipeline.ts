/** Creates a pipeline with its steps in order. */
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager } from './access.js';
import type { ResolvedChatServices } from '../types.js';

export function createPipelineTool({ pipelines, catalogue }: ResolvedChatServices): ChatToolDefinition {
  return defineChatTool({
    name: 'create_pipeline',
    description:
      'Create a pipeline (a template of steps). steps: the step types in order, e.g. ["fetch", "publish"] or ["fetch", "ai", "publish"]. Returns the pipeline id and its step ids.',
    parameters: {
      type: 'object',
      required: ['name', 'steps'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        steps: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 64 } },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      const by = requireManager(ctx, 'create_pipeline');
      const types = args.steps;
      const known = catalogue.stepTypes().map((t) => t.type);
      const unknown = types.filter((t) => !known.includes(t));
      if (unknown.length) throw new Error(`Unknown step type(s) ${unknown.join(', ')} (known: ${known.join(', ')})`);
      const pipeline = await pipelines.create(
        { pipeline_name: String(args.name), steps: types.map((step_type) => ({ step_type })) },
        {},
        by,
      );
      return {
        pipeline_id: pipeline.pipeline_id,
        name: pipeline.pipeline_name,
        steps: pipeline.steps.map((s) => ({ pipeline_step_id: s.pipeline_step_id, step_type: s.step_type, position: s.execution_order })),
      };
    },
  });
}
