/**
 * Shared shapes of openapi.json as `components.schemas` and `$ref`s. Route tables declare
 * whole schemas inline (the same objects validate requests and check answers); here, while
 * the document is written, the shapes that recur become named components, so the document
 * stays small and a client generated from it gets one type per shape instead of hundreds
 * of anonymous copies:
 * - every error body (`errorBody(...codes)`) becomes `allOf: [Error, { code: enum }]`;
 * - a schema marked with `named('Flow', ...)` becomes `#/components/schemas/Flow`.
 * The route table itself is not changed: the checks still run on the inline schemas.
 */
import type { JsonSchema } from '../../core/kernel/json-schema.js';
import { COMPONENT_NAME, errorBody } from '../../core/kernel/response-schemas.js';

export const ERROR_COMPONENT = 'Error';
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

function errorCodes(schema: JsonSchema): string[] | null {
  const code = (schema.properties as Record<string, JsonSchema> | undefined)?.code;
  if (!code) return null;
  const codes = Array.isArray(code.enum) && code.enum.every((c) => typeof c === 'string') ? (code.enum as string[]) : [];
  // Exactly what errorBody builds for these codes, nothing more: only then is it the shared shape.
  return JSON.stringify(schema) === JSON.stringify(errorBody(...codes)) ? codes : null;
}

/** Keywords whose value is one schema, and those whose value is a list or a map of them. */
const ONE = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

export interface ComponentOptions {
  /**
   * A request's schema (parameters, body): an object that names no properties is free-form
   * there (ajv accepts any fields) and is published with `additionalProperties: true`, which
   * JSON Schema implies but generated clients read as "no fields" (`Record<string, never>`).
   */
  request?: boolean;
}

export class OpenApiComponents {
  readonly schemas: Record<string, JsonSchema> = { [ERROR_COMPONENT]: errorBody() };

  /** A copy of `schema` with its shared shapes replaced by `$ref`s to components added here. */
  use(schema: JsonSchema, options: ComponentOptions = {}): JsonSchema {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
    const codes = errorCodes(schema);
    if (codes)
      return codes.length
        ? { allOf: [ref(ERROR_COMPONENT), { type: 'object', properties: { code: { enum: codes } } }] }
        : ref(ERROR_COMPONENT);
    const { [COMPONENT_NAME]: name, ...rest } = schema as JsonSchema & { [COMPONENT_NAME]?: unknown };
    const out: Record<string, unknown> = { ...rest };
    for (const key of ONE) if (out[key] && typeof out[key] === 'object') out[key] = this.use(out[key] as JsonSchema, options);
    for (const key of LIST) if (Array.isArray(out[key])) out[key] = (out[key] as JsonSchema[]).map((s) => this.use(s, options));
    for (const key of MAP) {
      const map = out[key];
      if (map && typeof map === 'object')
        out[key] = Object.fromEntries(Object.entries(map).map(([k, s]) => [k, this.use(s as JsonSchema, options)]));
    }
    if (options.request && freeForm(out)) out.additionalProperties = true;
    return typeof name === 'string' ? ref(this.add(name, out)) : out;
  }

  /**
   * The component's name: `name`, or, when another shape already has it, `name_2`... (a
   * plugin's clash must not break the document; the host's own names are tested unique).
   */
  private add(name: string, schema: JsonSchema): string {
    const text = JSON.stringify(schema);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}_${n}`;
      const known = this.schemas[candidate];
      if (!known) {
        this.schemas[candidate] = schema;
        return candidate;
      }
      if (JSON.stringify(known) === text) return candidate;
    }
  }

  /** The components, by name (stable output whatever the route order). */
  sorted(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.schemas).sort(([a], [b]) => a.localeCompare(b)));
  }
}

const isObject = (schema: Record<string, unknown>): boolean =>
  schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));

/** An object schema that constrains no field: any fields (JSON Schema), said explicitly. */
function freeForm(schema: Record<string, unknown>): boolean {
  if (!isObject(schema)) return false;
  return !['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'allOf', 'anyOf', 'oneOf', '$ref'].some(
    (k) => k in schema,
  );
}
