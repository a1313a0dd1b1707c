import { unixSecondsSchema } from '../kernel/input-limits.js';
export const flowIdParams = { type: 'object', required: ['flow_id'], properties: { flow_id: { type: 'integer', minimum: 1 } } } as const;
export const flowStepParams = {
  type: 'object',
  required: ['flow_step_id'],
  properties: { flow_step_id: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

export const schedulingConfigSchema = {
  type: 'object',
  required: ['interval'],
  additionalProperties: false,
  properties: { interval: { type: 'string', minLength: 1, maxLength: 50 }, timestamp: unixSecondsSchema },
} as const;

export const createFlowBody = {
  type: 'object',
  required: ['pipeline_id'],
  properties: {
    pipeline_id: { type: 'integer', minimum: 1 },
    flow_name: { type: 'string', maxLength: 200 },
    flow_config: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: {
          handler_slug: { type: 'string' },
          handler_config: { type: 'object' },
          enabled: { type: 'boolean' },
          user_message: { type: 'string', maxLength: 20000 },
        },
      },
    },
    scheduling_config: schedulingConfigSchema,
  },
} as const;

export const listFlowsQuery = {
  type: 'object',
  properties: {
    pipeline_id: { type: 'integer', minimum: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 100, description: 'Default: the site setting flows_per_page (20)' },
    offset: { type: 'integer', minimum: 0, default: 0 },
    output_mode: { enum: ['list', 'full'], default: 'full' },
  },
} as const;

export const patchFlowBody = {
  type: 'object',
  minProperties: 1,
  properties: {
    flow_name: { type: 'string', minLength: 1, maxLength: 200 },
    scheduling_config: schedulingConfigSchema,
    owner_id: { type: ['integer', 'null'], minimum: 1 },
  },
} as const;

export const problemsQuery = { type: 'object', properties: { threshold: { type: 'integer', minimum: 1, maximum: 1000 } } } as const;

export const setHandlerBody = {
  type: 'object',
  required: ['handler_slug'],
  properties: {
    handler_slug: { type: 'string', minLength: 1, maxLength: 100 },
    pipeline_id: { type: 'integer', minimum: 1 },
    step_type: { type: 'string' },
    settings: { type: 'object' },
  },
} as const;

export const patchStepConfigBody = {
  type: 'object',
  minProperties: 1,
  properties: { handler_config: { type: 'object' }, user_message: { type: 'string', maxLength: 20000 }, enabled: { type: 'boolean' } },
} as const;
