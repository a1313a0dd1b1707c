/** Adds a step to a pipeline; every flow of the pipeline gets a flow step for it. */
import { defineChatTool, type ChatToolDefinition, type Registries } from '../../../sdk/index.js';
import { requireManager, flowStepId } from './access.js';
import { flowsOfPipeline, stepConfigProperties } from './workflow-common.js';
import type { ResolvedChatServices } from '../types.js';

export function addPipelineStepTool({ pipelines, flows, catalogue }: ResolvedChatServices, registries: Registries): ChatToolDefinition {
  return defineChatTool({
    name: 'add_pipeline_step',
    description:
      "Add a step to an existing pipeline. step_type: fetch, ai, publish, update (or a plugin's own). position: zero-based place among the steps (default: at the end). config: for ai steps {provider, model, system_prompt}. Every flow of the pipeline gets the new step (no handler yet: set it with configure_flow_step). Returns the new pipeline_step_id, its position and, per flow, the new flow_step_id.",
    parameters: {
      type: 'object',
      required: ['pipeline_id', 'step_type'],
      properties: {
        pipeline_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        step_type: { type: 'string', minLength: 1, maxLength: 64 },
        label: { type: 'string', minLength: 1, maxLength: 200 },
        position: { type: 'integer', minimum: 0, maximum: 49 },
        config: { type: 'object', properties: stepConfigProperties, additionalProperties: false },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      const by = requireManager(ctx, 'add_pipeline_step');
      const pipelineId = args.pipeline_id;
      const stepType = args.step_type;
      const config = args.config ?? {};
      // Checked before the step exists, so a bad config adds nothing.
      const known = catalogue.stepTypes().map((t) => t.type);
      if (!known.includes(stepType)) throw new Error(`Unknown step type '${stepType}' (known: ${known.join(', ')})`);
      if (Object.keys(config).length && stepType !== 'ai')
        throw new Error(`config (provider, model, system_prompt) applies to ai steps; this is a ${stepType} step`);
      if (config.provider && !registries.providers().some((p) => p.slug === config.provider)) {
        throw new Error(
          `No AI provider '${config.provider}' is registered (known: ${registries
            .providers()
            .map((p) => p.slug)
            .join(', ')})`,
        );
      }
      await pipelines.get(pipelineId);
      const step = await pipelines.addStep(pipelineId, { step_type: stepType, execution_order: args.position, label: args.label }, by);
      const configured = Object.keys(config).length ? await pipelines.configureStep(step.pipeline_step_id, config, by) : step;
      const ofPipeline = await flowsOfPipeline(flows, pipelineId);
      return {
        pipeline_id: pipelineId,
        pipeline_step_id: step.pipeline_step_id,
        step_type: step.step_type,
        label: configured.label,
        position: step.execution_order,
        config: configured.config ?? {},
        flows: ofPipeline.map((f) => ({ flow_id: f.flow_id, flow_step_id: flowStepId(step.pipeline_step_id, f.flow_id) })),
      };
    },
  });
}
