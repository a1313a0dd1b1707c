/** The bodies POST /execute answers (see docs/api.md). */
import type { JsonSchema } from '../kernel/json-schema.js';
import { errorBody, int, nullable, obj, str, successBody } from '../kernel/response-schemas.js';

export const executeResponses: Record<string, Record<number, JsonSchema>> = {
  'POST /execute': {
    200: successBody({
      message: str,
      data: obj(
        { execution_type: { enum: ['immediate', 'delayed'] }, job_id: int, action_id: int, flow_id: int, flow_name: str, step_count: int },
        ['execution_type', 'job_id', 'action_id'],
      ),
    }),
    400: errorBody(
      'rest_invalid_param',
      'rest_missing_callback_param',
      'invalid_step_type',
      'provider_not_found',
      'handler_not_found',
      'handler_step_mismatch',
    ),
    404: errorBody('flow_not_found'),
    // A run now of a flow that is running: not started, no job (docs/api.md, "Execute and jobs").
    409: errorBody('flow_running', 'flow_orphaned'),
  },
};

/** The bodies POST /jobs/{id}/cancel answers (see docs/api.md, "Execute and jobs"). */
export const cancelResponses: Record<string, Record<number, JsonSchema>> = {
  'POST /jobs/{job_id}/cancel': {
    200: successBody({
      message: str,
      data: obj(
        {
          job_id: int,
          status: { const: 'cancelled' },
          previous_status: { enum: ['pending', 'processing', 'waiting'] },
          flow_id: nullable(int),
        },
        ['job_id', 'status', 'previous_status', 'flow_id'],
      ),
    }),
    404: errorBody('job_not_found'),
    409: errorBody('job_finished'),
  },
};

/** The bodies POST /jobs/{id}/retry answers (see docs/api.md, "Execute and jobs"). */
export const retryResponses: Record<string, Record<number, JsonSchema>> = {
  'POST /jobs/{job_id}/retry': {
    200: successBody({
      message: str,
      data: obj(
        { job_id: int, retry_of: int, from: { enum: ['failed_step', 'start'] }, status: { const: 'pending' }, flow_id: nullable(int) },
        ['job_id', 'retry_of', 'from', 'status', 'flow_id'],
      ),
    }),
    400: errorBody('rest_invalid_param'),
    404: errorBody('job_not_found', 'flow_not_found'),
    409: errorBody('job_not_retryable', 'job_already_retried', 'retry_input_unavailable'),
  },
};
