/** /flows/steps/{flow_step_id}: one flow step's configuration, its handler, and edits to both. */
import type { RouteDefinition } from '../../kernel/routes.js';
import { flowStepParams, patchStepConfigBody, setHandlerBody } from '../schemas.js';
import { admin, type FlowsContext } from './context.js';
import { defineRoute } from '../../../sdk/define.js';

export function stepRoutes(ctx: FlowsContext): RouteDefinition[] {
  const { flows } = ctx;
  return [
    defineRoute({
      method: 'GET',
      path: '/flows/steps/{flow_step_id}/config',
      permission: admin,
      summary: 'One flow step configuration',
      schema: { params: flowStepParams },
      async handle(request) {
        const id = request.params.flow_step_id;
        const { config } = await flows.stepConfig(id);
        return { success: true, flow_step_id: id, config };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/flows/steps/{flow_step_id}/handler',
      permission: admin,
      summary: "Pick a step's handler; settings are validated by the handler's schema",
      schema: { params: flowStepParams, body: setHandlerBody },
      async handle(request) {
        const id = request.params.flow_step_id;
        const { flow, config } = await flows.setHandler(id, request.body, request.user);
        return { success: true, message: 'Handler saved.', data: { flow_id: flow.flow_id, flow_step_id: id, step_config: config } };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/flows/steps/{flow_step_id}/config',
      permission: admin,
      summary: "Merge a step's handler_config, or set an ai step's user_message",
      schema: { params: flowStepParams, body: patchStepConfigBody },
      async handle(request) {
        const id = request.params.flow_step_id;
        const config = await flows.patchStepConfig(id, request.body, request.user);
        return { success: true, message: 'Step configuration saved.', data: { flow_step_id: id, step_config: config } };
      },
    }),
  ];
}
