/** /flows as a collection: the problem flows, the list, and creating a flow. */
import type { RouteDefinition } from '../../kernel/routes.js';
import { publicScheduling } from '../model.js';
import { createFlowBody, listFlowsQuery, problemsQuery } from '../schemas.js';
import { createdFlowView } from '../view.js';
import { admin, type FlowsContext } from './context.js';
import { defineRoute } from '../../../sdk/define.js';

export function collectionRoutes(ctx: FlowsContext): RouteDefinition[] {
  const { flows, settings } = ctx;
  return [
    defineRoute({
      method: 'GET',
      path: '/flows/problems',
      permission: admin,
      summary:
        'Flows whose consecutive failures or empty runs reach the threshold, flows with a step that needs configuration, and flows naming a handler, step type or interval no loaded plugin provides',
      schema: { query: problemsQuery },
      async handle(request) {
        const threshold = request.query.threshold ?? (await settings.get()).problem_flow_threshold;
        const [failing, unconfigured, orphaned] = await Promise.all([flows.problems(threshold), flows.unconfigured(), flows.orphaned()]);
        // A flow that cannot run as configured is a problem before it has failed at all.
        const listed = new Map(failing.map((f) => [f.flow_id, f]));
        for (const found of [unconfigured, orphaned])
          for (const [flowId, { flow }] of found) if (!listed.has(flowId)) listed.set(flowId, flow);
        const problem_flows = [...listed.values()]
          .sort((a, b) => a.flow_id - b.flow_id)
          .map((f) => ({
            flow_id: f.flow_id,
            flow_name: f.flow_name,
            consecutive_failures: f.consecutive_failures,
            consecutive_no_items: f.consecutive_no_items,
            needs_configuration: unconfigured.get(f.flow_id)?.steps ?? [],
            orphaned: orphaned.get(f.flow_id)?.missing ?? [],
          }));
        return { success: true, data: { problem_flows, total: problem_flows.length, threshold } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/flows',
      permission: admin,
      summary: 'List flows (optionally of one pipeline)',
      schema: { query: listFlowsQuery },
      async handle(request) {
        const q = request.query;
        // Not given: the site's flows_per_page (a setting whose bounds are this parameter's).
        const perPage = q.per_page ?? (await settings.get()).flows_per_page;
        const { items, total } = await flows.list({ pipelineId: q.pipeline_id, perPage, offset: q.offset });
        const views =
          q.output_mode === 'list'
            ? items.map((f) => ({
                flow_id: f.flow_id,
                flow_name: f.flow_name,
                pipeline_id: f.pipeline_id,
                scheduling_config: publicScheduling(f.scheduling_config),
                last_run_status: f.last_run_status,
              }))
            : await Promise.all(items.map(ctx.whole));
        return { success: true, data: { flows: views, total }, total, per_page: perPage, offset: q.offset };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/flows',
      permission: admin,
      summary: 'Create a flow: a flow step for each pipeline step',
      schema: { body: createFlowBody },
      async handle(request) {
        const flow = await flows.create(request.body, request.user);
        return { success: true, message: 'Flow created.', data: createdFlowView(flow, (await flows.pipelineOf(flow))!, flows.missing) };
      },
    }),
  ];
}
