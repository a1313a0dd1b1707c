/** /flows/{flow_id}/revisions: a flow's history, diffs and restore (core/revisions/routes.ts). */
import type { SurfaceDefinition } from '../kernel/routes.js';
import type { StepName } from '../revisions/diff.js';
import type { RevisionRecord } from '../revisions/model.js';
import { revisionRoutes } from '../revisions/routes.js';
import type { FlowsService } from './service.js';
import { flowStepId, stepKey } from './model.js';
import { flowView } from './responses.js';
import type { FlowsContext } from './routes/context.js';

/**
 * A flow snapshot keys its steps by a form of the pipeline step id nobody types
 * (`stepKey`): the pipeline's steps name them as the user knows them, position, type and
 * ids. The pipeline(s) of both revisions as they are now; a step since removed from the
 * pipeline keeps only its path.
 */
async function flowStepNames(flows: FlowsService, flowId: number, from: RevisionRecord, to: RevisionRecord) {
  const names = new Map<string, StepName>();
  const ids = new Set([from.snapshot.pipeline_id, to.snapshot.pipeline_id].filter((id): id is number => typeof id === 'number'));
  for (const pipelineId of ids) {
    const pipeline = await flows.pipeline(pipelineId);
    for (const step of pipeline?.steps ?? [])
      if (!names.has(stepKey(step.pipeline_step_id)))
        names.set(stepKey(step.pipeline_step_id), {
          pipeline_step_id: step.pipeline_step_id,
          flow_step_id: flowStepId(step.pipeline_step_id, flowId),
          position: step.execution_order + 1,
          step_type: step.step_type,
        });
  }
  return names;
}

export function flowRevisionsSurface(ctx: FlowsContext): SurfaceDefinition {
  const { flows } = ctx;
  return {
    id: 'flows-revisions',
    routes: revisionRoutes({
      kind: 'flow',
      base: '/flows/{flow_id}',
      param: 'flow_id',
      log: flows.revisions,
      notFound: 'flow_not_found',
      view: flowView,
      exists: async (id) => (await flows.record(id)) !== null,
      stepNames: (id, from, to) => flowStepNames(flows, id, from, to),
      async restore(id, revision, by) {
        const flow = await flows.restore(id, revision, by);
        return { revision: flow.revision as number, view: await ctx.whole(flow) };
      },
    }),
  };
}
