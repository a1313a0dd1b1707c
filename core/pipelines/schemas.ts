export const pipelineIdParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
const stepId = { type: 'string', pattern: '^\\d+_[0-9a-f-]{36}$' } as const;

export const listPipelinesQuery = {
  type: 'object',
  properties: {
    per_page: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    offset: { type: 'integer', minimum: 0, default: 0 },
    search: { type: 'string', maxLength: 200 },
    output_mode: { enum: ['list', 'full'], default: 'full' },
    include_flows: { type: 'boolean', default: false },
    pipeline_id: { type: 'integer', minimum: 1 },
  },
} as const;

export const createPipelineBody = {
  type: 'object',
  required: ['pipeline_name'],
  additionalProperties: false,
  properties: {
    pipeline_name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'Not blank (it is stored trimmed)' },
    agent_id: { type: ['integer', 'null'], minimum: 1 },
    steps: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        required: ['step_type'],
        additionalProperties: false,
        properties: { step_type: { type: 'string', minLength: 1 }, label: { type: 'string', maxLength: 200 }, config: { type: 'object' } },
      },
    },
  },
} as const;

export const renamePipelineBody = {
  type: 'object',
  required: ['pipeline_name'],
  additionalProperties: false,
  properties: {
    pipeline_name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'Not blank (it is stored trimmed)' },
  },
} as const;

export const addStepBody = {
  type: 'object',
  required: ['step_type'],
  properties: {
    step_type: { type: 'string', minLength: 1, maxLength: 50 },
    execution_order: { type: 'integer', minimum: 0 },
    label: { type: 'string', maxLength: 200 },
  },
} as const;

export const stepParams = {
  type: 'object',
  required: ['id', 'pipeline_step_id'],
  properties: { id: { type: 'integer', minimum: 1 }, pipeline_step_id: stepId },
} as const;

export const reorderBody = {
  type: 'object',
  required: ['step_order'],
  properties: {
    step_order: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['pipeline_step_id', 'execution_order'],
        properties: { pipeline_step_id: stepId, execution_order: { type: 'integer', minimum: 0 } },
      },
    },
  },
} as const;

export const stepConfigParams = { type: 'object', required: ['pipeline_step_id'], properties: { pipeline_step_id: stepId } } as const;

export const stepConfigBody = {
  type: 'object',
  properties: {
    step_type: { type: 'string' },
    pipeline_id: { type: 'integer', minimum: 1 },
    system_prompt: { type: 'string', maxLength: 20000 },
    provider: { type: 'string', maxLength: 100 },
    model: { type: 'string', maxLength: 200 },
    label: { type: 'string', maxLength: 200 },
  },
} as const;
