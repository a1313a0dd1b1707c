/**
 * Sets a flow step's handler and settings, its ai user_message, or whether it is enabled,
 * through the same service methods (and so the same checks and sealing) as the REST routes.
 */
import { Type } from '../../../sdk/index.js';
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager } from './access.js';
import { flowStepIdSchema, pipelineStepIdSchema, resolveFlowStep } from './workflow-common.js';
import type { ResolvedChatServices } from '../types.js';

export function configureFlowStepTool(services: ResolvedChatServices): ChatToolDefinition {
  const { flows } = services;
  return defineChatTool({
    name: 'configure_flow_step',
    description:
      "Configure one step of a flow. Name it by flow_step_id (\"<pipeline_step_id>_<flow_id>\"), or by flow_id with pipeline_step_id or position (zero-based). handler_slug (with optional settings) picks the step's handler: its settings become exactly those given, laid over the handler's defaults. settings alone are merged into the current handler's settings. user_message: an ai step's message to the model. enabled: false skips the step in runs. Settings are checked against the handler's schema (see handler_documentation); required ones may come later: the answer's step.missing_settings lists what is still unset, and runs refuse the step until it is. Secrets are stored sealed and shown masked.",
    parameters: Type.Object(
      {
        flow_step_id: Type.Optional(flowStepIdSchema),
        flow_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
        pipeline_step_id: Type.Optional(pipelineStepIdSchema),
        position: Type.Optional(Type.Integer({ minimum: 0, maximum: 49 })),
        handler_slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        // Any settings object (the handler's own schema checks it in flows.setHandler);
        // Unsafe keeps the plain `type: object` a Type.Record would turn into patternProperties.
        settings: Type.Optional(Type.Unsafe<Record<string, unknown>>({ type: 'object', maxProperties: 100 })),
        user_message: Type.Optional(Type.String({ maxLength: 20000 })),
        enabled: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    async run(args, ctx) {
      const by = requireManager(ctx, 'configure_flow_step');
      const given = args;
      if (
        given.handler_slug === undefined &&
        given.settings === undefined &&
        given.user_message === undefined &&
        given.enabled === undefined
      ) {
        throw new Error('Nothing to set: give handler_slug, settings, user_message or enabled');
      }
      const id = await resolveFlowStep(services, given);
      let config: Record<string, unknown> | undefined;
      if (given.handler_slug !== undefined)
        config = (await flows.setHandler(id, { handler_slug: given.handler_slug, settings: given.settings ?? {} }, by)).config;
      const patch = {
        ...(given.handler_slug === undefined && given.settings !== undefined ? { handler_config: given.settings } : {}),
        ...(given.user_message !== undefined ? { user_message: given.user_message } : {}),
        ...(given.enabled !== undefined ? { enabled: given.enabled } : {}),
      };
      if (Object.keys(patch).length) config = await flows.patchStepConfig(id, patch, by);
      return { flow_step_id: id, step: config };
    },
  });
}
