/** The bodies the flow routes answer (see docs/api.md), as checked in tests and published in openapi.json. */
import type { JsonSchema } from '../kernel/json-schema.js';
import {
  anyObject,
  bool,
  errorBody,
  int,
  isoDate,
  list,
  mapOf,
  named,
  nullable,
  obj,
  str,
  successBody,
} from '../kernel/response-schemas.js';
import { pipelineStepView } from '../pipelines/step-schema.js';

/** One entry of flow_config: a pipeline step as this flow configures it. */
export const flowStepConfig: JsonSchema = named(
  'FlowStepConfig',
  obj(
    {
      flow_step_id: str,
      pipeline_step_id: str,
      step_type: str,
      execution_order: int,
      handler_slug: nullable(str),
      handler_config: anyObject,
      enabled: bool,
      user_message: { type: 'string', description: 'ai steps only' },
      missing_settings: {
        type: 'array',
        items: str,
        description: "Required settings of the step's handler it still lacks ([] when none): a run refuses the step until they are set",
      },
    },
    ['flow_step_id', 'pipeline_step_id', 'step_type', 'execution_order', 'handler_slug', 'handler_config', 'enabled'],
  ),
);

export const schedulingConfig: JsonSchema = named('SchedulingConfig', obj({ interval: str, timestamp: int }, ['interval']));

const recentJob = obj({ job_id: int, status: str, created_at: isoDate, completed_at: nullable(isoDate), error: nullable(str) });

/** The whole flow (GET /flows/{id}, PATCH, the list in full mode). */
export const flowView: JsonSchema = named(
  'Flow',
  obj({
    flow_id: int,
    pipeline_id: int,
    flow_name: str,
    flow_config: mapOf(flowStepConfig),
    scheduling_config: schedulingConfig,
    last_run: nullable(isoDate),
    last_run_status: nullable(str),
    last_run_display: str,
    next_run: nullable(isoDate),
    next_run_display: str,
    is_running: bool,
    consecutive_failures: int,
    consecutive_no_items: int,
    recent_jobs: list(recentJob),
    created_at: isoDate,
    updated_at: isoDate,
    owner_id: { ...nullable(int), description: 'The user whose capabilities the runs write content with (kses without unfiltered_html)' },
    revision: {
      ...nullable(int),
      description: "The flow's latest revision (GET /flows/{id}/revisions); null before its first recorded change",
    },
  }),
);

const flowListItem = named(
  'FlowSummary',
  obj({ flow_id: int, pipeline_id: int, flow_name: str, scheduling_config: schedulingConfig, last_run_status: nullable(str) }),
);

const flowNotFound = errorBody('flow_not_found');
const stepNotFound = errorBody('config_not_found');
const invalidSchedule = errorBody('rest_invalid_param');
const handlerErrors = ['handler_not_found', 'handler_step_mismatch', 'rest_invalid_param'];

export const flowsResponses: Record<string, Record<number, JsonSchema>> = {
  'GET /flows/problems': {
    200: successBody({
      data: obj({
        problem_flows: list(
          obj({
            flow_id: int,
            flow_name: str,
            consecutive_failures: int,
            consecutive_no_items: int,
            needs_configuration: list(obj({ flow_step_id: str, handler_slug: str, missing_settings: list(str) })),
            orphaned: list(
              obj({
                kind: { type: 'string', enum: ['handler', 'step_type', 'interval'] },
                name: str,
                flow_step_id: nullable(str),
                plugin: nullable(str),
                reason: str,
              }),
            ),
          }),
        ),
        total: int,
        threshold: int,
      }),
    }),
  },
  'GET /flows': {
    200: successBody({
      data: obj({ flows: list({ anyOf: [flowView, flowListItem] }), total: int }),
      total: int,
      per_page: int,
      offset: int,
    }),
  },
  'POST /flows': {
    200: successBody({
      message: str,
      data: obj({
        flow_id: int,
        pipeline_id: int,
        flow_name: str,
        flow_config: mapOf(flowStepConfig),
        scheduling_config: schedulingConfig,
      }),
    }),
    400: errorBody('config_not_found', 'rest_invalid_param', ...handlerErrors),
    404: errorBody('pipeline_not_found'),
  },
  'GET /flows/{flow_id}': { 200: successBody({ data: flowView }), 404: flowNotFound },
  'PATCH /flows/{flow_id}': { 200: successBody({ message: str, data: flowView }), 400: invalidSchedule, 404: flowNotFound },
  'DELETE /flows/{flow_id}': { 200: successBody({ message: str, data: obj({ flow_id: int }) }), 404: flowNotFound },
  'POST /flows/{flow_id}/duplicate': {
    200: successBody({
      source_flow_id: int,
      new_flow_id: int,
      flow_name: str,
      pipeline_id: int,
      flow_data: flowView,
      pipeline_steps: list(pipelineStepView),
    }),
    404: flowNotFound,
  },
  'GET /flows/{flow_id}/config': { 200: successBody({ flow_id: int, flow_config: mapOf(flowStepConfig) }), 404: flowNotFound },
  'GET /flows/steps/{flow_step_id}/config': { 200: successBody({ flow_step_id: str, config: flowStepConfig }), 404: stepNotFound },
  'PUT /flows/steps/{flow_step_id}/handler': {
    200: successBody({ message: str, data: obj({ flow_id: int, flow_step_id: str, step_config: flowStepConfig }) }),
    400: errorBody('step_type_mismatch', 'pipeline_mismatch', ...handlerErrors),
    404: stepNotFound,
  },
  'PATCH /flows/steps/{flow_step_id}/config': {
    200: successBody({ message: str, data: obj({ flow_step_id: str, step_config: flowStepConfig }) }),
    400: errorBody('not_an_ai_step', 'handler_not_set', ...handlerErrors),
    404: stepNotFound,
  },
};
