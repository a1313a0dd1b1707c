/** /pipelines/{id}/revisions: a pipeline's history, diffs and restore (core/revisions/routes.ts). */
import type { SurfaceDefinition } from '../kernel/routes.js';
import { revisionRoutes } from '../revisions/routes.js';
import { pipelineView as pipelineViewSchema } from './responses.js';
import type { PipelinesService } from './service.js';
import type { PipelineFlows } from './service.js';
import { pipelineView } from './view.js';

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
      async restore(id, revision, by) {
        const pipeline = await pipelines.restore(id, revision, by);
        const counts = await flows.countByPipeline([id]);
        return { revision: pipeline.revision as number, view: pipelineView(pipeline, counts.get(id) ?? 0) };
      },
    }),
  };
}
