/** /pipelines/{id}/revisions: a pipeline's history, diffs and restore (core/revisions/routes.ts). */
import type { SurfaceDefinition } from '../kernel/routes.js';
import type { StepName } from '../revisions/diff.js';
import type { RevisionRecord } from '../revisions/model.js';
import { revisionRoutes } from '../revisions/routes.js';
import { pipelineView as pipelineViewSchema } from './responses.js';
import type { PipelinesService } from './service.js';
import type { PipelineFlows } from './service.js';
import { pipelineView } from './view.js';

/** A pipeline snapshot keys its steps by their ids: each named by its position and type there (the newer wins). */
function pipelineStepNames(_id: number, from: RevisionRecord, to: RevisionRecord): Promise<Map<string, StepName>> {
  const names = new Map<string, StepName>();
  for (const snapshot of [from.snapshot, to.snapshot]) {
    const steps = (snapshot.steps ?? {}) as Record<string, { execution_order?: number; step_type?: string }>;
    for (const [id, step] of Object.entries(steps))
      names.set(id, { pipeline_step_id: id, position: (step.execution_order ?? 0) + 1, step_type: String(step.step_type ?? '') });
  }
  return Promise.resolve(names);
}

export function pipelineRevisionsSurface(pipelines: PipelinesService, flows: PipelineFlows): SurfaceDefinition {
  return {
    id: 'pipelines-revisions',
    routes: revisionRoutes({
      kind: 'pipeline',
      base: '/pipelines/{id}',
      param: 'id',
      log: pipelines.revisions,
      notFound: 'pipeline_not_found',
      view: pipelineViewSchema,
      exists: (id) => pipelines.exists(id),
      stepNames: pipelineStepNames,
      async restore(id, revision, by) {
        const pipeline = await pipelines.restore(id, revision, by);
        const counts = await flows.countByPipeline([id]);
        return { revision: pipeline.revision as number, view: pipelineView(pipeline, counts.get(id) ?? 0) };
      },
    }),
  };
}
