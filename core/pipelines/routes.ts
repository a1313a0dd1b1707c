import type { SurfaceDefinition } from '../kernel/routes.js';
import type { FlowsService } from '../flows/service.js';
import { flowView } from '../flows/view.js';
import {
  addStepBody,
  createPipelineBody,
  listPipelinesQuery,
  pipelineIdParams,
  renamePipelineBody,
  reorderBody,
  stepConfigBody,
  stepConfigParams,
  stepParams,
} from './schemas.js';
import type { PipelinesService } from './service.js';
import { pipelineListItem, pipelineView, stepView } from './view.js';
import { withResponses } from '../kernel/response-schemas.js';
import { pipelinesResponses } from './responses.js';

const admin = { capability: 'manage_options' } as const;

/** Pipelines: the shapes the original admin client sends and reads (compat document). */
export function pipelinesSurface(pipelines: PipelinesService, flows: FlowsService): SurfaceDefinition {
  const single = async (pipelineId: number) => {
    const pipeline = await pipelines.get(pipelineId);
    const { items } = await flows.list({ pipelineId, perPage: 500, offset: 0 });
    const flowViews = await Promise.all(
      items.map(async (f) => flowView(f, pipeline, { nextRun: await flows.schedule.nextRun(f.flow_id), isRunning: false, recentJobs: [] })),
    );
    return { pipeline: pipelineView(pipeline, items.length), flows: flowViews };
  };
  return withResponses(
    {
      id: 'pipelines',
      routes: [
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
        {
          method: 'POST',
          path: '/pipelines/{id}/steps',
          permission: admin,
          summary: 'Add a step (flows get a flow step for it)',
          schema: { params: pipelineIdParams, body: addStepBody },
          async handle(request) {
            const step = await pipelines.addStep(
              (request.params as { id: number }).id,
              request.body as { step_type: string },
              request.user,
            );
            return { success: true, message: 'Step added.', data: { pipeline_step_id: step.pipeline_step_id, step_data: stepView(step) } };
          },
        },
        {
          method: 'DELETE',
          path: '/pipelines/{id}/steps/{pipeline_step_id}',
          permission: admin,
          summary: 'Remove a step',
          schema: { params: stepParams },
          async handle(request) {
            const { id, pipeline_step_id } = request.params as { id: number; pipeline_step_id: string };
            await pipelines.removeStep(id, pipeline_step_id, request.user);
            return { success: true, message: 'Step removed.', data: { pipeline_id: id, pipeline_step_id } };
          },
        },
        {
          method: 'PUT',
          path: '/pipelines/{id}/steps/reorder',
          permission: admin,
          summary: 'Reorder steps (every step exactly once)',
          schema: { params: pipelineIdParams, body: reorderBody },
          async handle(request) {
            const steps = await pipelines.reorder(
              (request.params as { id: number }).id,
              (request.body as { step_order: Array<{ pipeline_step_id: string; execution_order: number }> }).step_order,
              request.user,
            );
            return { success: true, message: 'Steps reordered.', data: { pipeline_steps: steps.map(stepView) } };
          },
        },
        {
          method: 'PUT',
          path: '/pipelines/steps/{pipeline_step_id}/config',
          permission: admin,
          summary: "Configure a pipeline step (an ai step's provider, model, system prompt)",
          schema: { params: stepConfigParams, body: stepConfigBody },
          async handle(request) {
            const step = await pipelines.configureStep(
              (request.params as { pipeline_step_id: string }).pipeline_step_id,
              request.body as Record<string, unknown>,
              request.user,
            );
            return { success: true, message: 'Step configuration saved.', data: stepView(step) };
          },
        },
      ],
    },
    pipelinesResponses,
  );
}
