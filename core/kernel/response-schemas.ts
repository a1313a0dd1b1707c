/**
 * Building blocks for a route's `schema.responses`: the bodies it answers, as sent.
 * The test host closes every object schema that leaves `additionalProperties` out, so
 * a field a route answers without declaring it fails a test.
 */
import type { JsonSchema } from './json-schema.js';

/** A core-API success body: `success: true` plus the given fields. */
export function successBody(properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema {
  return {
    type: 'object',
    required: ['success', ...required],
    properties: { success: { const: true }, ...properties },
  };
}

/** The error body (`code`, `message`, `data.status`), with the codes this status can carry. */
export function errorBody(...codes: string[]): JsonSchema {
  return {
    type: 'object',
    required: ['code', 'message', 'data'],
    properties: {
      code: codes.length ? { enum: codes } : { type: 'string' },
      message: { type: 'string' },
      // Error details differ by code (field, limit, allowed values...): open on purpose.
      data: { type: 'object', required: ['status'], properties: { status: { type: 'integer' } }, additionalProperties: true },
    },
    additionalProperties: false,
  };
}
