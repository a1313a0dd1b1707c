/** /flows/{flow_id}: one flow read whole, edited, deleted, duplicated, or its config. */
import type { RouteDefinition } from '../../kernel/routes.js';
import { pipelineView } from '../../pipelines/view.js';
import { flowIdParams, patchFlowBody } from '../schemas.js';
import { flowConfig } from '../view.js';
import { admin, type FlowsContext } from './context.js';
import { defineRoute } from '../../../sdk/define.js';
import { apiError } from '../../errors/catalogue.js';

export function flowRoutes(ctx: FlowsContext): RouteDefinition[] {
  const { flows, users, whole } = ctx;
  return [
    defineRoute({
      method: 'GET',
      path: '/flows/{flow_id}',
      permission: admin,
      summary: 'The whole flow with schedule, run status and recent jobs',
      schema: { params: flowIdParams },
      async handle(request) {
        return { success: true, data: await whole(await flows.get(request.params.flow_id)) };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/flows/{flow_id}',
      permission: admin,
      summary: 'Rename or reschedule a flow, or give it another owner; answers the whole flow',
      schema: { params: flowIdParams, body: patchFlowBody },
      async handle(request) {
        const owner = request.body.owner_id;
        if (typeof owner === 'number' && !(await users.exists(owner)))
          throw apiError('rest_invalid_param', {
            message: `owner_id ${owner} is not a user`,
            data: { params: { owner_id: 'no such user' } },
          });
        const flow = await flows.update(request.params.flow_id, request.body, request.user);
        return { success: true, message: 'Flow updated.', data: await whole(flow) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/flows/{flow_id}',
      permission: admin,
      summary: 'Delete a flow and its schedule',
      schema: { params: flowIdParams },
      async handle(request) {
        const flowId = request.params.flow_id;
        await flows.delete(flowId, request.user);
        return { success: true, message: 'Flow deleted.', data: { flow_id: flowId } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/flows/{flow_id}/duplicate',
      permission: admin,
      summary: 'Copy a flow: steps, handler config and schedule (not webhook secrets)',
      schema: { params: flowIdParams },
      async handle(request) {
        const sourceId = request.params.flow_id;
        const copy = await flows.duplicate(sourceId, request.user);
        const pipeline = await flows.pipelineOf(copy);
        return {
          success: true,
          source_flow_id: sourceId,
          new_flow_id: copy.flow_id,
          flow_name: copy.flow_name,
          pipeline_id: copy.pipeline_id,
          flow_data: await whole(copy),
          pipeline_steps: pipeline ? (pipelineView(pipeline).pipeline_steps as unknown[]) : [],
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/flows/{flow_id}/config',
      permission: admin,
      summary: 'The flow config: flow step id → flow step configuration',
      schema: { params: flowIdParams },
      async handle(request) {
        const flow = await flows.get(request.params.flow_id);
        return {
          success: true,
          flow_id: flow.flow_id,
          flow_config: flowConfig(flow, await flows.pipelineOf(flow), 'masked', flows.missing),
        };
      },
    }),
  ];
}
