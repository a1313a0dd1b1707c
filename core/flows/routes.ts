import type { SurfaceDefinition } from '../kernel/routes.js';
import type { SettingsService } from '../settings/service.js';
import type { JobsService } from '../jobs/service.js';
import { pipelineView } from '../pipelines/view.js';
import { publicScheduling, type FlowRecord, type SchedulingConfig } from './model.js';
import {
  createFlowBody,
  flowIdParams,
  flowStepParams,
  listFlowsQuery,
  patchFlowBody,
  problemsQuery,
  setHandlerBody,
  patchStepConfigBody,
} from './schemas.js';
import type { FlowsService } from './service.js';
import { createdFlowView, flowConfig, flowView } from './view.js';
import { withResponses } from '../kernel/response-schemas.js';
import { flowsResponses } from './responses.js';

const admin = { capability: 'manage_options' } as const;

export function flowsSurface(flows: FlowsService, settings: SettingsService, jobs: JobsService): SurfaceDefinition {
  const whole = async (flow: FlowRecord) => {
    const recent = await jobs.list({ flow_id: flow.flow_id, orderby: 'job_id', order: 'DESC', per_page: 10, offset: 0 });
    const recentJobs = recent.items.map((j) => ({
      job_id: j.job_id,
      status: j.status,
      created_at: j.created_at.toISOString(),
      completed_at: j.completed_at ? j.completed_at.toISOString() : null,
      error: j.error,
    }));
    return flowView(flow, await flows.pipelineOf(flow), {
      nextRun: await flows.schedule.nextRun(flow.flow_id),
      isRunning: Boolean(flow.running_job_id),
      recentJobs,
    });
  };
  return withResponses(
    {
      id: 'flows',
      routes: [
        {
          method: 'GET',
          path: '/flows/problems',
          permission: admin,
          summary: 'Flows whose consecutive failures or empty runs reach the threshold',
          schema: { query: problemsQuery },
          async handle(request) {
            const threshold = (request.query as { threshold?: number }).threshold ?? (await settings.get()).problem_flow_threshold;
            const found = await flows.problems(threshold);
            const problem_flows = found.map((f) => ({
              flow_id: f.flow_id,
              flow_name: f.flow_name,
              consecutive_failures: f.consecutive_failures,
              consecutive_no_items: f.consecutive_no_items,
            }));
            return { success: true, data: { problem_flows, total: problem_flows.length, threshold } };
          },
        },
        {
          method: 'GET',
          path: '/flows',
          permission: admin,
          summary: 'List flows (optionally of one pipeline)',
          schema: { query: listFlowsQuery },
          async handle(request) {
            const q = request.query as { pipeline_id?: number; per_page: number; offset: number; output_mode: 'list' | 'full' };
            const { items, total } = await flows.list({ pipelineId: q.pipeline_id, perPage: q.per_page, offset: q.offset });
            const views =
              q.output_mode === 'list'
                ? items.map((f) => ({
                    flow_id: f.flow_id,
                    flow_name: f.flow_name,
                    pipeline_id: f.pipeline_id,
                    scheduling_config: publicScheduling(f.scheduling_config),
                    last_run_status: f.last_run_status,
                  }))
                : await Promise.all(items.map(whole));
            return { success: true, data: { flows: views, total }, total, per_page: q.per_page, offset: q.offset };
          },
        },
        {
          method: 'POST',
          path: '/flows',
          permission: admin,
          summary: 'Create a flow: a flow step for each pipeline step',
          schema: { body: createFlowBody },
          async handle(request) {
            const flow = await flows.create(request.body as { pipeline_id: number }, request.user);
            return { success: true, message: 'Flow created.', data: createdFlowView(flow, (await flows.pipelineOf(flow))!) };
          },
        },
        {
          method: 'GET',
          path: '/flows/{flow_id}',
          permission: admin,
          summary: 'The whole flow with schedule, run status and recent jobs',
          schema: { params: flowIdParams },
          async handle(request) {
            return { success: true, data: await whole(await flows.get((request.params as { flow_id: number }).flow_id)) };
          },
        },
        {
          method: 'PATCH',
          path: '/flows/{flow_id}',
          permission: admin,
          summary: 'Rename or reschedule a flow; answers the whole flow',
          schema: { params: flowIdParams, body: patchFlowBody },
          async handle(request) {
            const flow = await flows.update(
              (request.params as { flow_id: number }).flow_id,
              request.body as { flow_name?: string; scheduling_config?: SchedulingConfig },
              request.user,
            );
            return { success: true, message: 'Flow updated.', data: await whole(flow) };
          },
        },
        {
          method: 'DELETE',
          path: '/flows/{flow_id}',
          permission: admin,
          summary: 'Delete a flow and its schedule',
          schema: { params: flowIdParams },
          async handle(request) {
            const flowId = (request.params as { flow_id: number }).flow_id;
            await flows.delete(flowId, request.user);
            return { success: true, message: 'Flow deleted.', data: { flow_id: flowId } };
          },
        },
        {
          method: 'POST',
          path: '/flows/{flow_id}/duplicate',
          permission: admin,
          summary: 'Copy a flow: steps, handler config and schedule (not webhook secrets)',
          schema: { params: flowIdParams },
          async handle(request) {
            const sourceId = (request.params as { flow_id: number }).flow_id;
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
        },
        {
          method: 'GET',
          path: '/flows/{flow_id}/config',
          permission: admin,
          summary: 'The flow config: flow step id → flow step configuration',
          schema: { params: flowIdParams },
          async handle(request) {
            const flow = await flows.get((request.params as { flow_id: number }).flow_id);
            return { success: true, flow_id: flow.flow_id, flow_config: flowConfig(flow, await flows.pipelineOf(flow)) };
          },
        },
        {
          method: 'GET',
          path: '/flows/steps/{flow_step_id}/config',
          permission: admin,
          summary: 'One flow step configuration',
          schema: { params: flowStepParams },
          async handle(request) {
            const id = (request.params as { flow_step_id: string }).flow_step_id;
            const { config } = await flows.stepConfig(id);
            return { success: true, flow_step_id: id, config };
          },
        },
        {
          method: 'PUT',
          path: '/flows/steps/{flow_step_id}/handler',
          permission: admin,
          summary: "Pick a step's handler; settings are validated by the handler's schema",
          schema: { params: flowStepParams, body: setHandlerBody },
          async handle(request) {
            const id = (request.params as { flow_step_id: string }).flow_step_id;
            const { flow, config } = await flows.setHandler(
              id,
              request.body as { handler_slug: string; settings?: Record<string, unknown> },
              request.user,
            );
            return { success: true, message: 'Handler saved.', data: { flow_id: flow.flow_id, flow_step_id: id, step_config: config } };
          },
        },
        {
          method: 'PATCH',
          path: '/flows/steps/{flow_step_id}/config',
          permission: admin,
          summary: "Merge a step's handler_config, or set an ai step's user_message",
          schema: { params: flowStepParams, body: patchStepConfigBody },
          async handle(request) {
            const id = (request.params as { flow_step_id: string }).flow_step_id;
            const config = await flows.patchStepConfig(id, request.body as { handler_config?: Record<string, unknown> }, request.user);
            return { success: true, message: 'Step configuration saved.', data: { flow_step_id: id, step_config: config } };
          },
        },
      ],
    },
    flowsResponses,
  );
}
