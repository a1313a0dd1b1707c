import type { JsonSchema } from '../kernel/json-schema.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The string values a schema allows: `enum`, `const`, or `anyOf`/`oneOf` of those (TypeBox's unions of literals). */
function valuesOf(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  if (Array.isArray(schema.enum)) return schema.enum.filter((v): v is string => typeof v === 'string');
  if (typeof schema.const === 'string') return [schema.const];
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  return branches.flatMap(valuesOf);
}

/**
 * The actions an analytics tool's parameters schema takes: the values of its required
 * `action` property; empty when it declares none (such a tool is refused when added).
 */
export function actionsOf(parameters: JsonSchema | undefined): string[] {
  if (!isRecord(parameters) || !isRecord(parameters.properties)) return [];
  const required = Array.isArray(parameters.required) ? parameters.required : [];
  if (!required.includes('action')) return [];
  return [...new Set(valuesOf(parameters.properties.action))];
}
