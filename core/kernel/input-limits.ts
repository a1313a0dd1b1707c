import type { JsonSchema } from './json-schema.js';

/**
 * The bounds every request input is held to before anything reaches a store, as data so
 * docs/api.md ("Input limits") and the fuzz suite read the same numbers the host enforces.
 */
export const INPUT_LIMITS = {
  /** Nesting of objects and arrays in a JSON body (`{}` is depth 1). MongoDB stops at 100. */
  jsonDepth: 64,
  /** Nesting a store accepts in one document: MongoDB's own limit, enforced on both stores. */
  documentDepth: 100,
  /** Integers are exact in JSON and both stores only up to 2^53 - 1. */
  maxInteger: Number.MAX_SAFE_INTEGER,
  minInteger: Number.MIN_SAFE_INTEGER,
  /** Unix seconds: 9999-12-31T23:59:59Z, the last instant both stores order correctly. */
  maxUnixSeconds: 253_402_300_799,
  /** Largest finite double: a declared `number` must be finite (`1e309` is Infinity). */
  maxNumber: Number.MAX_VALUE,
} as const;

type MutableSchema = Record<string, unknown>;

const NESTED_SINGLE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
] as const;
const NESTED_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const NESTED_MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

function typesOf(schema: MutableSchema): string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

function clamp(schema: MutableSchema, key: 'minimum' | 'maximum', bound: number, tighter: (a: number, b: number) => number): void {
  const given = schema[key];
  schema[key] = typeof given === 'number' ? tighter(given, bound) : bound;
}

/**
 * A copy of a route schema in which every integer is a safe integer and every number
 * finite: ajv accepts `Infinity` (from `?id=1e309`) as an integer and a number unless a
 * bound says otherwise, and a store then fails on it. Declared bounds stay when tighter.
 */
export function boundSchema(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
    const out: MutableSchema = { ...(node as MutableSchema) };
    const types = typesOf(out);
    if (types.includes('integer')) {
      clamp(out, 'maximum', INPUT_LIMITS.maxInteger, Math.min);
      clamp(out, 'minimum', INPUT_LIMITS.minInteger, Math.max);
    } else if (types.includes('number')) {
      clamp(out, 'maximum', INPUT_LIMITS.maxNumber, Math.min);
      clamp(out, 'minimum', -INPUT_LIMITS.maxNumber, Math.max);
    }
    for (const key of NESTED_SINGLE) if (key in out) out[key] = walk(out[key]);
    for (const key of NESTED_LIST) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(walk);
    for (const key of NESTED_MAP) {
      const map = out[key];
      if (map && typeof map === 'object' && !Array.isArray(map)) {
        out[key] = Object.fromEntries(Object.entries(map as MutableSchema).map(([name, child]) => [name, walk(child)]));
      }
    }
    return out;
  };
  return walk(schema) as JsonSchema;
}

/** The schema of a Unix time in seconds that both stores can hold as a date. */
export const unixSecondsSchema = { type: 'integer', minimum: 0, maximum: INPUT_LIMITS.maxUnixSeconds } as const;
