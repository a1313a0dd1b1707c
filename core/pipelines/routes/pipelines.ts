/** /pipelines and /pipelines/{id}: listing, reading, creating, renaming and deleting pipelines. */
import type { RouteDefinition } from '../../kernel/routes.js';
import { createPipelineBody, listPipelinesQuery, pipelineIdParams, renamePipelineBody } from '../schemas.js';
import { pipelineListItem, pipelineView } from '../view.js';
import { admin, type PipelinesContext } from './context.js';

export function pipelineRoutes(ctx: PipelinesContext): RouteDefinition[] {
  const { pipelines, single } = ctx;
  return [
    {
      method: 'GET',
      path: '/pipelines',
      permission: admin,
      summary: 'List pipelines, or one with ?pipeline_id',
      schema: { query: listPipelinesQuery },
      async handle(request) {
        const q = request.query as {
          per_page: number;
          offset: number;
          search?: string;
          output_mode: 'list' | 'full';
          pipeline_id?: number;
        };
        if (q.pipeline_id) return { success: true, data: await single(q.pipeline_id) };
        const { items, total, flowCounts } = await pipelines.list({ perPage: q.per_page, offset: q.offset, search: q.search });
        const views = items.map((p) =>
          q.output_mode === 'list'
            ? pipelineListItem(p, flowCounts.get(p.pipeline_id) ?? 0)
            : pipelineView(p, flowCounts.get(p.pipeline_id) ?? 0),
        );
        return { success: true, data: { pipelines: views, total }, total, per_page: q.per_page, offset: q.offset };
      },
    },
    {
      method: 'GET',
      path: '/pipelines/{id}',
      permission: admin,
      summary: 'One pipeline with its steps and flows',
      schema: { params: pipelineIdParams },
      async handle(request) {
        return { success: true, data: await single((request.params as { id: number }).id) };
      },
    },
    {
      method: 'POST',
      path: '/pipelines',
      permission: admin,
      summary: 'Create a pipeline (optionally with steps)',
      schema: { body: createPipelineBody },
      async handle(request) {
        const pipeline = await pipelines.create(request.body as { pipeline_name: string }, {}, request.user);
        return {
          success: true,
          message: 'Pipeline created.',
          data: { pipeline_id: pipeline.pipeline_id, pipeline_name: pipeline.pipeline_name, pipeline_data: pipelineView(pipeline, 0) },
        };
      },
    },
    {
      method: 'PATCH',
      path: '/pipelines/{id}',
      permission: admin,
      summary: 'Rename a pipeline',
      schema: { params: pipelineIdParams, body: renamePipelineBody },
      async handle(request) {
        const pipeline = await pipelines.rename(
          (request.params as { id: number }).id,
          (request.body as { pipeline_name: string }).pipeline_name,
          request.user,
        );
        return { success: true, message: 'Pipeline renamed.', data: pipelineView(pipeline) };
      },
    },
    {
      method: 'DELETE',
      path: '/pipelines/{id}',
      permission: admin,
      summary: 'Delete a pipeline with its flows and their schedules',
      schema: { params: pipelineIdParams },
      async handle(request) {
        const result = await pipelines.delete((request.params as { id: number }).id, request.user);
        return { success: true, message: `Pipeline deleted with ${result.deleted_flows} flow(s).`, data: result };
      },
    },
  ];
}
