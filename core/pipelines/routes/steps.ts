/** A pipeline's steps: adding, removing, reordering and configuring them. */
import type { RouteDefinition } from '../../kernel/routes.js';
import { defineRoute } from '../../../sdk/define.js';
import { addStepBody, pipelineIdParams, reorderBody, stepConfigBody, stepConfigParams, stepParams } from '../schemas.js';
import { stepView } from '../view.js';
import { admin, type PipelinesContext } from './context.js';

export function stepRoutes(ctx: PipelinesContext): RouteDefinition[] {
  const { pipelines } = ctx;
  return [
    defineRoute({
      method: 'POST',
      path: '/pipelines/{id}/steps',
      permission: admin,
      summary: 'Add a step (flows get a flow step for it)',
      schema: { params: pipelineIdParams, body: addStepBody },
      async handle(request) {
        const step = await pipelines.addStep(request.params.id, request.body, request.user);
        return { success: true, message: 'Step added.', data: { pipeline_step_id: step.pipeline_step_id, step_data: stepView(step) } };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/pipelines/{id}/steps/{pipeline_step_id}',
      permission: admin,
      summary: 'Remove a step',
      schema: { params: stepParams },
      async handle(request) {
        const { id, pipeline_step_id } = request.params;
        await pipelines.removeStep(id, pipeline_step_id, request.user);
        return { success: true, message: 'Step removed.', data: { pipeline_id: id, pipeline_step_id } };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/pipelines/{id}/steps/reorder',
      permission: admin,
      summary: 'Reorder steps (every step exactly once)',
      schema: { params: pipelineIdParams, body: reorderBody },
      async handle(request) {
        const steps = await pipelines.reorder(request.params.id, request.body.step_order, request.user);
        return { success: true, message: 'Steps reordered.', data: { pipeline_steps: steps.map(stepView) } };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/pipelines/steps/{pipeline_step_id}/config',
      permission: admin,
      summary: "Configure a pipeline step (an ai step's provider, model, system prompt)",
      schema: { params: stepConfigParams, body: stepConfigBody },
      async handle(request) {
        const step = await pipelines.configureStep(request.params.pipeline_step_id, request.body, request.user);
        return { success: true, message: 'Step configuration saved.', data: stepView(step) };
      },
    }),
  ];
}
