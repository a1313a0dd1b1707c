/**
 * Building blocks for a route's `schema.responses`: the bodies it answers, as sent.
 * The test host closes every object schema that leaves `additionalProperties` out, so
 * a field a route answers without declaring it fails a test.
 */
import type { JsonSchema } from './json-schema.js';
import type { SurfaceDefinition } from './routes.js';

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
      code: codes.length ? { enum: [...new Set(codes)] } : { type: 'string' },
      message: { type: 'string' },
      // Error details differ by code (field, limit, allowed values...): open on purpose.
      data: { type: 'object', required: ['status'], properties: { status: { type: 'integer' } }, additionalProperties: true },
    },
    additionalProperties: false,
  };
}

// Short forms for the host's own route tables (the SDK exports successBody and errorBody).
export const str: JsonSchema = { type: 'string' };
export const int: JsonSchema = { type: 'integer' };
export const num: JsonSchema = { type: 'number' };
export const bool: JsonSchema = { type: 'boolean' };
/** An ISO 8601 timestamp as `Date.toISOString()` writes it. */
export const isoDate: JsonSchema = { type: 'string', description: 'ISO 8601 date-time' };
/** A free-form object (settings, handler config, engine data): any fields. */
export const anyObject: JsonSchema = { type: 'object', additionalProperties: true };

/** An object with exactly these fields; all required unless `required` says otherwise. */
export function obj(properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema {
  return { type: 'object', required, properties };
}

/** An object with these fields and possibly others (a view that spreads free-form config). */
export function openObj(properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema {
  return { type: 'object', required, properties, additionalProperties: true };
}

/**
 * The keyword that names a shared shape: openapi.json publishes a schema carrying it once,
 * under `components.schemas[name]`, and `$ref`s it wherever it is used. Validators ignore
 * it (an unknown keyword), so the route tables keep declaring whole schemas inline.
 */
export const COMPONENT_NAME = 'x-flowhost-component';

/** `schema`, named for openapi.json (`Flow`, `Pipeline`...): one component, referenced where used. */
export function named(name: string, schema: JsonSchema): JsonSchema {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`named: '${name}' is not a component name (letters and digits)`);
  return { ...schema, [COMPONENT_NAME]: name };
}

/** The value, or null. */
export function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

export function list(items: JsonSchema): JsonSchema {
  return { type: 'array', items };
}

/** An object keyed by ids (flow_config, pipeline_config): each value matches `value`. */
export function mapOf(value: JsonSchema): JsonSchema {
  return { type: 'object', additionalProperties: value };
}

/**
 * Sets `schema.responses` on a surface's routes from a table keyed by `METHOD path` (the
 * route's own path): a key that names no route, or a route the table leaves out, is a
 * mistake and throws, so the table and the routes cannot drift apart.
 */
export function withResponses(surface: SurfaceDefinition, table: Record<string, Readonly<Record<number, JsonSchema>>>): SurfaceDefinition {
  const keys = new Set(Object.keys(table));
  if (typeof surface.routes === 'function')
    throw new Error(`Surface '${surface.id}': withResponses needs the routes as a list (a routes function declares its responses itself)`);
  for (const route of surface.routes) {
    const key = `${route.method} ${route.path}`;
    const responses = table[key];
    if (!responses) throw new Error(`Surface '${surface.id}': no responses declared for ${key}`);
    keys.delete(key);
    // A route that declares its own (next to its code) keeps them; the table adds the rest.
    route.schema = { ...(route.schema ?? {}), responses: { ...responses, ...(route.schema?.responses ?? {}) } };
  }
  if (keys.size) throw new Error(`Surface '${surface.id}': responses declared for routes it does not have: ${[...keys].join(', ')}`);
  return surface;
}
