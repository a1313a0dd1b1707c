/**
 * What the workflow tools share beyond access.ts: the pipeline step config fields (as
 * PUT /pipelines/steps/{id}/config takes them), a flow's steps as a tool answers them,
 * and finding a flow step by id or by flow and position.
 */
import { Type } from '../../../sdk/index.js';
import { flowStepId } from './access.js';
import type { ResolvedChatServices } from '../types.js';

type Pipeline = Awaited<ReturnType<ResolvedChatServices['pipelines']['get']>>;
type Flow = Awaited<ReturnType<ResolvedChatServices['flows']['get']>>;

// TypeBox, so the tools that take them (defineChatTool) read their arguments typed.
export const pipelineStepIdSchema = Type.String({ pattern: '^\\d+_[0-9a-f-]{36}$', maxLength: 64 });
export const flowStepIdSchema = Type.String({ pattern: '^\\d+_[0-9a-f-]{36}_\\d+$', maxLength: 96 });

/** An ai step's settings, bounded like the REST route's body; each is optional. */
export const stepConfigProperties = {
  provider: Type.Optional(Type.String({ maxLength: 100, description: 'AI provider slug (ai steps)' })),
  model: Type.Optional(Type.String({ maxLength: 200 })),
  system_prompt: Type.Optional(Type.String({ maxLength: 20000 })),
};

/** A flow-step key in the flow record (store field paths take no '-'). */
const stepKey = (pipelineStepId: string) => pipelineStepId.replace(/-/g, '_');

export const orderedSteps = (pipeline: Pipeline) => [...pipeline.steps].sort((a, b) => a.execution_order - b.execution_order);

/** The flow's steps in pipeline order, as the tools answer them (no settings: they may hold secrets). */
export function flowStepsOf(flow: Flow, pipeline: Pipeline) {
  return orderedSteps(pipeline).map((s) => {
    const own = flow.steps[stepKey(s.pipeline_step_id)];
    return {
      flow_step_id: flowStepId(s.pipeline_step_id, flow.flow_id),
      position: s.execution_order,
      step_type: s.step_type,
      handler: own?.handler_slug ?? null,
      enabled: own?.enabled ?? true,
    };
  });
}

/** Every flow of a pipeline (paged through; a pipeline with thousands of flows is not a chat's business). */
export async function flowsOfPipeline(flows: ResolvedChatServices['flows'], pipelineId: number, max = 500): Promise<Flow[]> {
  const out: Flow[] = [];
  while (out.length < max) {
    const { items } = await flows.list({ pipelineId, perPage: 100, offset: out.length });
    out.push(...items);
    if (items.length < 100) break;
  }
  return out;
}

/**
 * The flow step id a call names: `flow_step_id`, or `flow_id` with the step's
 * `pipeline_step_id` or zero-based `position`.
 */
export async function resolveFlowStep(
  services: ResolvedChatServices,
  args: { flow_step_id?: string; flow_id?: number; pipeline_step_id?: string; position?: number },
): Promise<string> {
  if (args.flow_step_id) {
    if (args.flow_id !== undefined || args.pipeline_step_id !== undefined || args.position !== undefined)
      throw new Error('Give flow_step_id, or flow_id with pipeline_step_id or position, not both');
    return args.flow_step_id;
  }
  if (args.flow_id === undefined) throw new Error('Give flow_step_id, or flow_id with pipeline_step_id or position');
  if ((args.pipeline_step_id === undefined) === (args.position === undefined))
    throw new Error('With flow_id give exactly one of pipeline_step_id or position');
  const flow = await services.flows.get(args.flow_id);
  const pipeline = await services.pipelines.get(flow.pipeline_id);
  const steps = orderedSteps(pipeline);
  const step =
    args.pipeline_step_id !== undefined ? steps.find((s) => s.pipeline_step_id === args.pipeline_step_id) : steps[args.position!];
  if (!step) {
    throw new Error(
      args.pipeline_step_id !== undefined
        ? `Step ${args.pipeline_step_id} is not in pipeline ${pipeline.pipeline_id} of flow ${flow.flow_id}`
        : `Flow ${flow.flow_id} has ${steps.length} step(s); there is no position ${args.position} (positions start at 0)`,
    );
  }
  return flowStepId(step.pipeline_step_id, flow.flow_id);
}
