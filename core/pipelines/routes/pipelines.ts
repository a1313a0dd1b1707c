/** /pipelines and /pipelines/{id}: listing, reading, creating, renaming and deleting pipelines. */
import type { RouteDefinition } from '../../kernel/routes.js';
import { createPipelineBody, listPipelinesQuery, pipelineIdParams, renamePipelineBody } from '../schemas.js';
import { pipelineListItem, pipelineView } from '../view.js';
import { admin, type PipelinesContext } from './context.js';
import { defineRoute } from '../../../sdk/define.js';

export function pipelineRoutes(ctx: PipelinesContext): RouteDefinition[] {
  const { pipelines, single } = ctx;
  return [
    defineRoute({
      method: 'GET',
      path: '/pipelines',
      permission: admin,
      summary: 'List pipelines, or one with ?pipeline_id',
      schema: { query: listPipelinesQuery },
      async handle(request) {
        const q = request.query;
        if (q.pipeline_id) return { success: true, data: await single(q.pipeline_id) };
        const { items, total, flowCounts } = await pipelines.list({ perPage: q.per_page, offset: q.offset, search: q.search });
        const views = items.map((p) =>
          q.output_mode === 'list'
            ? pipelineListItem(p, flowCounts.get(p.pipeline_id) ?? 0)
            : pipelineView(p, flowCounts.get(p.pipeline_id) ?? 0),
        );
        return { success: true, data: { pipelines: views, total }, total, per_page: q.per_page, offset: q.offset };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/pipelines/{id}',
      permission: admin,
      summary: 'One pipeline with its steps and flows',
      schema: { params: pipelineIdParams },
      async handle(request) {
        return { success: true, data: await single(request.params.id) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/pipelines',
      permission: admin,
      summary: 'Create a pipeline (optionally with steps)',
      schema: { body: createPipelineBody },
      async handle(request) {
        const pipeline = await pipelines.create(request.body, {}, request.user);
        return {
          success: true,
          message: 'Pipeline created.',
          data: { pipeline_id: pipeline.pipeline_id, pipeline_name: pipeline.pipeline_name, pipeline_data: pipelineView(pipeline, 0) },
        };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/pipelines/{id}',
      permission: admin,
      summary: 'Rename a pipeline',
      schema: { params: pipelineIdParams, body: renamePipelineBody },
      async handle(request) {
        const pipeline = await pipelines.rename(request.params.id, request.body.pipeline_name, request.user);
        return { success: true, message: 'Pipeline renamed.', data: pipelineView(pipeline) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/pipelines/{id}',
      permission: admin,
      summary: 'Delete a pipeline with its flows and their schedules',
      schema: { params: pipelineIdParams },
      async handle(request) {
        const result = await pipelines.delete(request.params.id, request.user);
        return { success: true, message: `Pipeline deleted with ${result.deleted_flows} flow(s).`, data: result };
      },
    }),
  ];
}
