/**
 * The chat tools this plugin ships (more come later): create_pipeline, create_flow and
 * run_flow. Each acts through the SDK services as the acting user and refuses a user
 * without manage_options. Results are small JSON objects.
 */
import { defineChatTool, type ActingUser, type CallContext, type ChatToolDefinition, type Principal, type Registries } from '../../sdk/index.js';
import type { ResolvedChatServices } from './types.js';

/** The acting user as the services' `by` (their change log names who did it). */
export function principalOf(user: ActingUser): Principal {
  return { userId: user.userId, login: user.login, role: 'acting', capabilities: new Set(user.capabilities), via: 'local', can: (c) => user.can(c) };
}

function requireManager(ctx: CallContext, tool: string): Principal {
  if (!ctx.user || !ctx.user.can('manage_options')) throw new Error(`${tool} needs the manage_options capability, which ${ctx.user ? `user ${ctx.user.login}` : 'this caller'} does not have`);
  return principalOf(ctx.user);
}

/** The step's flow-step id as the flows routes know it. */
const flowStepId = (pipelineStepId: string, flowId: number) => `${pipelineStepId}_${flowId}`;

export function chatTools(services: ResolvedChatServices, registries: Registries): ChatToolDefinition[] {
  const { pipelines, flows, execute } = services;
  return [
    defineChatTool({
      name: 'create_pipeline',
      description: 'Create a pipeline (a template of steps). steps: the step types in order, e.g. ["fetch", "publish"] or ["fetch", "ai", "publish"]. Returns the pipeline id and its step ids.',
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
        const types = args.steps as string[];
        const known = registries.stepTypes().map((t) => t.type);
        const unknown = types.filter((t) => !known.includes(t));
        if (unknown.length) throw new Error(`Unknown step type(s) ${unknown.join(', ')} (known: ${known.join(', ')})`);
        const pipeline = await pipelines.create({ pipeline_name: String(args.name), steps: types.map((step_type) => ({ step_type })) }, {}, by);
        return {
          pipeline_id: pipeline.pipeline_id,
          name: pipeline.pipeline_name,
          steps: pipeline.steps.map((s) => ({ pipeline_step_id: s.pipeline_step_id, step_type: s.step_type, position: s.execution_order })),
        };
      },
    }),
    defineChatTool({
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
                { type: 'object', required: ['slug'], properties: { slug: { type: 'string', minLength: 1, maxLength: 100 }, settings: { type: 'object' } }, additionalProperties: false },
              ],
            },
          },
          schedule: { type: 'string', minLength: 1, maxLength: 64 },
        },
        additionalProperties: false,
      },
      async run(args, ctx) {
        const by = requireManager(ctx, 'create_flow');
        const pipeline = await pipelines.get(args.pipeline_id as number);
        const ordered = [...pipeline.steps].sort((a, b) => a.execution_order - b.execution_order);
        const handlers = (args.handlers as Array<{ slug: string; settings?: Record<string, unknown> } | null> | undefined) ?? [];
        if (handlers.length > ordered.length) throw new Error(`Pipeline ${pipeline.pipeline_id} has ${ordered.length} step(s); ${handlers.length} handlers were given`);
        const flow_config: Record<string, { handler_slug: string; handler_config: Record<string, unknown> }> = {};
        handlers.forEach((h, i) => {
          if (h) flow_config[ordered[i]!.pipeline_step_id] = { handler_slug: h.slug, handler_config: h.settings ?? {} };
        });
        const flow = await flows.create({ pipeline_id: pipeline.pipeline_id, flow_name: args.name as string | undefined, flow_config, scheduling_config: { interval: (args.schedule as string | undefined) ?? 'manual' } }, by);
        return {
          flow_id: flow.flow_id,
          name: flow.flow_name,
          pipeline_id: flow.pipeline_id,
          schedule: flow.scheduling_config.interval,
          steps: ordered.map((s) => ({ flow_step_id: flowStepId(s.pipeline_step_id, flow.flow_id), step_type: s.step_type, handler: flow.steps[s.pipeline_step_id.replace(/-/g, '_')]?.handler_slug ?? null })),
        };
      },
    }),
    defineChatTool({
      name: 'run_flow',
      description: 'Start a run of a saved flow now. Returns the job id; the run goes on in the background.',
      parameters: { type: 'object', required: ['flow_id'], properties: { flow_id: { type: 'integer', minimum: 1 } }, additionalProperties: false },
      async run(args, ctx) {
        const by = requireManager(ctx, 'run_flow');
        const answer = await execute.execute({ flow_id: args.flow_id as number }, 'execute', by);
        const data = answer.data as { job_id: number; flow_id: number; flow_name: string };
        return { job_id: data.job_id, flow_id: data.flow_id, message: String(answer.message) };
      },
    }),
  ];
}
