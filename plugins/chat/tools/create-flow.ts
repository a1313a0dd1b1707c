/** Creates a flow of a pipeline with a handler and settings per step. */
import { defineChatTool, type ChatToolDefinition } from '../../../sdk/index.js';
import { requireManager, flowStepId } from './access.js';
import type { ResolvedChatServices } from '../types.js';

export function createFlowTool({ pipelines, flows }: ResolvedChatServices): ChatToolDefinition {
  return defineChatTool({
    name: 'create_flow',
    description:
      'Create a flow of a pipeline. handlers: one entry per pipeline step, by position (null leaves a step unset): {slug, settings}, e.g. [{"slug": "rss", "settings": {"feed_url": "..."}}, {"slug": "cms", "settings": {"post_status": "publish"}}]. schedule: an interval such as "manual" (default) or "hourly".',
    parameters: {
      type: 'object',
      required: ['pipeline_id'],
      properties: {
        pipeline_id: { type: 'integer', minimum: 1 },
        name: { type: 'string', maxLength: 200 },
        handlers: {
          type: 'array',
          maxItems: 20,
          items: {
            anyOf: [
              { type: 'null' },
              {
                type: 'object',
                required: ['slug'],
                properties: { slug: { type: 'string', minLength: 1, maxLength: 100 }, settings: { type: 'object' } },
                additionalProperties: false,
              },
            ],
          },
        },
        schedule: { type: 'string', minLength: 1, maxLength: 64 },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      const by = requireManager(ctx, 'create_flow');
      const pipeline = await pipelines.get(args.pipeline_id);
      const ordered = [...pipeline.steps].sort((a, b) => a.execution_order - b.execution_order);
      const handlers = args.handlers ?? [];
      if (handlers.length > ordered.length)
        throw new Error(`Pipeline ${pipeline.pipeline_id} has ${ordered.length} step(s); ${handlers.length} handlers were given`);
      const flow_config: Record<string, { handler_slug: string; handler_config: Record<string, unknown> }> = {};
      handlers.forEach((h, i) => {
        if (h) flow_config[ordered[i]!.pipeline_step_id] = { handler_slug: h.slug, handler_config: h.settings ?? {} };
      });
      const flow = await flows.create(
        {
          pipeline_id: pipeline.pipeline_id,
          flow_name: args.name,
          flow_config,
          scheduling_config: { interval: args.schedule ?? 'manual' },
        },
        by,
      );
      return {
        flow_id: flow.flow_id,
        name: flow.flow_name,
        pipeline_id: flow.pipeline_id,
        schedule: flow.scheduling_config.interval,
        steps: ordered.map((s) => ({
          flow_step_id: flowStepId(s.pipeline_step_id, flow.flow_id),
          step_type: s.step_type,
          handler: flow.steps[s.pipeline_step_id.replace(/-/g, '_')]?.handler_slug ?? null,
        })),
      };
    },
  });
}
