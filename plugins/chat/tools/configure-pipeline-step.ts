/** Sets a pipeline step's config (an ai step's provider, model, system prompt) or its label. */
import { Type } from '../../../sdk/index.js';
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager } from './access.js';
import { pipelineStepIdSchema, stepConfigProperties } from './workflow-common.js';
import type { ResolvedChatServices } from '../types.js';

export function configurePipelineStepTool({ pipelines }: ResolvedChatServices): ChatToolDefinition {
  return defineChatTool({
    name: 'configure_pipeline_step',
    description:
      "Set a pipeline step's config, as PUT /pipelines/steps/{id}/config does: for an ai step provider (a registered AI provider slug), model and system_prompt; label for any step. Given keys are merged into the step's config; the others stay. Every flow of the pipeline uses it.",
    parameters: Type.Object(
      {
        pipeline_step_id: pipelineStepIdSchema,
        ...stepConfigProperties,
        label: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      },
      { additionalProperties: false },
    ),
    async run(args, ctx) {
      const by = requireManager(ctx, 'configure_pipeline_step');
      const { pipeline_step_id, ...config } = args;
      if (Object.keys(config).length === 0) throw new Error('Nothing to set: give provider, model, system_prompt or label');
      const step = await pipelines.configureStep(pipeline_step_id, config, by);
      return {
        pipeline_step_id: step.pipeline_step_id,
        step_type: step.step_type,
        label: step.label,
        position: step.execution_order,
        config: step.config ?? {},
      };
    },
  });
}
