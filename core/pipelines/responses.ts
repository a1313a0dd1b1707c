/** The bodies the pipeline routes answer (see docs/api.md), as checked in tests and published in openapi.json. */
import type { JsonSchema } from '../kernel/json-schema.js';
import { errorBody, int, isoDate, list, mapOf, named, nullable, obj, str, successBody } from '../kernel/response-schemas.js';
import { pipelineStepView } from './step-schema.js';
import { flowView } from '../flows/responses.js';

/** The whole pipeline (GET /pipelines/{id}, the list in full mode). */
export const pipelineView: JsonSchema = named(
  'Pipeline',
  obj(
    {
      pipeline_id: int,
      pipeline_name: str,
      agent_id: nullable(int),
      pipeline_config: mapOf(pipelineStepView),
      pipeline_steps: list(pipelineStepView),
      step_count: int,
      flow_count: int,
      created_at: isoDate,
      updated_at: isoDate,
    },
    ['pipeline_id', 'pipeline_name', 'agent_id', 'pipeline_config', 'pipeline_steps', 'step_count', 'created_at', 'updated_at'],
  ),
);

const pipelineListItem = named(
  'PipelineSummary',
  obj({ pipeline_id: int, pipeline_name: str, flow_count: int, step_count: int, created_at: isoDate, updated_at: isoDate }),
);
const single = obj({ pipeline: pipelineView, flows: list(flowView) });
const pipelineNotFound = errorBody('pipeline_not_found');

export const pipelinesResponses: Record<string, Record<number, JsonSchema>> = {
  'GET /pipelines': {
    200: {
      anyOf: [
        successBody({
          data: obj({ pipelines: list({ anyOf: [pipelineListItem, pipelineView] }), total: int }),
          total: int,
          per_page: int,
          offset: int,
        }),
        successBody({ data: single }),
      ],
    },
    404: pipelineNotFound,
  },
  'GET /pipelines/{id}': { 200: successBody({ data: single }), 404: pipelineNotFound },
  'POST /pipelines': {
    200: successBody({ message: str, data: obj({ pipeline_id: int, pipeline_name: str, pipeline_data: pipelineView }) }),
    400: errorBody('invalid_step_type', 'provider_not_found'),
  },
  'PATCH /pipelines/{id}': { 200: successBody({ message: str, data: pipelineView }), 404: pipelineNotFound },
  'DELETE /pipelines/{id}': {
    200: successBody({ message: str, data: obj({ pipeline_id: int, deleted_flows: int }) }),
    404: pipelineNotFound,
  },
  'POST /pipelines/{id}/steps': {
    200: successBody({ message: str, data: obj({ pipeline_step_id: str, step_data: pipelineStepView }) }),
    400: errorBody('invalid_step_type'),
    404: pipelineNotFound,
  },
  'DELETE /pipelines/{id}/steps/{pipeline_step_id}': {
    200: successBody({ message: str, data: obj({ pipeline_id: int, pipeline_step_id: str }) }),
    404: errorBody('pipeline_not_found', 'step_not_found'),
  },
  'PUT /pipelines/{id}/steps/reorder': {
    200: successBody({ message: str, data: obj({ pipeline_steps: list(pipelineStepView) }) }),
    400: errorBody('invalid_step_order'),
    404: pipelineNotFound,
  },
  'PUT /pipelines/steps/{pipeline_step_id}/config': {
    200: successBody({ message: str, data: pipelineStepView }),
    400: errorBody('step_type_mismatch', 'pipeline_mismatch', 'provider_not_found'),
    404: errorBody('step_not_found'),
  },
};
