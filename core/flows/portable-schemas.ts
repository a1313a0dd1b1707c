/**
 * The portable export document (`flowhost_export: 1`): a pipeline with its steps and
 * flows, steps named by position, never ids, secrets or credentials. One schema serves
 * the import's validation and the export routes' declared answers.
 */
import type { JsonSchema } from '../kernel/json-schema.js';

export const EXPORT_VERSIONS = [1] as const;
export const MAX_IMPORT_STEPS = 50;
export const MAX_IMPORT_FLOWS = 100;

const text = (maxLength: number, minLength = 0) => ({ type: 'string', minLength, maxLength }) as const;

export const exportStepSchema = {
  type: 'object',
  required: ['position', 'type'],
  additionalProperties: false,
  properties: {
    position: { type: 'integer', minimum: 1, maximum: MAX_IMPORT_STEPS },
    type: text(50, 1),
    label: text(200),
    provider: text(100),
    model: text(200),
    system_prompt: text(20000),
  },
} as const;

export const exportFlowStepSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    handler_slug: { type: ['string', 'null'], maxLength: 100 },
    handler_config: { type: 'object', additionalProperties: true },
    enabled: { type: 'boolean' },
    user_message: text(20000),
    /** Fields of handler_config (dotted) the export left out because they are secret. */
    secrets_omitted: { type: 'array', maxItems: 100, items: text(300, 1) },
  },
} as const;

export const exportFlowSchema = {
  type: 'object',
  required: ['name', 'steps'],
  additionalProperties: false,
  properties: {
    name: text(200, 1),
    /** The flow's revision the export was taken at (GET /flows/{id}/revisions/{rev}); import ignores it. */
    revision: { type: ['integer', 'null'], minimum: 1 },
    scheduling_config: {
      type: 'object',
      required: ['interval'],
      additionalProperties: false,
      properties: { interval: text(50, 1), timestamp: { type: 'integer', minimum: 0, maximum: 253402300799 } },
    },
    steps: {
      type: 'object',
      propertyNames: { pattern: '^[1-9][0-9]?$' },
      additionalProperties: exportFlowStepSchema,
    },
  },
} as const;

export const exportDocumentSchema = {
  type: 'object',
  required: ['flowhost_export', 'pipeline', 'flows'],
  additionalProperties: false,
  properties: {
    flowhost_export: { type: 'integer', enum: [...EXPORT_VERSIONS] },
    exported_at: text(64),
    pipeline: {
      type: 'object',
      required: ['name', 'steps'],
      additionalProperties: false,
      properties: {
        name: text(200, 1),
        /** The pipeline's revision the export was taken at; import ignores it. */
        revision: { type: ['integer', 'null'], minimum: 1 },
        steps: { type: 'array', maxItems: MAX_IMPORT_STEPS, items: exportStepSchema },
      },
    },
    flows: { type: 'array', maxItems: MAX_IMPORT_FLOWS, items: exportFlowSchema },
    /** Every secret left out, as a path in this document (`flows[0].steps.1.handler_config.api_key`). */
    secrets_omitted: { type: 'array', maxItems: 10000, items: text(400, 1) },
  },
} as const;

/** The import route's declared body: an object; the document is checked by the route itself (400 invalid_import naming the field). */
export const importBody = {
  type: 'object',
  description: 'A document from GET /flows/{id}/export or GET /pipelines/{id}/export (flowhost_export: 1)',
} as const satisfies JsonSchema;
